#include "overlap.hpp"

#include <algorithm>
#include <cmath>

#include "neighbour_lanes.hpp"
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
    for_each_neighbour_lanes<W>(
        scene, a, r + scene.max_radius, [](int) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {},
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
