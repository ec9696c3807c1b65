// FollowPath (seed 003): interest along a polyline of waypoints, arriving at the last.
//
// Each step the agent's closest point on the path, at arc length s, moves the aim to the
// point at arc length min(s + lookahead, length of the path): the aim advances as the
// agent does, without state. Slot i gets strength * max(0, dot(u, d_i)), u toward the aim;
// strength is 1 until the aim reaches the last waypoint, then (as Arrive) 0 within
// arrive_radius of it and distance / slowing_radius within slowing_radius.
#pragma once

#include <vector>

#include "behavior.hpp"

namespace contextsteer {

class FollowPath : public Behavior {
 public:
  FollowPath(std::vector<Vec2> waypoints, Real lookahead, Real arrive_radius, Real slowing_radius, Real weight);

  bool fills_interest() const override { return true; }
  bool fills_danger() const override { return false; }
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

  // The aim point of an agent at p, and whether it is the last waypoint.
  Vec2 aim(Vec2 p, bool& at_end) const;
  const std::vector<Vec2>& waypoints() const { return waypoints_; }

 private:
  std::vector<Vec2> waypoints_;
  std::vector<Real> cumulative_;  // arc length at each waypoint, metres
  Real lookahead_;
  Real arrive_radius_;
  Real slowing_radius_;
};

}  // namespace contextsteer
