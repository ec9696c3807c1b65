#include "contextsteer/world/overlap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/scene/spatial_grid.hpp"

namespace contextsteer {

namespace {

// The deepest overlap of the agent at place k of the grid (p, radius r) with the grid's
// large agents (SpatialGrid::usual_radius), which the queries below, sized for agents
// of the usual size, may not reach; 0 where there is none. One met twice changes
// nothing: the overlap is a maximum. Inlined: the vector kernels call it for every agent,
// and must compile it for their target (a call into baseline code from AVX2 code cost
// more than the whole query).
CONTEXTSTEER_ALWAYS_INLINE Real deepest_with_large(const SpatialGrid& grid, int k, Vec2 p, Real r, LayerMask senses) {
  Real deepest = 0;
  for (int j = 0; j < grid.large_count(); ++j) {
    const int i = grid.large_places()[j];
    const Real dx = grid.xs()[i] - p.x, dy = grid.ys()[i] - p.y;
    const Real d2 = dx * dx + dy * dy;
    const Real touch = r + grid.radii()[i];
    if (i == k || !(senses & grid.layers()[i]) || !(d2 <= touch * touch)) continue;
    deepest = std::max(deepest, touch - std::sqrt(d2));
  }
  return deepest;
}

Real overlap_scalar(const SceneView& scene, int a) {
  const Vec2 p = scene.position(a);
  const Real r = scene.radius_of(a);
  const LayerMask senses = scene.senses(a);
  const SpatialGrid& grid = *scene.grid;
  Real deepest = deepest_with_large(grid, grid.rank_of(a), p, r, senses);
  grid.for_each_within(p, r + grid.usual_radius(), [&](const Neighbor& other) {
    if (other.agent != a && (senses & other.layer)) {
      deepest = std::max(deepest, r + other.radius - std::sqrt(other.distance_squared));
    }
  });
  return deepest;
}

#ifdef CONTEXTSTEER_SIMD

// Each agent's data is read from its place k in the grid's sorted arrays (the same values
// as the world's), and itself left out by place. Where every agent senses every other
// (kLayered false), the layer test is left out.
template <int W, bool kLayered>
CONTEXTSTEER_ALWAYS_INLINE void overlap_lanes(const SceneView& scene, const int* agents, int count, Real* overlap) {
  using V = typename Lanes<W>::Reals;
  using M = typename Lanes<W>::Ints;
  const SpatialGrid& grid = *scene.grid;
  const Real *xs = grid.xs(), *ys = grid.ys(), *radii = grid.radii();
  const LayerMask *layers = grid.layers(), *senses = grid.senses();
  M lane;
  for (int l = 0; l < W; ++l) lane[l] = l;
  const Real usual_radius = grid.usual_radius();
  const bool has_large = grid.large_count() > 0;
  for (int j = 0; j < count; ++j) {
    const int a = agents[j];
    const int k = grid.rank_of(a);
    const Vec2 p{xs[k], ys[k]};
    const Real r = radii[k];
    const Real reach = r + usual_radius;
    const Real reach2 = reach * reach;
    const std::int32_t sensing = static_cast<std::int32_t>(senses[k]);
    V deepest{};
    grid.for_each_run(p, reach, [&](int begin, int end) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
      for (int i = begin; i < end; i += W) {
        const M place = lane + i;
        const V dx = load_lanes<V>(xs + i) - p.x, dy = load_lanes<V>(ys + i) - p.y;
        const V d2 = dx * dx + dy * dy;
        M keep = (d2 <= reach2) & (place < end) & (place != k);
        if constexpr (kLayered) keep &= (load_lanes<M>(layers + i) & sensing) != 0;
        // Agents within two radii are few: most chunks keep none, and skip the square root.
        if (!mask_bits(keep)) continue;
        deepest = lane_max(deepest, select(keep, (r + load_lanes<V>(radii + i)) - lane_sqrt(d2), V{}));
      }
    });
    // >= 0: the lanes start at 0.
    const Real deepest_large = has_large ? deepest_with_large(grid, k, p, r, senses[k]) : Real(0);
    overlap[a] = std::max(largest_lane(deepest), deepest_large);
  }
}

void overlap_baseline(const SceneView& scene, const int* agents, int count, Real* overlap) {
  if (scene.grid->everyone_senses_everyone()) return overlap_lanes<4, false>(scene, agents, count, overlap);
  overlap_lanes<4, true>(scene, agents, count, overlap);
}

#ifdef CONTEXTSTEER_AVX2_DISPATCH
CONTEXTSTEER_TARGET_AVX2 void overlap_avx2(const SceneView& scene, const int* agents, int count, Real* overlap) {
  if (scene.grid->everyone_senses_everyone()) return overlap_lanes<8, false>(scene, agents, count, overlap);
  overlap_lanes<8, true>(scene, agents, count, overlap);
}
#endif

#endif  // CONTEXTSTEER_SIMD

}  // namespace

void measure_overlap(const SceneView& scene, const int* agents, int count, Real* overlap) {
  const int width = kernel_width();
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  if (width == 8) return overlap_avx2(scene, agents, count, overlap);
#endif
#ifdef CONTEXTSTEER_SIMD
  if (width >= 4) return overlap_baseline(scene, agents, count, overlap);
#endif
  (void)width;  // when built without vector kernels
  for (int k = 0; k < count; ++k) overlap[agents[k]] = overlap_scalar(scene, agents[k]);
}

}  // namespace contextsteer
