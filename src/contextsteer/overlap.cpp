#include "overlap.hpp"

#include <algorithm>
#include <cmath>

#include "simd.hpp"

namespace contextsteer {

namespace {

Real overlap_scalar(const SceneView& scene, int a) {
  const Vec2 p = scene.position(a);
  const Real r = scene.radius_of(a);
  const LayerMask senses = scene.senses(a);
  Real deepest = 0;
  scene.grid->for_each_within(p, r + scene.max_radius, [&](const Neighbor& other) {
    if (other.agent != a && (senses & other.layer)) {
      deepest = std::max(deepest, r + other.radius - std::sqrt(other.distance_squared));
    }
  });
  return deepest;
}

#ifdef CONTEXTSTEER_SIMD

template <int W>
CONTEXTSTEER_ALWAYS_INLINE void overlap_lanes(const SceneView& scene, const int* agents, int count, Real* overlap) {
  using V = typename Lanes<W>::Reals;
  using M = typename Lanes<W>::Ints;
  const SpatialGrid& grid = *scene.grid;
  const Real* xs = grid.xs();
  const Real* ys = grid.ys();
  const Real* radii = grid.radii();
  const LayerMask* layers = grid.layers();
  const int* ids = grid.agents();
  M lane;
  for (int l = 0; l < W; ++l) lane[l] = l;
  for (int k = 0; k < count; ++k) {
    const int a = agents[k];
    const Vec2 p = scene.position(a);
    const Real r = scene.radius_of(a);
    const std::int32_t senses = static_cast<std::int32_t>(scene.senses(a));
    const Real reach = r + scene.max_radius;
    const Real reach2 = reach * reach;
    V deepest{};
    grid.for_each_run(p, reach, [&](int begin, int end) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
      for (int i = begin; i < end; i += W) {
        const V dx = load_lanes<V>(xs + i) - p.x;
        const V dy = load_lanes<V>(ys + i) - p.y;
        const V d2 = dx * dx + dy * dy;
        const M keep = (d2 <= reach2) & (lane < end - i) & (load_lanes<M>(ids + i) != a) &
                       ((load_lanes<M>(layers + i) & senses) != 0);
        deepest = lane_max(deepest, select(keep, (r + load_lanes<V>(radii + i)) - lane_sqrt(d2), V{}));
      }
    });
    Real best = 0;
    for (int l = 0; l < W; ++l) best = std::max(best, deepest[l]);
    overlap[a] = best;
  }
}

void overlap_baseline(const SceneView& scene, const int* agents, int count, Real* overlap) {
  overlap_lanes<4>(scene, agents, count, overlap);
}

#ifdef CONTEXTSTEER_AVX2_DISPATCH
CONTEXTSTEER_TARGET_AVX2 void overlap_avx2(const SceneView& scene, const int* agents, int count, Real* overlap) {
  overlap_lanes<8>(scene, agents, count, overlap);
}
#endif

#endif  // CONTEXTSTEER_SIMD

}  // namespace

void measure_overlap(const SceneView& scene, const int* agents, int count, Real* overlap) {
#ifdef CONTEXTSTEER_SIMD
  const int width = simd_width_limit.load(std::memory_order_relaxed);
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  if (width >= 8 && cpu_has_avx2()) return overlap_avx2(scene, agents, count, overlap);
#endif
  if (width >= 4) return overlap_baseline(scene, agents, count, overlap);
#endif
  for (int k = 0; k < count; ++k) overlap[agents[k]] = overlap_scalar(scene, agents[k]);
}

}  // namespace contextsteer
