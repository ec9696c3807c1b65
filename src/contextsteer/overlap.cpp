#include "overlap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "neighbour_lanes.hpp"
#include "row_chunks.hpp"
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
  for (int k = 0; k < count; ++k) {
    const int a = agents[k];
    const Real r = scene.radius_of(a);
    V deepest{};
    for_each_neighbour_lanes<W>(scene, a, r + scene.max_radius, [](int) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {},
                                [&](const NeighbourLanes<W>& n) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
                                  // Agents within two radii are few: most chunks keep
                                  // none, and skip the square root.
                                  if (!mask_bits(n.keep)) return;
                                  deepest = lane_max(deepest, select(n.keep, (r + n.radius) - lane_sqrt(n.d2), V{}));
                                });
    overlap[a] = largest_lane(deepest);  // >= 0: the lanes start at 0
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

// By pairs: the agents at places [begin, end) each meet the later agents within their
// reach once, and a pair's depth goes to both (the same number either way:
// (r_a + r_b) - sqrt(d^2), d^2 from offsets that differ only in sign).
template <int W, bool kLayered>
CONTEXTSTEER_ALWAYS_INLINE void overlap_pairs_lanes(const SpatialGrid& grid, int begin, int end, Real max_radius,
                                                    Real* overlap) {
  using V = typename Lanes<W>::Reals;
  using M = typename Lanes<W>::Ints;
  const Real *xs = grid.xs(), *ys = grid.ys(), *radii = grid.radii();
  const LayerMask *layers = grid.layers(), *senses = grid.senses();
  const int* agents = grid.agents();
  M lane;
  for (int l = 0; l < W; ++l) lane[l] = l;
  for (int k = begin; k < end; ++k) {
    const Vec2 p{xs[k], ys[k]};
    const Real r = radii[k];
    const Real reach = r + max_radius;
    const Real reach2 = reach * reach;
    const std::int32_t layer = static_cast<std::int32_t>(layers[k]), sensing = static_cast<std::int32_t>(senses[k]);
    V deepest{};
    grid.for_each_run_after(k, p, reach, [&](int first, int last) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
      for (int i = first; i < last; i += W) {
        const V dx = load_lanes<V>(xs + i) - p.x;
        const V dy = load_lanes<V>(ys + i) - p.y;
        const V d2 = dx * dx + dy * dy;
        const M near = (d2 <= reach2) & (lane < last - i);
        // Agents within two radii are few: most chunks keep none, and skip the rest.
        if (!mask_bits(near)) continue;
        M sensed = near, senses_back = near;
        if constexpr (kLayered) {
          sensed &= (load_lanes<M>(layers + i) & sensing) != 0;
          senses_back &= (load_lanes<M>(senses + i) & layer) != 0;
        }
        const V depth = (r + load_lanes<V>(radii + i)) - lane_sqrt(d2);
        deepest = lane_max(deepest, select(sensed, depth, V{}));
        for (int bits = mask_bits(senses_back & (depth > Real(0))); bits; bits &= bits - 1) {
          const int l = __builtin_ctz(static_cast<unsigned>(bits));
          Real& other = overlap[agents[i + l]];
          other = lane_max(other, depth[l]);
        }
      }
    });
    Real& own = overlap[agents[k]];
    own = lane_max(own, largest_lane(deepest));
  }
}

template <int W>
CONTEXTSTEER_ALWAYS_INLINE void overlap_pairs_dispatch(const SpatialGrid& grid, int begin, int end, Real max_radius,
                                                       Real* overlap) {
  // Where every agent senses every other, the layer tests are left out.
  if (grid.everyone_senses_everyone()) return overlap_pairs_lanes<W, false>(grid, begin, end, max_radius, overlap);
  overlap_pairs_lanes<W, true>(grid, begin, end, max_radius, overlap);
}

void overlap_pairs_baseline(const SpatialGrid& grid, int begin, int end, Real max_radius, Real* overlap) {
  overlap_pairs_dispatch<4>(grid, begin, end, max_radius, overlap);
}

#ifdef CONTEXTSTEER_AVX2_DISPATCH
CONTEXTSTEER_TARGET_AVX2 void overlap_pairs_avx2(const SpatialGrid& grid, int begin, int end, Real max_radius,
                                                 Real* overlap) {
  overlap_pairs_dispatch<8>(grid, begin, end, max_radius, overlap);
}
#endif

#endif  // CONTEXTSTEER_SIMD

}  // namespace

bool overlap_pairs_available() { return kernel_width() >= 4; }

void measure_overlap_pairs(const SceneView& scene, ThreadPool& pool, Real* overlap) {
  if (!overlap_pairs_available()) throw std::logic_error("measure_overlap_pairs: needs vector kernels");
#ifdef CONTEXTSTEER_SIMD
  const SpatialGrid& grid = *scene.grid;
  std::fill(overlap, overlap + grid.agent_count(), Real(0));
  const bool avx2 = kernel_width() == 8;
  run_row_chunks(grid, 2 * scene.max_radius, pool, [&](const RowChunks& chunks, int c) {
    const int begin = chunks.start(c), end = chunks.start(c + 1);
#ifdef CONTEXTSTEER_AVX2_DISPATCH
    if (avx2) return overlap_pairs_avx2(grid, begin, end, scene.max_radius, overlap);
#endif
    (void)avx2;
    overlap_pairs_baseline(grid, begin, end, scene.max_radius, overlap);
  });
#else
  (void)scene, (void)pool, (void)overlap;
#endif
}

void measure_overlap(const SceneView& scene, const int* agents, int count, Real* overlap) {
  const int width = kernel_width();
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  if (width == 8) return overlap_avx2(scene, agents, count, overlap);
#endif
#ifdef CONTEXTSTEER_SIMD
  if (width >= 4) return overlap_baseline(scene, agents, count, overlap);
#endif
  for (int k = 0; k < count; ++k) overlap[agents[k]] = overlap_scalar(scene, agents[k]);
}

}  // namespace contextsteer
