// lower_to_first_hits (geometry/ray_casts.hpp) for W rays at a time, or 4 where count is
// not a multiple of W. Needs count % 4 == 0.
// Included by kernels/<set>/lower_to_first_hits.cpp (dispatch.hpp).
#ifndef CONTEXTSTEER_KERNEL_SET_CHOSEN
#error "a wide kernel is included by kernels/<set>/<name>.cpp, after the set's target.hpp"
#endif

#include "contextsteer/base/vec2.hpp"
#include "contextsteer/geometry/geometry.hpp"
#include "contextsteer/geometry/ray_casts.hpp"
#include "contextsteer/kernels/simd.hpp"

#ifdef CONTEXTSTEER_KERNEL_SET

namespace contextsteer {

namespace {

// ray_circle_distance of the W rays (dx, dy) from o, as it computes it, from m = o -
// centre and c = |m|^2 - radius^2: 0 where o lies within the disc (c <= 0), infinity
// where a ray points away or misses.
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V rays_at_disc(Vec2 m, Real c, V dx, V dy) {
  if (c <= 0) return V{};
  const V b = dx * m.x + dy * m.y;  // dot(m, d)
  const V disc = b * b - c;
  return select((b <= Real(0)) & (disc >= Real(0)), -b - lane_sqrt(disc), splat<V>(kInfinity));
}

// Whether any of the W unit rays (dx, dy) from o may meet the disc round a wall: may_meet
// on every lane, with m = o - centre and c = |m|^2 - widened(reach)^2.
template <class V>
CONTEXTSTEER_ALWAYS_INLINE bool any_may_meet(Vec2 m, Real c, V dx, V dy) {
  if (c <= 0) return true;
  const V b = dx * m.x + dy * m.y;
  return mask_bits((b <= Real(0)) & (b * b - c >= Real(0))) != 0;
}

// one_by_one, W rays at a time: a ray that misses the disc round an obstacle gets
// infinity from the full test, as the skip leaves it, so only W rays of which none may
// meet a wall's disc are skipped together (most, for a wall a few metres long: the disc
// spans a few rays' directions). Each lane takes ray_circle_distance's and
// ray_capsule_distance_from_outside's operations in their order, so the numbers are the
// same. Obstacle by obstacle, so that what does not depend on the ray is found once per
// obstacle. Needs count % W == 0.
template <int W>
CONTEXTSTEER_ALWAYS_INLINE void in_lanes(Vec2 p, const Real* dxs, const Real* dys, int count, const Circle* circles,
                                         int circle_count, const Segment* walls, int wall_count, Real r, Real* t) {
  using V = typename Lanes<W>::Reals;
  for (const Circle* c = circles; c != circles + circle_count; ++c) {
    const Vec2 m = p - c->centre;
    const Real square = length_squared(m) - c->radius * c->radius;
    for (int i = 0; i < count; i += W) {
      const V hit = rays_at_disc(m, square, load_lanes<V>(dxs + i), load_lanes<V>(dys + i));
      const V nearest = load_lanes<V>(t + i);
      store_lanes(t + i, select(hit < nearest, hit, nearest));
    }
  }
  for (const Segment* wall = walls; wall != walls + wall_count; ++wall) {
    // The two end discs (o lies outside the capsule, but rounding may still put it on a
    // disc's edge, where ray_circle_distance gives 0).
    const Vec2 ma = p - wall->a, mb = p - wall->b;
    const Real ca = length_squared(ma) - r * r, cb = length_squared(mb) - r * r;
    // The band between the lines offset by r on either side of the wall: a ray crosses
    // each line at its distance to the line over denom, the ray's slant to it.
    const Vec2 ab = wall->b - wall->a;
    const Real len = length(ab);
    const Vec2 u = len > 0 ? ab * (1 / len) : Vec2{0, 0};
    const Vec2 n{-u.y, u.x};
    const Real to_line[2] = {dot(wall->a + n * (-r) - p, n), dot(wall->a + n * r - p, n)};
    const Vec2 to_middle = p - (wall->a + wall->b) * Real(0.5);
    const Real disc_reach = widened(len * Real(0.5) + r);
    const Real beyond_disc = length_squared(to_middle) - disc_reach * disc_reach;
    for (int i = 0; i < count; i += W) {
      const V dx = load_lanes<V>(dxs + i), dy = load_lanes<V>(dys + i);
      if (!any_may_meet(to_middle, beyond_disc, dx, dy)) continue;
      const V at_a = rays_at_disc(ma, ca, dx, dy), at_b = rays_at_disc(mb, cb, dx, dy);
      V best = select(at_b < at_a, at_b, at_a);
      if (len > 0) {
        const V denom = dx * n.x + dy * n.y;  // dot(d, n)
        for (const Real distance : to_line) {
          // Where each ray crosses the line, and how far along the wall that lies.
          const V hit = splat<V>(distance) / denom;
          const V along = (p.x + dx * hit - wall->a.x) * u.x + (p.y + dy * hit - wall->a.y) * u.y;
          const auto keep =
              (denom != Real(0)) & ~((hit < Real(0)) | (hit >= best)) & (along >= Real(0)) & (along <= len);
          best = select(keep, hit, best);
        }
      }
      const V nearest = load_lanes<V>(t + i);
      store_lanes(t + i, select(best < nearest, best, nearest));
    }
  }
}

}  // namespace

namespace CONTEXTSTEER_KERNEL_SET {
CONTEXTSTEER_KERNEL_TARGET void lower_to_first_hits(Vec2 p, const Real* dx, const Real* dy, int count,
                                                    const Circle* circles, int circle_count, const Segment* walls,
                                                    int wall_count, Real r, Real* t) {
  if (count % kLanes != 0) return in_lanes<4>(p, dx, dy, count, circles, circle_count, walls, wall_count, r, t);
  in_lanes<kLanes>(p, dx, dy, count, circles, circle_count, walls, wall_count, r, t);
}
}  // namespace CONTEXTSTEER_KERNEL_SET

}  // namespace contextsteer

#endif
