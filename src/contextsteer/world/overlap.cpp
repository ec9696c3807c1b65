#include "contextsteer/world/overlap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "contextsteer/kernels/dispatch.hpp"
#include "contextsteer/scene/spatial_grid.hpp"
#include "contextsteer/world/large_agent_overlap.hpp"

namespace contextsteer {

namespace {

// The scalar path, and the reference of the vector kernel (kernels/wide/measure_overlap.inl).
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

}  // namespace

void measure_overlap(const SceneView& scene, const int* agents, int count, Real* overlap) {
  if (const KernelTable* kernels = vector_kernels()) return kernels->measure_overlap(scene, agents, count, overlap);
  for (int k = 0; k < count; ++k) overlap[agents[k]] = overlap_scalar(scene, agents[k]);
}

}  // namespace contextsteer
