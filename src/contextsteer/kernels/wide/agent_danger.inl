// Danger from neighboring agents (behaviors/support/agent_danger.hpp), W lanes at a time:
// Avoid's hot loop in crowds, agent by agent (add_agent_danger) and by pairs
// (pair_danger_chunk, one chunk of rows of the pass by pairs). The reference is the scalar
// path of agent_danger.cpp; every path gives the same numbers. Needs 2 slots or more.
// Included by kernels/<set>/agent_danger.cpp (dispatch.hpp).
#ifndef CONTEXTSTEER_KERNEL_SET_CHOSEN
#error "a wide kernel is included by kernels/<set>/<name>.cpp, after the set's target.hpp"
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "contextsteer/base/real_math.hpp"
#include "contextsteer/behaviors/support/agent_danger.hpp"
#include "contextsteer/behaviors/support/arc_coverage.hpp"
#include "contextsteer/kernels/neighbor_buffers.hpp"
#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/kernels/wide/neighbor_lanes.inl"
#include "contextsteer/scene/close_agents.hpp"
#include "contextsteer/scene/scene.hpp"
#include "contextsteer/scene/spatial_grid.hpp"

#ifdef CONTEXTSTEER_KERNEL_SET

namespace contextsteer {

namespace {

// falloff_value for W clearances at once, operation for operation.
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V lane_falloff(Falloff curve, V clearance, Real max_distance) {
  V x = clearance / max_distance;
  x = select(x < Real(0), V{}, select(Real(1) < x, splat<V>(Real(1)), x));
  switch (curve) {
    case Falloff::Step:
      return splat<V>(Real(1));
    case Falloff::Linear:
      return Real(1) - x;
    case Falloff::Smoothstep:
      return Real(1) - x * x * (Real(3) - Real(2) * x);
    case Falloff::InverseSquare:
      return Real(1) / (Real(1) + Real(16) * x * x);
    case Falloff::Exponential:
      break;
  }
  V e;
  for (unsigned l = 0; l < sizeof(V) / sizeof(Real); ++l) e[l] = math::exp(-4 * x[l]);
  return e;
}

// For the agents at [begin, end), a block at a time: gather(k, m) appends agent k's
// neighbors to the buffers from entry m on and returns the new count; arcs(block, first,
// count) runs step 2 over the entries of the block's `count` agents from `block` on
// (agent block + i's are [first[i], first[i + 1])); sweep(k, first, last) runs step 3 for
// agent k over entries [first, last).
template <class Gather, class Arcs, class Sweep>
CONTEXTSTEER_ALWAYS_INLINE void in_blocks(int begin, int end, Gather&& gather, Arcs&& arcs, Sweep&& sweep) {
  std::array<int, kBlockAgents + 1> first;
  for (int block = begin; block < end; block += kBlockAgents) {
    const int count = std::min(end - block, kBlockAgents);
    int m = 0;
    for (int i = 0; i < count; ++i) {
      first[i] = m;
      m = gather(block + i, m);
    }
    first[count] = m;
    arcs(block, first.data(), count);
    for (int i = 0; i < count; ++i) sweep(block + i, first[i], first[i + 1]);
  }
}

// Step 1 for agent a: its candidates W at a time, the ones within reach packed into
// s.dx, s.dy, s.disc from entry m on. Returns the new count.
template <int W>
CONTEXTSTEER_ALWAYS_INLINE int gather_neighbors(const SceneView& scene, int a, Real max_distance, NeighborBuffers& s,
                                                int m) {
  using M = typename Lanes<W>::Ints;
  const PackTable<W>& packing = pack_table<W>();
  const Real agent_radius = scene.radius_of(a);
  const SpatialGrid& grid = *scene.grid;
  const Real reach = max_distance + agent_radius + grid.usual_radius();
  auto room_for_run = [&](int candidates) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
    s.ensure(static_cast<std::size_t>(m + candidates), static_cast<std::size_t>(m));
  };
  for_each_neighbor_lanes<W>(scene, a, reach, room_for_run,
                             [&](const NeighborLanes<W>& n) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
                               const int bits = mask_bits(n.keep);
                               const M order = packing.order[bits];
                               store_packed(s.dx + m, n.dx, order);
                               store_packed(s.dy + m, n.dy, order);
                               store_packed(s.disc + m, n.radius + agent_radius, order);
                               // The count feeds the next store's address: popcnt (1 cycle) where the kernel has it,
                               // else the table (a load).
                               m += W == 8 ? __builtin_popcount(static_cast<unsigned>(bits)) : packing.count[bits];
                             });
  // The large agents, met apart, appended one by one (as add_agent_danger_scalar meets
  // them; one met twice adds nothing); those too far to add danger are left out.
  if (grid.large_count() == 0) return m;
  s.ensure(static_cast<std::size_t>(m + grid.large_count()), static_cast<std::size_t>(m));
  const Vec2 p = scene.position(a);
  const LayerMask senses = scene.senses(a);
  for (int j = 0; j < grid.large_count(); ++j) {
    const int k = grid.large_places()[j];
    const Real dx = grid.xs()[k] - p.x, dy = grid.ys()[k] - p.y;
    const Real disc = grid.radii()[k] + agent_radius;
    const Real within = max_distance + disc;
    if (!(dx * dx + dy * dy <= within * within) || grid.agents()[k] == a || !(grid.layers()[k] & senses)) continue;
    s.dx[m] = dx, s.dy[m] = dy, s.disc[m] = disc;
    ++m;
  }
  return m;
}

// Step 2 for the first m neighbors gathered in s: each one's bearing, coverage limit
// and danger, as add_disc_danger has them. With common_disc >= 0 (every disc radius r_a +
// r_b the same) the discs were not kept, and that one is taken.
template <int W>
CONTEXTSTEER_ALWAYS_INLINE void neighbor_arcs(NeighborBuffers& s, int m, NeighborDanger how, const SlotDirections& dirs,
                                              Real common_disc = -1) {
  using V = typename Lanes<W>::Reals;
  using M = typename Lanes<W>::Ints;
  const Real half_cos = dirs.half_spacing_cos(), half_sin = dirs.half_spacing_sin();
  for (int j = 0; j < m; j += W) {
    const V dx = load_lanes<V>(s.dx + j), dy = load_lanes<V>(s.dy + j);
    const V disc = common_disc >= 0 ? splat<V>(common_disc) : load_lanes<V>(s.disc + j);
    const V d = lane_sqrt(dx * dx + dy * dy);
    const V gap = d - disc;
    const V clearance = select(Real(0) < gap, gap, V{});
    const V weight = select(clearance > how.max_distance, V{}, lane_falloff(how.falloff, clearance, how.max_distance));
    const V inv_d = Real(1) / d;
    const V ratio = disc * inv_d;
    const V sin_alpha = select(ratio < Real(1), ratio, splat<V>(Real(1)));
    const V cos_alpha = lane_sqrt(Real(1) - sin_alpha * sin_alpha);
    const V min_cos = cos_alpha * half_cos - sin_alpha * half_sin;
    // A neighbor at the agent's centre has no bearing: it covers every slot.
    const M centred = d < Real(1e-6);
    // The bearing, turned as add_disc_danger turns it, operation for operation.
    const V ux = dx * inv_d, uy = dy * inv_d;
    store_lanes(s.ux + j, select(centred, V{}, how.turn.x * ux - how.turn.y * uy));
    store_lanes(s.uy + j, select(centred, V{}, how.turn.y * ux + how.turn.x * uy));
    store_lanes(s.limit + j, select(centred, splat<V>(Real(-1)), coverage_limit(min_cos)));
    store_lanes(s.weight + j, weight);
  }
}

// Step 3, the sweep over the slots of `row`, W at a time: acc holds the row's values at
// slots i..; for each neighbor j < m, acc = cover(load(j), i, sx, sy, acc) with sx, sy
// the slots' directions; then the row takes acc. Two vectors of slots per pass, so that
// load(j) runs once per pass; then one vector, then single slots (cover then gets Reals),
// for slot counts that are not a multiple of 2W.
template <int W, class Load, class Cover>
CONTEXTSTEER_ALWAYS_INLINE void sweep_slots(const SlotDirections& dirs, int m, Real* row, Load&& load, Cover&& cover) {
  using V = typename Lanes<W>::Reals;
  const int slots = dirs.slots();
  int i = 0;
  for (; i + 2 * W <= slots; i += 2 * W) {
    const V sx0 = load_lanes<V>(dirs.x() + i), sy0 = load_lanes<V>(dirs.y() + i);
    const V sx1 = load_lanes<V>(dirs.x() + i + W), sy1 = load_lanes<V>(dirs.y() + i + W);
    V acc0 = load_lanes<V>(row + i), acc1 = load_lanes<V>(row + i + W);
    for (int j = 0; j < m; ++j) {
      const auto q = load(j);
      acc0 = cover(q, i, sx0, sy0, acc0);
      acc1 = cover(q, i + W, sx1, sy1, acc1);
    }
    store_lanes(row + i, acc0);
    store_lanes(row + i + W, acc1);
  }
  for (; i + W <= slots; i += W) {
    const V sx = load_lanes<V>(dirs.x() + i), sy = load_lanes<V>(dirs.y() + i);
    V acc = load_lanes<V>(row + i);
    for (int j = 0; j < m; ++j) acc = cover(load(j), i, sx, sy, acc);
    store_lanes(row + i, acc);
  }
  for (; i < slots; ++i) {
    Real acc = row[i];
    for (int j = 0; j < m; ++j) acc = cover(load(j), i, dirs.x()[i], dirs.y()[i], acc);
    row[i] = acc;
  }
}

// What the sweep needs of neighbor j, read into locals (before any store of a pair
// sweep to a neighbor's row: a store of floats could alias the buffers, and the compiler
// would load them again).
struct SweptNeighbor {
  Real ux, uy, limit, weight;
  static CONTEXTSTEER_ALWAYS_INLINE SweptNeighbor at(const NeighborBuffers& s, int j) {
    return {s.ux[j], s.uy[j], s.limit[j], s.weight[j]};
  }
};

// Step 3 for the neighbors at entries [first, last) of s: the danger they put on `row`
// where they cover a slot.
template <int W>
CONTEXTSTEER_ALWAYS_INLINE void sweep_neighbors(const NeighborBuffers& s, int first, int last,
                                                const SlotDirections& dirs, Real* row) {
  auto load = [&](int j) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE { return SweptNeighbor::at(s, first + j); };
  auto cover = [](const SweptNeighbor& q, int, auto sx, auto sy, auto acc) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
    using Lane = decltype(acc);
    return lane_max(acc, select(q.ux * sx + q.uy * sy >= q.limit, splat<Lane>(q.weight), Lane{}));
  };
  sweep_slots<W>(dirs, last - first, row, load, cover);
}

template <int W>
CONTEXTSTEER_ALWAYS_INLINE void agent_danger_lanes(const SceneView& scene, const int* agents, int count,
                                                   NeighborDanger how, const SlotDirections& dirs, Real* danger,
                                                   NeighborBuffers& s) {
  const std::size_t slots = static_cast<std::size_t>(dirs.slots());
  in_blocks(
      0, count,
      [&](int k, int m)
          CONTEXTSTEER_LAMBDA_ALWAYS_INLINE { return gather_neighbors<W>(scene, agents[k], how.max_distance, s, m); },
      [&](int, const int* first, int count)
          CONTEXTSTEER_LAMBDA_ALWAYS_INLINE { neighbor_arcs<W>(s, first[count], how, dirs); },
      [&](int k, int first, int last) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
        sweep_neighbors<W>(s, first, last, dirs, danger + static_cast<std::size_t>(k) * slots);
      });
}

// Danger by pairs (agent_pair_danger): each pair of agents within reach is met once,
// from the agent earlier in the grid order, and gives danger both ways. The neighbor
// sees the agent at the opposite bearing, -u, at the same distance, with the same disc:
// its dot product with a slot is exactly -c, so it covers the slot when -c >= limit,
// that is c <= -limit, with the same weight. Every number is the one the neighbor's
// own query would compute, and a max does not depend on the order it is taken in.

// Step 1 for the agent at place k: the later agents within its reach that it senses or
// that sense it (kLayered; else every agent senses every other), packed into s from
// entry m on with their places, their disc radii unless all agents have one radius (the
// packed stores are what this step waits on), and, when kLayered, which way they sense.
// Returns the new count; `reached` becomes a place past every one of them (no row from
// there on is written for k).
template <int W, bool kLayered>
CONTEXTSTEER_ALWAYS_INLINE int gather_pairs(const SpatialGrid& grid, int k, Real max_distance, NeighborBuffers& s,
                                            int m, int& reached) {
  using V = typename Lanes<W>::Reals;
  using M = typename Lanes<W>::Ints;
  const PackTable<W>& packing = pack_table<W>();
  const Real *xs = grid.xs(), *ys = grid.ys(), *radii = grid.radii();
  const LayerMask *layers = grid.layers(), *senses = grid.senses();
  const Vec2 p{xs[k], ys[k]};
  const Real radius = radii[k];
  const std::int32_t layer = static_cast<std::int32_t>(layers[k]), sensing = static_cast<std::int32_t>(senses[k]);
  // Pairs of agents of the usual size; those with a large agent farther apart than that
  // are met by add_large_agent_pairs. A large agent reaches no farther than the usual
  // ones either, so that its pairs stay within the rows a chunk may write (row_chunks.hpp).
  const Real usual = grid.usual_radius();
  const Real reach = max_distance + std::min(radius, usual) + usual;
  const Real reach2 = reach * reach;
  const bool keep_discs = grid.common_radius() < 0;
  M lane;
  for (int l = 0; l < W; ++l) lane[l] = l;
  reached = grid.for_each_run_after(k, p, reach, [&](int begin, int end) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
    s.ensure(static_cast<std::size_t>(m + end - begin), static_cast<std::size_t>(m));
    for (int i = begin; i < end; i += W) {
      const V dx = load_lanes<V>(xs + i) - p.x;
      const V dy = load_lanes<V>(ys + i) - p.y;
      M keep = (dx * dx + dy * dy <= reach2) & (lane < end - i);
      M sides{};
      if constexpr (kLayered) {
        const M sensed = (load_lanes<M>(layers + i) & sensing) != 0;
        const M senses_back = (load_lanes<M>(senses + i) & layer) != 0;
        keep &= sensed | senses_back;
        sides = (sensed & 1) | (senses_back & 2);
      }
      const int bits = mask_bits(keep);
      const M order = packing.order[bits];
      store_packed(s.dx + m, dx, order);
      store_packed(s.dy + m, dy, order);
      if (keep_discs) store_packed(s.disc + m, load_lanes<V>(radii + i) + radius, order);
      store_packed(s.place + m, lane + i, order);
      if constexpr (kLayered) store_packed(s.senses + m, sides, order);
      m += W == 8 ? __builtin_popcount(static_cast<unsigned>(bits)) : packing.count[bits];
    }
  });
  return m;
}

// Step 2 for the first m pairs gathered in s (common_disc as neighbor_arcs takes it).
template <int W, bool kLayered>
CONTEXTSTEER_ALWAYS_INLINE void pair_arcs(NeighborBuffers& s, int m, NeighborDanger how, const SlotDirections& dirs,
                                          Real common_disc) {
  using V = typename Lanes<W>::Reals;
  using M = typename Lanes<W>::Ints;
  neighbor_arcs<W>(s, m, how, dirs, common_disc);
  // Danger goes only the ways the pair senses (a weight of 0 leaves a row as it is).
  if constexpr (kLayered) {
    for (int j = 0; j < m; j += W) {
      const V weight = load_lanes<V>(s.weight + j);
      const M sides = load_lanes<M>(s.senses + j);
      store_lanes(s.weight_back + j, select((sides & 2) != 0, weight, V{}));
      store_lanes(s.weight + j, select((sides & 1) != 0, weight, V{}));
    }
  }
}

// For the pairs of the block's agents (entries as in_blocks hands them to arcs): flags
// both agents of each pair within r_a + r_b + close.slack of each other in close.flags,
// by agent (close_agents.hpp). W entries at a time; few have any.
template <int W>
CONTEXTSTEER_ALWAYS_INLINE void note_close_pairs(const SpatialGrid& grid, const NeighborBuffers& s, int block,
                                                 const int* first, int count, Real common_disc,
                                                 const CloseAgents& close) {
  using V = typename Lanes<W>::Reals;
  using M = typename Lanes<W>::Ints;
  const int m = first[count];
  M lane;
  for (int l = 0; l < W; ++l) lane[l] = l;
  int owner = 0;  // the block's agent whose entries hold entry j
  for (int j = 0; j < m; j += W) {
    const V dx = load_lanes<V>(s.dx + j), dy = load_lanes<V>(s.dy + j);
    const V touch = (common_disc >= 0 ? splat<V>(common_disc) : load_lanes<V>(s.disc + j)) + close.slack;
    for (int bits = mask_bits((dx * dx + dy * dy <= touch * touch) & (lane < m - j)); bits; bits &= bits - 1) {
      const int entry = j + __builtin_ctz(static_cast<unsigned>(bits));
      while (first[owner + 1] <= entry) ++owner;
      close.flags[grid.agents()[block + owner]] = 1;
      close.flags[grid.agents()[s.place[entry]]] = 1;
    }
  }
}

// Step 3 for the pairs at entries [first, last) of s, gathered for the agent at place k:
// the danger of each on the other, on rows (places, slots), W slots at a time.
template <int W, bool kLayered>
CONTEXTSTEER_ALWAYS_INLINE void sweep_pairs(const NeighborBuffers& s, int first, int last, int k,
                                            const SlotDirections& dirs, Real* rows) {
  const int slots = dirs.slots();
  const Real* weight_back = kLayered ? s.weight_back : s.weight;
  // The neighbor's danger from the agent goes to the neighbor's row, read, raised
  // and written back; the agent's stays in the sweep's acc.
  struct SweptPair {
    SweptNeighbor to;  // as the agent sees the neighbor
    Real weight_back;
    Real* other;  // the neighbor's row
  };
  auto load = [&](int j) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
    j += first;
    return SweptPair{SweptNeighbor::at(s, j), weight_back[j], rows + static_cast<std::size_t>(s.place[j]) * slots};
  };
  auto cover = [](const SweptPair& q, int i, auto sx, auto sy, auto acc) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
    using Lane = decltype(acc);
    const Lane c = q.to.ux * sx + q.to.uy * sy;
    const Lane back = select(c <= -q.to.limit, splat<Lane>(q.weight_back), Lane{});
    if constexpr (std::is_same_v<Lane, Real>) {
      q.other[i] = lane_max(q.other[i], back);
    } else {
      store_lanes(q.other + i, lane_max(load_lanes<Lane>(q.other + i), back));
    }
    return lane_max(acc, select(c >= q.to.limit, splat<Lane>(q.to.weight), Lane{}));
  };
  sweep_slots<W>(dirs, last - first, rows + static_cast<std::size_t>(k) * slots, load, cover);
}

// The pairs of the agents at places [begin, end): steps 1 and 2 W at a time, the sweep
// kSweep slots at a time. Rows are zeroed before they are first written (before each
// block's sweeps), from place zero_from on and never at or past zero_limit (the caller
// zeroed the rest); *zeroed_to receives where the zeroing stopped.
template <int W, bool kLayered, int kSweep = W>
CONTEXTSTEER_ALWAYS_INLINE void pair_danger_lanes(const SpatialGrid& grid, int begin, int end, int zero_from,
                                                  int zero_limit, NeighborDanger how, const SlotDirections& dirs,
                                                  Real* rows, int* zeroed_to, const CloseAgents* close,
                                                  NeighborBuffers& s) {
  // r_a + r_b for every pair, where all agents have one radius (r + r is exactly 2r).
  const Real common_disc = grid.common_radius() >= 0 ? 2 * grid.common_radius() : Real(-1);
  const std::size_t slots = static_cast<std::size_t>(dirs.slots());
  int zeroed = zero_from;
  int needed = begin;  // a place past every row the sweeps so far write
  in_blocks(
      begin, end,
      [&](int k, int m) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
        int reached = k + 1;
        m = gather_pairs<W, kLayered>(grid, k, how.max_distance, s, m, reached);
        needed = std::max(needed, std::max(k + 1, reached));
        return m;
      },
      [&](int block, const int* first, int count) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
        const int limit = std::min(needed, zero_limit);
        if (limit > zeroed) {
          std::fill(rows + zeroed * slots, rows + limit * slots, Real(0));
          zeroed = limit;
        }
        pair_arcs<W, kLayered>(s, first[count], how, dirs, common_disc);
        if (close) note_close_pairs<W>(grid, s, block, first, count, common_disc, *close);
      },
      [&](int k, int first, int last)
          CONTEXTSTEER_LAMBDA_ALWAYS_INLINE { sweep_pairs<kSweep, kLayered>(s, first, last, k, dirs, rows); });
  *zeroed_to = zeroed;
}

}  // namespace

namespace CONTEXTSTEER_KERNEL_SET {

CONTEXTSTEER_KERNEL_TARGET void add_agent_danger(const SceneView& scene, const int* agents, int count,
                                                 NeighborDanger how, const SlotDirections& dirs, Real* danger,
                                                 NeighborBuffers& buffers) {
  agent_danger_lanes<kLanes>(scene, agents, count, how, dirs, danger, buffers);
}

// With kSweepLanes > kLanes (AVX-512), each 16 slots of a row are swept in one register:
// the sweep, a third of the pass, runs half the instructions. Slot counts that are not a
// multiple of kSweepLanes take the AVX2 set's kernel.
CONTEXTSTEER_KERNEL_TARGET void pair_danger_chunk(const SpatialGrid& grid, int begin, int end, int zero_from,
                                                  int zero_limit, NeighborDanger how, const SlotDirections& dirs,
                                                  Real* rows, int* zeroed_to, const CloseAgents* close,
                                                  NeighborBuffers& buffers) {
  if constexpr (kSweepLanes != kLanes) {
    if (dirs.slots() % kSweepLanes != 0) {
      return avx2::pair_danger_chunk(grid, begin, end, zero_from, zero_limit, how, dirs, rows, zeroed_to, close,
                                     buffers);
    }
  }
  // Where every agent senses every other, the layer tests are left out.
  if (grid.everyone_senses_everyone()) {
    return pair_danger_lanes<kLanes, false, kSweepLanes>(grid, begin, end, zero_from, zero_limit, how, dirs, rows,
                                                         zeroed_to, close, buffers);
  }
  pair_danger_lanes<kLanes, true, kSweepLanes>(grid, begin, end, zero_from, zero_limit, how, dirs, rows, zeroed_to,
                                               close, buffers);
}

}  // namespace CONTEXTSTEER_KERNEL_SET

}  // namespace contextsteer

#endif
