// What several classic behaviours share: unit vectors, the time a goal velocity is
// reached over, and the acceleration that reaches a desired velocity.
#pragma once

#include <algorithm>
#include <cmath>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/scene/scene.hpp"

namespace contextsteer::classic_support {

// v made unit length; (0, 0) for (0, 0).
inline Vec2 unit(Vec2 v) {
  const Real len = length(v);
  return len > 0 ? v * (1 / len) : Vec2{};
}

// The time over which a goal velocity is reached: time_to_target, but not less than the
// step the world takes. Reaching it "in 0.01 s" within a step of 0.1 s would overshoot
// tenfold; with an unlimited turn rate, each step would then overshoot the last, and the
// angular velocity would grow without bound.
inline Real reach_time(const SceneView& scene, Real time_to_target) { return std::max(time_to_target, scene.dt); }

// (desired - v) / reach time, truncated to the agent's maximum acceleration (m/s^2).
inline Vec2 reach_velocity(const SceneView& scene, int a, Vec2 desired, Real time_to_target) {
  return truncate((desired - scene.velocity(a)) * (1 / reach_time(scene, time_to_target)),
                  scene.max_acceleration_of(a));
}

// The acceleration a "full" push takes: the agent's maximum, or 1 m/s^2 when unlimited.
inline Real full_acceleration(const SceneView& scene, int a) {
  const Real limit = scene.max_acceleration_of(a);
  return std::isinf(limit) ? Real(1) : limit;
}

}  // namespace contextsteer::classic_support
