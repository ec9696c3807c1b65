// Classic steering: behaviours that each return a linear and an
// angular acceleration, and combiners that merge them. It runs on the same agent state
// as context steering, so both approaches can be compared in one world.
//
// For an agent at p with velocity v, maximum speed S and maximum acceleration A, and a
// target t with velocity w (its target agent, or its own or a fixed target point at rest):
//   Seek:   linear = A * unit(t - p)
//   Flee:   linear = A * unit(p - t)
//   Arrive: d = |t - p|; desired speed s = 0 inside target_radius, S * d / slowing_radius
//           inside slowing_radius, else S; linear = (s * unit(t - p) - v) / time_to_target,
//           truncated to A.
//   Leave:  d = |p - t|; nothing beyond danger_radius; desired speed S inside
//           escape_radius, else S - S * d / danger_radius; linear = (desired - v) /
//           time_to_target away from t, truncated to A.
//   Pursue: prediction = max_prediction if |v| <= d / max_prediction, else d / |v|; seek
//           t + w * prediction.  Evade: flee that point.
//   Face:   turn toward the bearing of t; LookWhereYouGo: toward the bearing of v. Both
//           aim for an angular velocity sign(r) * min(max_turn_rate, |r| / time_to_target),
//           r the angle still to turn, and return angular = (that - omega) / time_to_target;
//           once |r| < align_tolerance, they brake the turn: angular = -omega / time_to_target.
// Behaviours that see the scene (avoidance.hpp, following.hpp): ObstacleAvoidance,
// WallAvoidance, Separation, FollowPath and FollowField.
// In a world's step, time_to_target is at least the step's dt: a goal is reached within
// the step at the fastest, never overshot (see reach_time in steering.cpp).
// Blend combines every behaviour as sum_k weight_k * output_k. Priority blends the
// behaviours of each priority level (lowest first) and takes the first level whose
// linear or angular part exceeds epsilon.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/navigation/navigation_field.hpp"
#include "contextsteer/navigation/polyline.hpp"
#include "contextsteer/scene/scene.hpp"

namespace contextsteer {

struct SteeringOutput {
  Vec2 linear;       // m/s^2
  Real angular = 0;  // rad/s^2
};

enum class ClassicKind {
  Seek,
  Flee,
  Arrive,
  Leave,
  Pursue,
  Evade,
  Face,
  LookWhereYouGo,
  ObstacleAvoidance,
  WallAvoidance,
  Separation,
  FollowPath,
  FollowField
};
ClassicKind parse_classic_kind(const std::string& name, const char* argument);

struct ClassicBehavior {
  ClassicKind kind = ClassicKind::Seek;
  Real weight = 1;
  int priority = 0;  // Priority combiner: lower levels are tried first
  bool fixed_target = false;
  Vec2 target;                                   // used when fixed_target, else the agent's own target
  Real target_radius = Real(0.5);                // Arrive, metres
  Real slowing_radius = 3;                       // Arrive, metres
  Real time_to_target = Real(0.1);               // Arrive, Leave, Face, LookWhereYouGo, seconds
  Real escape_radius = 1;                        // Leave, metres
  Real danger_radius = 5;                        // Leave, metres
  Real max_prediction = 1;                       // Pursue, Evade, seconds
  Real align_tolerance = Real(0.01);             // Face, LookWhereYouGo, radians
  Real horizon = 1;                              // ObstacleAvoidance, WallAvoidance, seconds
  Real margin = Real(0.2);                       // ObstacleAvoidance, WallAvoidance, metres of clearance
  Real feeler_angle = Real(0.6);                 // WallAvoidance, radians between the middle and each side feeler
  Real radius = 1;                               // Separation, metres between discs
  Real lookahead = 1;                            // FollowPath, metres along the path
  std::shared_ptr<const Polyline> path;          // FollowPath
  std::shared_ptr<const NavigationField> field;  // FollowField
};

enum class CombinerKind { Blend, Priority };
CombinerKind parse_combiner(const std::string& name, const char* argument);

class ClassicSteering {
 public:
  // Throws std::invalid_argument for non-finite or out-of-range parameters.
  ClassicSteering(std::vector<ClassicBehavior> behaviors, CombinerKind combiner, Real epsilon = Real(1e-3));

  const std::vector<ClassicBehavior>& behaviors() const { return behaviors_; }
  CombinerKind combiner() const { return combiner_; }
  // Whether any behaviour steers the heading; if none does, the heading follows the velocity.
  bool steers_heading() const { return steers_heading_; }

  // The combined steering of agent a, its linear part truncated to the agent's maximum acceleration.
  SteeringOutput compute(const SceneView& scene, int a) const { return compute(scene, a, nullptr); }

  // What compute() weighs for agent a, for a user asking why it steers as it does.
  struct Explanation {
    std::vector<SteeringOutput> behaviors;  // each behaviour's output, unweighted, in order
    SteeringOutput combined;                // what compute() returns
    int level = 0;                          // Priority: the priority level taken (0 for Blend)
  };
  Explanation explain(const SceneView& scene, int a) const;

 private:
  // compute(), which also stores the priority level taken in *level when given.
  SteeringOutput compute(const SceneView& scene, int a, int* level) const;
  SteeringOutput blend(const SceneView& scene, int a, int priority, bool all) const;

  std::vector<ClassicBehavior> behaviors_;
  std::vector<int> levels_;  // distinct priorities, ascending
  CombinerKind combiner_;
  Real epsilon_;
  bool steers_heading_ = false;
};

// One behaviour's output for agent a, before weighting.
SteeringOutput classic_output(const ClassicBehavior& b, const SceneView& scene, int a);

// The angle in (-pi, pi] equivalent to `angle`.
Real wrap_angle(Real angle);

}  // namespace contextsteer
