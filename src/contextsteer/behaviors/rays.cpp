#include "rays.hpp"

#include <algorithm>
#include <cmath>

#include "../geometry.hpp"
#include "../parameter_checks.hpp"
#include "targets.hpp"

namespace contextsteer {

Rays::Rays(Real length, RayMode mode, Real weight) : DangerBehavior(weight), length_(length), mode_(mode) {
  require_positive(length, "length", "a distance", " in metres");
}

void Rays::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real*,
                Real* danger) const {
  if (!scene.obstacles) return;
  const int slots = dirs.slots();
  const Obstacles& o = *scene.obstacles;
  for (int k = 0; k < count; ++k) {
    const int a = agents[k];
    const Vec2 p = scene.position(a);
    const Real r = scene.radius_of(a);
    const LayerMask senses = scene.senses(a);
    Real* row = danger + static_cast<std::size_t>(k) * slots;
    for (int i = 0; i < slots; ++i) {
      const Vec2 d = dirs[i];
      Real t = kInfinity;
      // A hit within length_ lies on an obstacle within length_ + r of the agent.
      o.for_each_near(
          p, length_ + r,
          [&](int c) {
            if (senses & o.circle_layers()[c]) {
              t = std::min(t, ray_circle_distance(p, d, o.circles()[c].centre, o.circles()[c].radius + r));
            }
          },
          [&](int w) {
            if (senses & o.wall_layers()[w]) t = std::min(t, ray_capsule_distance(p, d, o.walls()[w], r));
          });
      if (t <= length_) row[i] = std::max(row[i], mode_ == RayMode::Binary ? Real(1) : 1 - t / length_);
    }
  }
}

}  // namespace contextsteer
