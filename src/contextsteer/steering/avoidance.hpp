// Classic behaviours that steer clear of what the scene holds, for agent a at p with
// velocity v, speed s = |v|, direction d = v / s (its heading when at rest), radius r and
// full acceleration A (its maximum, or 1 m/s^2 when unlimited). Each returns a linear
// acceleration in m/s^2; the combiner truncates the sum to the agent's maximum.
//
//   ObstacleAvoidance: casts the agent's disc, grown by `margin`, along d over s * horizon
//     metres against the circles and polygons a senses. At the first touch, tau seconds
//     ahead, n is the obstacle's outward normal there; a steers along the part of n across
//     its way (to its left when n points straight back) and brakes by the share of the
//     horizon already used: A * (unit(n - (n.d) d) - (1 - tau / horizon) d), nothing at
//     rest or with nothing ahead within the horizon. Besides, the nearest of them closer
//     than r + margin pushes along its normal by A * min(1, (r + margin - distance) / margin)
//     (A when touching it with no margin), at rest too.
//   WallAvoidance: three feelers from p, one along d of length L = margin + s * horizon,
//     two at +-feeler_angle of length L / 2, against the walls a senses (segments, polygon
//     edges) and the bounds. A feeler whose disc (radius r) would touch a wall after t of
//     its length pushes along the wall's normal at the touch by A * (length - t) / length;
//     the nearest wall closer than r + margin pushes along its normal by
//     A * min(1, (r + margin - distance) / margin) (A when touching it with no margin).
//   Separation: each agent a senses whose disc is within `radius` metres of a's (gap g
//     between the discs, below 0 when they overlap) pushes a straight away from it by
//     A * min(1, (radius - g) / radius), the pushes' sum truncated to A (a crowd pushes no
//     harder than one neighbour); two agents at one point part along x, the lower id
//     toward -x.
#pragma once

#include "contextsteer/base/vec2.hpp"
#include "contextsteer/scene/scene.hpp"

namespace contextsteer {

struct ClassicBehavior;

Vec2 obstacle_avoidance(const ClassicBehavior& b, const SceneView& scene, int a);
Vec2 wall_avoidance(const ClassicBehavior& b, const SceneView& scene, int a);
Vec2 separation(const ClassicBehavior& b, const SceneView& scene, int a);

}  // namespace contextsteer
