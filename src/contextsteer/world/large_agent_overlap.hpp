// The deepest overlap of an agent with the grid's few large agents: shared by the scalar
// path of measure_overlap (overlap.cpp) and its vector kernel.
#pragma once

#include <algorithm>
#include <cmath>

#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/scene/spatial_grid.hpp"

namespace contextsteer {

// The deepest overlap of the agent at place k of the grid (p, radius r) with the grid's
// large agents (SpatialGrid::usual_radius), which the neighbor queries, sized for agents
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

}  // namespace contextsteer
