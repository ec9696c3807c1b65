#include "contextsteer/geometry/ray_casts.hpp"

#include <algorithm>
#include <cmath>

#include "contextsteer/kernels/dispatch.hpp"

namespace contextsteer {

namespace {

// Whether the unit ray (o, d) may meet the disc (centre, reach): false only when it
// surely misses (ray_circle_distance's test, on the widened disc). A capsule lies within
// the disc round its middle of radius half its length plus its own, so a ray that misses
// that disc misses the capsule.
bool may_meet(Vec2 o, Vec2 d, Vec2 centre, Real reach) {
  reach = widened(reach);
  const Vec2 m = o - centre;
  const Real c = length_squared(m) - reach * reach;
  if (c <= 0) return true;
  const Real b = dot(m, d);
  return b <= 0 && b * b - c >= 0;
}

// One ray at a time, those that miss the disc round an obstacle skipped. Any count. The
// scalar path, and the reference of the vector kernel (kernels/wide/lower_to_first_hits.inl).
void one_by_one(Vec2 p, const Real* dx, const Real* dy, int count, const Circle* circles, int circle_count,
                const Segment* walls, int wall_count, Real r, Real* t) {
  for (const Circle* c = circles; c != circles + circle_count; ++c) {
    for (int i = 0; i < count; ++i) {
      const Vec2 d{dx[i], dy[i]};
      if (may_meet(p, d, c->centre, c->radius)) t[i] = std::min(t[i], ray_circle_distance(p, d, c->centre, c->radius));
    }
  }
  for (const Segment* wall = walls; wall != walls + wall_count; ++wall) {
    const Vec2 middle = (wall->a + wall->b) * Real(0.5);
    const Real reach = length(wall->b - wall->a) * Real(0.5) + r;
    for (int i = 0; i < count; ++i) {
      const Vec2 d{dx[i], dy[i]};
      if (may_meet(p, d, middle, reach)) t[i] = std::min(t[i], ray_capsule_distance_from_outside(p, d, *wall, r));
    }
  }
}

}  // namespace

void lower_to_first_hits(Vec2 p, const Real* dx, const Real* dy, int count, const Circle* circles, int circle_count,
                         const Segment* walls, int wall_count, Real r, Real* t) {
  const KernelTable* kernels = vector_kernels();
  if (kernels && count % 4 == 0) {
    return kernels->lower_to_first_hits(p, dx, dy, count, circles, circle_count, walls, wall_count, r, t);
  }
  one_by_one(p, dx, dy, count, circles, circle_count, walls, wall_count, r, t);
}

}  // namespace contextsteer
