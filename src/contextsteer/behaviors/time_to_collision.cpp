#include "contextsteer/behaviors/time_to_collision.hpp"

#include <algorithm>
#include <cmath>

#include "contextsteer/behaviors/support/arc_coverage.hpp"
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
    // Moving obstacles as the discs round them (a circle exactly), at their velocities.
    const MovingObstacles& moving = *scene.moving;
    moving.for_each_body_near(p, params_.radius, senses, [&](int b) {
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

}  // namespace contextsteer
