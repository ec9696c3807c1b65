// Anticipate: danger from other agents by how fast the agent could walk each way without
// touching one of them within `horizon` seconds, given where they are going.
//
// For slot direction d, the agent's candidate velocity is s * d. A neighbor at relative
// position p moving at velocity v is touched within the horizon when, for some t in
// (0, horizon], |s d t - (p + v t)| < r_a + r_b: the candidate lies in the truncated
// velocity obstacle of the pair. safe(d) is the lowest s >= 0 at which the ray s * d
// enters it (0 when standing already leads into a touch, infinite when no speed does),
// over every sensed neighbor within `radius`. The slot's danger is
//     1 - min(1, safe(d) / max_speed)
// so that with the pipeline's "multiply" danger mode the chosen strength is the share of
// max_speed that stays clear: an agent walks behind a neighbor at the neighbor's pace
// (a follower at the same speed sees no danger), slows for one that stands, and sees an
// oncoming one earlier than a standing one at the same distance.
//
// keep_right (radians) turns every neighbor's position and velocity counter-clockwise
// before the test, so that in a face-off both agents find their right side clearer and
// pass on it.
#pragma once

#include "contextsteer/behaviors/behavior.hpp"

namespace contextsteer {

struct AnticipateParams {
  Real radius = 3;       // metres within which other agents are sensed, > 0
  Real horizon = 1.5;    // seconds looked ahead, > 0
  Real keep_right = 0;   // radians, in [-pi/4, pi/4]
  Real weight = 1;
};

// The lowest speed s >= 0 at which velocity s * d comes within `reach` of a disc at
// relative position p moving at velocity v, within `horizon` seconds; kInfinity when no
// speed does. d is a unit vector.
Real first_unsafe_speed(Vec2 p, Vec2 v, Real reach, Real horizon, Vec2 d);

class Anticipate : public DangerBehavior {
 public:
  explicit Anticipate(const AnticipateParams& params);

  const AnticipateParams& params() const { return params_; }
  Real neighbor_radius() const override { return params_.radius; }
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  AnticipateParams params_;
};

}  // namespace contextsteer
