// measure_overlap (world/overlap.hpp) for W neighbors at a time. Included by
// kernels/<set>/measure_overlap.cpp (dispatch.hpp).
#ifndef CONTEXTSTEER_KERNEL_SET_CHOSEN
#error "a wide kernel is included by kernels/<set>/<name>.cpp, after the set's target.hpp"
#endif

#include <algorithm>
#include <cstdint>

#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/scene/scene.hpp"
#include "contextsteer/scene/spatial_grid.hpp"
#include "contextsteer/world/large_agent_overlap.hpp"

#ifdef CONTEXTSTEER_KERNEL_SET

namespace contextsteer {

namespace {

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

}  // namespace

namespace CONTEXTSTEER_KERNEL_SET {
CONTEXTSTEER_KERNEL_TARGET void measure_overlap(const SceneView& scene, const int* agents, int count, Real* overlap) {
  if (scene.grid->everyone_senses_everyone()) return overlap_lanes<kLanes, false>(scene, agents, count, overlap);
  overlap_lanes<kLanes, true>(scene, agents, count, overlap);
}
}  // namespace CONTEXTSTEER_KERNEL_SET

}  // namespace contextsteer

#endif
