// The agents near one agent, read from the grid's sorted arrays W lanes at a time: the
// gathering step shared by the vector kernels over neighbors. Included by wide kernels.
#pragma once

#ifndef CONTEXTSTEER_KERNEL_SET_CHOSEN
#error "a wide kernel is included by kernels/<set>/<name>.cpp, after the set's target.hpp"
#endif

#include <cstdint>

#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/scene/scene.hpp"

#ifdef CONTEXTSTEER_KERNEL_SET

namespace contextsteer {

// W consecutive entries of the grid's sorted arrays, seen from one agent.
template <int W>
struct NeighborLanes {
  typename Lanes<W>::Reals dx, dy;  // offsets from the agent, metres
  typename Lanes<W>::Reals d2;      // squared distances, m^2
  typename Lanes<W>::Reals radius;  // the neighbors' radii, metres
  typename Lanes<W>::Ints keep;     // set where within reach, another agent, on a sensed layer
};

// Calls fn(lanes) for every W-wide chunk of the grid runs within `reach` metres of agent
// a; lanes past a run's end (the grid's padding) are never kept. Before the chunks of a
// run [begin, end), calls on_run(end - begin): its chunks keep at most that many lanes.
template <int W, class OnRun, class F>
CONTEXTSTEER_ALWAYS_INLINE void for_each_neighbor_lanes(const SceneView& scene, int a, Real reach, OnRun&& on_run,
                                                        F&& fn) {
  using V = typename Lanes<W>::Reals;
  using M = typename Lanes<W>::Ints;
  const SpatialGrid& grid = *scene.grid;
  // In locals: nothing the callbacks do (not even growing a buffer) can move them.
  const Real *xs = grid.xs(), *ys = grid.ys(), *radii = grid.radii();
  const int* ids = grid.agents();
  const LayerMask* layers = grid.layers();
  const Vec2 p = scene.position(a);
  const std::int32_t senses = static_cast<std::int32_t>(scene.senses(a));
  const Real reach2 = reach * reach;
  M lane;
  for (int l = 0; l < W; ++l) lane[l] = l;
  grid.for_each_run(p, reach, [&](int begin, int end) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
    on_run(end - begin);
    for (int i = begin; i < end; i += W) {
      NeighborLanes<W> n;
      n.dx = load_lanes<V>(xs + i) - p.x;
      n.dy = load_lanes<V>(ys + i) - p.y;
      n.d2 = n.dx * n.dx + n.dy * n.dy;
      n.radius = load_lanes<V>(radii + i);
      n.keep = (n.d2 <= reach2) & (lane < end - i) & (load_lanes<M>(ids + i) != a) &
               ((load_lanes<M>(layers + i) & senses) != 0);
      fn(n);
    }
  });
}

}  // namespace contextsteer

#endif
