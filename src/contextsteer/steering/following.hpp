// Classic behaviours that follow a way through the scene, for agent a at p with velocity
// v and maximum speed S. Each reaches for a desired velocity over time_to_target, as
// Arrive does: linear = (desired - v) / time_to_target, truncated to the maximum
// acceleration (m/s^2).
//
//   FollowPath: q is the point `lookahead` metres on along the path from the point of the
//     path closest to p (the closest of the whole path: a world keeps nothing between
//     steps for a classic agent, so where a path passes close to another part of itself
//     the agent may take that part). desired = S * unit(q - p); on an open path, once q
//     is the last point, Arrive's speed toward it (0 within target_radius, S * d /
//     slowing_radius within slowing_radius).
//   FollowField: desired = S * the field's direction at p ((0, 0), so braking, at a goal
//     or where no goal can be reached).
#pragma once

#include "contextsteer/base/vec2.hpp"
#include "contextsteer/scene/scene.hpp"

namespace contextsteer {

struct ClassicBehavior;

Vec2 follow_path(const ClassicBehavior& b, const SceneView& scene, int a);
Vec2 follow_field(const ClassicBehavior& b, const SceneView& scene, int a);

}  // namespace contextsteer
