#include "rays.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "../geometry.hpp"
#include "../parameter_checks.hpp"
#include "targets.hpp"

namespace contextsteer {

Rays::Rays(Real length, RayMode mode, Real weight) : DangerBehavior(weight), length_(length), mode_(mode) {
  require_positive(length, "length", "a distance", " in metres");
}

namespace {

// Whether the unit ray (o, d) may meet the disc (centre, reach): false only when it
// surely misses, with a margin against rounding (ray_circle_distance's test, on a disc a
// little wider). A capsule lies within the disc round its middle of radius half its
// length plus its own, so a ray that misses that disc misses the capsule.
bool may_meet(Vec2 o, Vec2 d, Vec2 centre, Real reach) {
  reach = reach * Real(1.001) + Real(1e-4);
  const Vec2 m = o - centre;
  const Real c = length_squared(m) - reach * reach;
  if (c <= 0) return true;
  const Real b = dot(m, d);
  return b <= 0 && b * b - c >= 0;
}

// Per thread: the nearest hit of each slot's ray, metres.
std::vector<Real>& ray_hits(int slots) {
  thread_local std::vector<Real> hits;
  hits.assign(static_cast<std::size_t>(slots), kInfinity);
  return hits;
}

}  // namespace

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
    // One query of the obstacles per agent, each met by every ray it may meet: a hit
    // within length_ lies on an obstacle within length_ + r of the agent.
    std::vector<Real>& t = ray_hits(slots);
    o.for_each_near(
        p, length_ + r,
        [&](int c) {
          if (!(senses & o.circle_layers()[c])) return;
          const Circle& circle = o.circles()[c];
          const Real reach = circle.radius + r;
          for (int i = 0; i < slots; ++i) {
            if (may_meet(p, dirs[i], circle.centre, reach)) {
              t[i] = std::min(t[i], ray_circle_distance(p, dirs[i], circle.centre, reach));
            }
          }
        },
        [&](int w) {
          if (!(senses & o.wall_layers()[w])) return;
          const Segment& wall = o.walls()[w];
          if (length(p - closest_point_on_segment(wall, p)) <= r) {  // inside: every ray hits at 0
            std::fill(t.begin(), t.end(), Real(0));
            return;
          }
          const Vec2 middle = (wall.a + wall.b) * Real(0.5);
          const Real reach = length(wall.b - wall.a) * Real(0.5) + r;
          for (int i = 0; i < slots; ++i) {
            if (may_meet(p, dirs[i], middle, reach)) {
              t[i] = std::min(t[i], ray_capsule_distance_from_outside(p, dirs[i], wall, r));
            }
          }
        });
    Real* row = danger + static_cast<std::size_t>(k) * slots;
    for (int i = 0; i < slots; ++i) {
      if (t[i] <= length_) row[i] = std::max(row[i], mode_ == RayMode::Binary ? Real(1) : 1 - t[i] / length_);
    }
  }
}

}  // namespace contextsteer
