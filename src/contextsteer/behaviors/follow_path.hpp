// FollowPath (seed 003): interest along a polyline of waypoints, arriving at the last.
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
// A looped path goes on from its last waypoint back to the first, for ever (a patrol):
// arc lengths wrap around its length, and the agent never arrives.
#pragma once

#include <vector>

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/navigation/polyline.hpp"

namespace contextsteer {

class FollowPath : public InterestBehavior {
 public:
  FollowPath(std::vector<Vec2> waypoints, Real lookahead, Real arrive_radius, Real slowing_radius, Real window,
             bool loop, Real weight, Real sideways = 0);
  Real sideways() const { return sideways_; }

  int memory_width() const override { return 1; }  // the progress, metres along the path
  Real window() const override { return window_; }
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
  Polyline path_;
  Real lookahead_;
  Real arrive_radius_;
  Real slowing_radius_;
  Real window_;
  Real sideways_;  // the lobe's share of its peak at right angles (add_lobe)
};

}  // namespace contextsteer
