// The agents near one agent, read from the grid's sorted arrays W lanes at a time: the
// gathering step shared by the vector kernels over neighbours (simd.hpp).
#pragma once

#include <cstdint>

#include "scene.hpp"
#include "simd.hpp"

#ifdef CONTEXTSTEER_SIMD

namespace contextsteer {

// W consecutive entries of the grid's sorted arrays, seen from one agent.
template <int W>
struct NeighbourLanes {
  typename Lanes<W>::Reals dx, dy;  // offsets from the agent, metres
  typename Lanes<W>::Reals d2;      // squared distances, m^2
  typename Lanes<W>::Reals radius;  // the neighbours' radii, metres
  typename Lanes<W>::Ints keep;     // set where within reach, another agent, on a sensed layer
};

// Calls fn(lanes) for every W-wide chunk of the grid runs within `reach` metres of agent
// a; lanes past a run's end (the grid's padding) are never kept.
template <int W, class F>
CONTEXTSTEER_ALWAYS_INLINE void for_each_neighbour_lanes(const SceneView& scene, int a, Real reach, F&& fn) {
  using V = typename Lanes<W>::Reals;
  using M = typename Lanes<W>::Ints;
  const SpatialGrid& grid = *scene.grid;
  const Vec2 p = scene.position(a);
  const std::int32_t senses = static_cast<std::int32_t>(scene.senses(a));
  const Real reach2 = reach * reach;
  M lane;
  for (int l = 0; l < W; ++l) lane[l] = l;
  grid.for_each_run(p, reach, [&](int begin, int end) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
    for (int i = begin; i < end; i += W) {
      NeighbourLanes<W> n;
      n.dx = load_lanes<V>(grid.xs() + i) - p.x;
      n.dy = load_lanes<V>(grid.ys() + i) - p.y;
      n.d2 = n.dx * n.dx + n.dy * n.dy;
      n.radius = load_lanes<V>(grid.radii() + i);
      n.keep = (n.d2 <= reach2) & (lane < end - i) & (load_lanes<M>(grid.agents() + i) != a) &
               ((load_lanes<M>(grid.layers() + i) & senses) != 0);
      fn(n);
    }
  });
}

}  // namespace contextsteer

#endif
