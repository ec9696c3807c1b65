// FollowPath: interest along a polyline of waypoints, arriving at the last.
//
// The agent's progress s is an arc length along the path: the closest point of the path
// to the agent. Slot i gets strength * max(0, dot(u, d_i)), u toward the point at arc
// length min(s + lookahead, length of the path); strength is 1 until that point is the
// last waypoint, then (as Arrive) 0 within arrive_radius of it and distance /
// slowing_radius within slowing_radius.
//
// In a world the progress is kept from step to step and only moves forward: the closest
// point is sought along the `window` metres of path after the last progress, not along
// the whole path, so a path that crosses or comes back near itself is followed in order
// instead of cut short. Without a world (a pipeline evaluated on its own, or the first
// step) the closest point of the whole path is taken.
//
// With to_target, each agent's path ends at its own target (World.targets, or its target
// agent) rather than the last waypoint: once its aim point is the last waypoint it aims at
// its target instead, and arrives there as above. So agents sharing one path part at its
// end, each to its own place.
//
// A looped path goes on from its last waypoint back to the first, for ever (a patrol):
// arc lengths wrap around its length, and the agent never arrives.
#pragma once

#include <vector>

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/navigation/polyline.hpp"

namespace contextsteer {

struct FollowPathParams {
  Real lookahead = 2;         // metres beyond the agent's progress it aims at
  Real arrive_radius = 0.5;   // metres from the last waypoint; no interest within it
  Real slowing_radius = 3.0;  // metres; strength distance / slowing_radius within it of the last waypoint
  Real window = 4;            // metres of path after the last progress where the next is sought
  bool loop = false;          // the path goes on from its last waypoint back to the first
  bool to_target = false;     // each agent's path ends at its own target, not the last waypoint
  Real sideways = 0;          // in [0, 1) (add_lobe)
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(
        field("lookahead", &FollowPathParams::lookahead, "m", "how far beyond its progress the agent aims",
              at_least(0)),
        field("arrive_radius", &FollowPathParams::arrive_radius, "m", "no interest within it of the last waypoint",
              at_least(0)),
        field("slowing_radius", &FollowPathParams::slowing_radius, "m",
              "strength distance / slowing_radius within it of the last waypoint", above(0)),
        field("window", &FollowPathParams::window, "m",
              "path after the last progress where the next is sought; more than an agent travels in a step", above(0)),
        field("loop", &FollowPathParams::loop, "", "the path goes on from its last waypoint back to the first"),
        field("to_target", &FollowPathParams::to_target, "",
              "each agent's path ends at its own target (World.targets) rather than the last waypoint"),
        sideways_field<FollowPathParams>(), weight_field<FollowPathParams>());
  }
};

class FollowPath : public BehaviorWith<FollowPathParams, InterestBehavior> {
 public:
  // Throws std::invalid_argument for no waypoint, a non-finite one, a loop of fewer than
  // two distinct waypoints or a field out of its bounds.
  FollowPath(std::vector<Vec2> waypoints, const FollowPathParams& params);
  // As BehaviorWith::set_params; a change of loop remakes the path.
  void set_params(const FollowPathParams& params, const char* what = "parameters");

  int memory_width() const override { return 1; }  // the progress, metres along the path
  Real window() const override { return params_.window; }
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

  // The progress (metres along the path) of an agent at p whose last progress was
  // `last`: the closest point within [last, last + window], or of the whole path when
  // `last` is NaN (`last` is clamped to the path, or wrapped around a loop).
  Real progress(Vec2 p, Real last) const;
  // The aim point of an agent at progress s, and whether it is the last waypoint.
  Vec2 aim(Real s, bool& at_end) const;
  // The waypoints as given (a loop's closing leg is implied).
  const std::vector<Vec2>& waypoints() const { return waypoints_; }
  bool loop() const { return path_.closed(); }
  // Metres, the closing leg of a loop included.
  Real length() const { return path_.length(); }

 private:
  std::vector<Vec2> waypoints_;
  Polyline path_;  // closed when params_.loop
};

}  // namespace contextsteer
