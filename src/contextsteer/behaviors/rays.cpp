#include "rays.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "../geometry.hpp"
#include "../parameter_checks.hpp"
#include "../simd.hpp"
#include "targets.hpp"

namespace contextsteer {

Rays::Rays(Real length, RayMode mode, Real weight) : DangerBehavior(weight), length_(length), mode_(mode) {
  require_positive(length, "length", "a distance", " in metres");
}

namespace {

// The obstacles one agent's rays may hit, from one query of the index: circles as their
// centres and reaches (their radius plus the agent's), walls as they are. Per thread,
// kept from agent to agent, so that a step allocates only when a crowd of obstacles
// outgrows them.
struct MetObstacles {
  std::vector<Circle> circles;  // radius: the circle's plus the agent's
  std::vector<Segment> walls;
};

// Gathers into `met` the obstacles on layers `senses` within `reach` of p that an agent
// of radius r there may hit; false, gathering no further, when the agent already overlaps
// one (each ray then hits at 0). The overlap is tested as ray_circle_distance and
// ray_capsule_distance test it, so that the casts below give the same numbers.
bool gather(const Obstacles& o, Vec2 p, Real r, LayerMask senses, Real reach, MetObstacles& met) {
  met.circles.clear(), met.walls.clear();
  bool inside = false;
  o.for_each_near(
      p, reach,
      [&](int c) {
        if (inside || !(senses & o.circle_layers()[c])) return;
        const Circle& circle = o.circles()[c];
        const Real circle_reach = circle.radius + r;
        inside = length_squared(p - circle.centre) - circle_reach * circle_reach <= 0;
        met.circles.push_back({circle.centre, circle_reach});
      },
      [&](int w) {
        if (inside || !(senses & o.wall_layers()[w])) return;
        const Segment& wall = o.walls()[w];
        inside = length(p - closest_point_on_segment(wall, p)) <= r;
        met.walls.push_back(wall);
      });
  return !inside;
}

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

// t[i], the nearest hit of slot i's ray from p, lowered to each obstacle met: one ray at a
// time, those that miss the disc round an obstacle skipped. Any slot count.
void cast_one_by_one(Vec2 p, Real r, const SlotDirections& dirs, const MetObstacles& met, Real* t) {
  const int slots = dirs.slots();
  for (const Circle& c : met.circles) {
    for (int i = 0; i < slots; ++i) {
      if (may_meet(p, dirs[i], c.centre, c.radius)) {
        t[i] = std::min(t[i], ray_circle_distance(p, dirs[i], c.centre, c.radius));
      }
    }
  }
  for (const Segment& wall : met.walls) {
    const Vec2 middle = (wall.a + wall.b) * Real(0.5);
    const Real reach = length(wall.b - wall.a) * Real(0.5) + r;
    for (int i = 0; i < slots; ++i) {
      if (may_meet(p, dirs[i], middle, reach)) {
        t[i] = std::min(t[i], ray_capsule_distance_from_outside(p, dirs[i], wall, r));
      }
    }
  }
}

#ifdef CONTEXTSTEER_SIMD

// ray_circle_distance of the W rays (dx, dy) from o at a disc o lies outside of, as it
// computes it, from m = o - centre and c = |m|^2 - radius^2 > 0: infinity where a ray
// points away or misses.
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V rays_at_disc(Vec2 m, Real c, V dx, V dy) {
  const V b = dx * m.x + dy * m.y;  // dot(m, d), m = o - centre
  const V disc = b * b - c;
  return select((b <= Real(0)) & (disc >= Real(0)), -b - lane_sqrt(disc), splat<V>(kInfinity));
}

// cast_one_by_one, W rays at a time, with no ray skipped: a ray that misses the disc
// round an obstacle gets infinity from the full test, as the skip leaves it. Each lane
// takes ray_circle_distance's and ray_capsule_distance_from_outside's operations in
// their order, so the numbers are the same. Needs slots % W == 0.
template <int W>
CONTEXTSTEER_ALWAYS_INLINE void cast_lanes(Vec2 p, Real r, const Real* dxs, const Real* dys, int slots,
                                           const MetObstacles& met, Real* t) {
  using V = typename Lanes<W>::Reals;
  // Obstacle by obstacle, and for each its rays W at a time: what does not depend on the
  // ray is found once per obstacle.
  for (const Circle& c : met.circles) {
    const Vec2 m = p - c.centre;
    const Real square = length_squared(m) - c.radius * c.radius;
    for (int i = 0; i < slots; i += W) {
      const V hit = rays_at_disc(m, square, load_lanes<V>(dxs + i), load_lanes<V>(dys + i));
      const V nearest = load_lanes<V>(t + i);
      store_lanes(t + i, select(hit < nearest, hit, nearest));
    }
  }
  for (const Segment& wall : met.walls) {
    // The two end discs. o lies outside the capsule (gather tested it), but rounding may
    // still put it on a disc's edge, where ray_circle_distance gives 0.
    const Vec2 ma = p - wall.a, mb = p - wall.b;
    const Real ca = length_squared(ma) - r * r, cb = length_squared(mb) - r * r;
    // The band between the lines offset by r on either side of the wall: where each ray
    // crosses a line is its distance to the line over denom, the ray's slant to it.
    const Vec2 ab = wall.b - wall.a;
    const Real len = length(ab);
    const Vec2 u = len > 0 ? ab * (1 / len) : Vec2{0, 0};
    const Vec2 n{-u.y, u.x};
    const Real to_line[2] = {dot(wall.a + n * (-r) - p, n), dot(wall.a + n * r - p, n)};
    for (int i = 0; i < slots; i += W) {
      const V dx = load_lanes<V>(dxs + i), dy = load_lanes<V>(dys + i);
      const V at_a = ca <= 0 ? V{} : rays_at_disc(ma, ca, dx, dy);
      const V at_b = cb <= 0 ? V{} : rays_at_disc(mb, cb, dx, dy);
      V best = select(at_b < at_a, at_b, at_a);
      if (len > 0) {
        const V denom = dx * n.x + dy * n.y;  // dot(d, n)
        for (const Real distance : to_line) {
          // Where each ray crosses the line, and how far along the wall that lies.
          const V hit = splat<V>(distance) / denom;
          const V along = (p.x + dx * hit - wall.a.x) * u.x + (p.y + dy * hit - wall.a.y) * u.y;
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

void cast_baseline(Vec2 p, Real r, const SlotDirections& dirs, const MetObstacles& met, Real* t) {
  cast_lanes<4>(p, r, dirs.x(), dirs.y(), dirs.slots(), met, t);
}

#ifdef CONTEXTSTEER_AVX2_DISPATCH
CONTEXTSTEER_TARGET_AVX2 void cast_avx2(Vec2 p, Real r, const SlotDirections& dirs, const MetObstacles& met, Real* t) {
  cast_lanes<8>(p, r, dirs.x(), dirs.y(), dirs.slots(), met, t);
}
#endif

#endif  // CONTEXTSTEER_SIMD

// The widest cast this slot count and CPU allow.
using Cast = void (*)(Vec2, Real, const SlotDirections&, const MetObstacles&, Real*);
Cast cast_for(int slots) {
  const int width = kernel_width();
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  if (width == 8 && slots % 8 == 0) return cast_avx2;
#endif
#ifdef CONTEXTSTEER_SIMD
  if (width >= 4 && slots % 4 == 0) return cast_baseline;
#endif
  (void)width, (void)slots;  // when built without vector kernels
  return cast_one_by_one;
}

}  // namespace

void Rays::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real*,
                Real* danger) const {
  if (!scene.obstacles) return;
  const int slots = dirs.slots();
  const Obstacles& o = *scene.obstacles;
  const Cast cast = cast_for(slots);
  thread_local MetObstacles met;
  thread_local std::vector<Real> hits;
  hits.resize(static_cast<std::size_t>(slots));
  for (int k = 0; k < count; ++k) {
    const int a = agents[k];
    const Vec2 p = scene.position(a);
    const Real r = scene.radius_of(a);
    // One query of the obstacles per agent: a hit within length_ lies on an obstacle
    // within length_ + r of the agent.
    if (gather(o, p, r, scene.senses(a), length_ + r, met)) {
      std::fill(hits.begin(), hits.end(), kInfinity);
      cast(p, r, dirs, met, hits.data());
    } else {
      std::fill(hits.begin(), hits.end(), Real(0));
    }
    Real* row = danger + static_cast<std::size_t>(k) * slots;
    for (int i = 0; i < slots; ++i) {
      if (hits[i] <= length_) row[i] = std::max(row[i], mode_ == RayMode::Binary ? Real(1) : 1 - hits[i] / length_);
    }
  }
}

}  // namespace contextsteer
