#include "contextsteer/behaviors/time_to_collision.hpp"

#include <algorithm>
#include <cmath>

#include "contextsteer/behaviors/support/arc_coverage.hpp"
#include "contextsteer/behaviors/support/moving_shapes.hpp"
#include "contextsteer/behaviors/support/targets.hpp"
#include "contextsteer/scene/moving_obstacles.hpp"

namespace contextsteer {

TimeToCollision::TimeToCollision(const TimeToCollisionParams& params) : BehaviorWith(params) {}

void TimeToCollision::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real*,
                           Real* danger) const {
  if (!scene.grid) return;
  const Real horizon = params_.horizon;
  const int slots = dirs.slots();
  for (int k = 0; k < count; ++k) {
    const int a = agents[k];
    const Vec2 p = scene.position(a);
    const Vec2 v = scene.velocity(a);
    const Real r = scene.radius_of(a);
    const LayerMask senses = scene.senses(a);
    Real* row = danger + static_cast<std::size_t>(k) * slots;
    scene.grid->for_each_within(p, params_.radius, [&](const Neighbor& n) {
      if (n.agent == a || !(senses & n.layer)) return;
      const Vec2 dp = n.position - p;
      const Vec2 dv = scene.velocity(n.agent) - v;
      const Real speed2 = length_squared(dv);
      const Real t = speed2 > 0 ? std::clamp(-dot(dp, dv) / speed2, Real(0), horizon) : Real(0);
      const Vec2 future = dp + dv * t;
      const Real reach = r + n.radius;
      if (length_squared(future) >= reach * reach) return;  // they will pass each other
      add_disc_danger(dirs, future, reach, falloff_value(params_.falloff, t, horizon), row);
    });
    if (!scene.moving) continue;
    // Moving circles as agents are seen; walls and polygons as their shapes, slot by slot.
    const MovingObstacles& moving = *scene.moving;
    RecentBodies seen;
    moving.for_each_body_near(p, params_.radius, senses, [&](int b) {
      if (moving.kind(b) != BodyKind::kCircle) {
        if (seen.first_time(b)) add_shape_danger(moving, b, p, v, r, dirs, row);
        return;
      }
      const Vec2 dp = moving.position(b) - p;
      const Vec2 dv = moving.velocity(b) - v;
      const Real speed2 = length_squared(dv);
      const Real t = speed2 > 0 ? std::clamp(-dot(dp, dv) / speed2, Real(0), horizon) : Real(0);
      const Vec2 future = dp + dv * t;
      const Real reach = r + moving.extent(b);
      if (length_squared(future) >= reach * reach) return;
      add_disc_danger(dirs, future, reach, falloff_value(params_.falloff, t, horizon), row);
    });
  }
}

void TimeToCollision::add_shape_danger(const MovingObstacles& moving, int b, Vec2 p, Vec2 v, Real r,
                                       const SlotDirections& dirs, Real* row) const {
  const SeenShape shape{moving.shapes().walls().data() + moving.first_wall(b), moving.wall_count(b),
                        moving.kind(b) == BodyKind::kPolygon, p};
  const int slots = dirs.slots();
  const NearestOnShape near = nearest_on_shape(shape);
  if (near.inside || near.distance <= r) {
    // Touching it already: the slots that lead into it (out of a polygon the agent's centre
    // is inside, the ones that do not lead out by the nearest edge).
    const Real w = falloff_value(params_.falloff, 0, params_.horizon);
    const Vec2 into = near.inside ? near.point * Real(-1) : near.point;
    const Real limit = kLeadsAwayDot * near.distance;
    for (int i = 0; i < slots; ++i) {
      if (dot(dirs[i], into) >= limit && near.distance > 0) row[i] = std::max(row[i], w);
    }
    return;
  }
  // Each slot: the agent at its speed along it, the body at its velocity.
  const Real speed = length(v);
  const Vec2 body_v = moving.velocity(b);
  for (int i = 0; i < slots; ++i) {
    const Real t = first_contact_time(shape, r, dirs[i] * speed - body_v);
    if (t <= params_.horizon) row[i] = std::max(row[i], falloff_value(params_.falloff, t, params_.horizon));
  }
}

}  // namespace contextsteer
