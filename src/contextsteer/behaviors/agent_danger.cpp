#include "agent_danger.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "../neighbour_lanes.hpp"
#include "../simd.hpp"
#include "arc_coverage.hpp"

namespace contextsteer {

namespace {

// One agent's neighbours: the scalar path, and the reference the vector path matches.
void add_agent_danger_scalar(const SceneView& scene, int a, Real max_distance, Falloff falloff,
                             const SlotDirections& dirs, Real* row) {
  const SpatialGrid& grid = *scene.grid;
  const Vec2 p = scene.position(a);
  const Real agent_radius = scene.radius_of(a);
  const LayerMask senses = scene.senses(a);
  const Real reach = max_distance + agent_radius + scene.max_radius;
  const Real reach2 = reach * reach;
  grid.for_each_run(p, reach, [&](int begin, int end) {
    for (int k = begin; k < end; ++k) {
      const Vec2 to{grid.xs()[k] - p.x, grid.ys()[k] - p.y};
      if (!(length_squared(to) <= reach2) || grid.agents()[k] == a || !(grid.layers()[k] & senses)) continue;
      const Real disc = grid.radii()[k] + agent_radius;
      const Real clearance = std::max(Real(0), length(to) - disc);
      if (clearance > max_distance) continue;
      add_disc_danger(dirs, to, disc, falloff_value(falloff, clearance, max_distance), row);
    }
  });
}

#ifdef CONTEXTSTEER_SIMD

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
  for (unsigned l = 0; l < sizeof(V) / sizeof(Real); ++l) e[l] = std::exp(-4 * x[l]);
  return e;
}

// Per-thread buffers for one agent's neighbours, grown to the largest neighbourhood seen
// (with 8 lanes of slack, as whole vectors are stored past the last neighbour).
struct NeighbourBuffers {
  std::vector<Real> storage;  // seven arrays of `capacity` entries each
  std::size_t capacity = 0;
  Real *dx, *dy, *disc;           // offsets (m) and disc radius r_a + r_b (m)
  Real *ux, *uy, *limit, *weight;  // bearing, least cosine to a covered slot, danger
  // Room for n entries in each array, keeping the first `kept` of each. Out of line: it
  // grows only on the first crowded neighbourhoods, and inlined it would make the
  // kernel reload its pointers after every check.
  __attribute__((noinline)) void grow(std::size_t n, std::size_t kept) {
    const std::size_t grown = std::max<std::size_t>(2 * n + 8, 256);
    std::vector<Real> next_storage(7 * grown);
    Real* next = next_storage.data();
    for (Real** array : {&dx, &dy, &disc, &ux, &uy, &limit, &weight}) {
      if (kept) std::copy(*array, *array + kept, next);
      *array = next;
      next += grown;
    }
    storage.swap(next_storage);
    capacity = grown;
  }
  void ensure(std::size_t n, std::size_t kept) {
    if (n + 8 > capacity) grow(n, kept);
  }
};

// Two sets of buffers per thread: one agent's neighbours are gathered into one while the
// previous agent's, in the other, are turned into danger (see agent_danger_lanes).
struct BufferPair {
  NeighbourBuffers set[2];
};

// Out of line, so that a kernel looks up the thread-local storage once per call.
__attribute__((noinline)) BufferPair& neighbour_buffers() {
  thread_local BufferPair buffers;
  for (NeighbourBuffers& b : buffers.set) b.ensure(0, 0);
  return buffers;
}

// Step 1 for agent a: its candidates W at a time, the ones within reach packed to the
// front of s.dx, s.dy, s.disc. Returns how many.
template <int W>
CONTEXTSTEER_ALWAYS_INLINE int gather_neighbours(const SceneView& scene, int a, Real max_distance,
                                                 NeighbourBuffers& s) {
  using M = typename Lanes<W>::Ints;
  const PackTable<W>& packing = pack_table<W>();
  const Real agent_radius = scene.radius_of(a);
  const Real reach = max_distance + agent_radius + scene.max_radius;
  int m = 0;
  auto room_for_run = [&](int candidates) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
    s.ensure(static_cast<std::size_t>(m + candidates), static_cast<std::size_t>(m));
  };
  for_each_neighbour_lanes<W>(scene, a, reach, room_for_run, [&](const NeighbourLanes<W>& n)
                                                                 CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
    const int bits = mask_bits(n.keep);
    const M order = packing.order[bits];
    store_lanes(s.dx + m, pack(n.dx, order));
    store_lanes(s.dy + m, pack(n.dy, order));
    store_lanes(s.disc + m, pack(n.radius + agent_radius, order));
    // The count feeds the next store's address: popcnt (1 cycle) where the kernel has it,
    // else the table (a load).
    m += W == 8 ? __builtin_popcount(static_cast<unsigned>(bits)) : packing.count[bits];
  });
  return m;
}

// Steps 2 and 3 for the m neighbours gathered in s: the danger they put on `row`.
template <int W>
CONTEXTSTEER_ALWAYS_INLINE void add_gathered_danger(const NeighbourBuffers& s, int m, Real max_distance,
                                                    Falloff falloff, const SlotDirections& dirs, Real* row) {
  using V = typename Lanes<W>::Reals;
  using M = typename Lanes<W>::Ints;
  const int slots = dirs.slots();
  const Real half_cos = dirs.half_spacing_cos(), half_sin = dirs.half_spacing_sin();

  // 2. Each neighbour's bearing, coverage limit and danger, as add_disc_danger has them.
  for (int j = 0; j < m; j += W) {
    const V dx = load_lanes<V>(s.dx + j), dy = load_lanes<V>(s.dy + j);
    const V disc = load_lanes<V>(s.disc + j);
    const V d = lane_sqrt(dx * dx + dy * dy);
    const V gap = d - disc;
    const V clearance = select(Real(0) < gap, gap, V{});
    const V weight = select(clearance > max_distance, V{}, lane_falloff(falloff, clearance, max_distance));
    const V inv_d = Real(1) / d;
    const V ratio = disc * inv_d;
    const V sin_alpha = select(ratio < Real(1), ratio, splat<V>(Real(1)));
    const V cos_alpha = lane_sqrt(Real(1) - sin_alpha * sin_alpha);
    const V min_cos = cos_alpha * half_cos - sin_alpha * half_sin;
    // A neighbour at the agent's centre has no bearing: it covers every slot.
    const M centred = d < Real(1e-6);
    store_lanes(s.ux + j, select(centred, V{}, dx * inv_d));
    store_lanes(s.uy + j, select(centred, V{}, dy * inv_d));
    store_lanes(s.limit + j, select(centred, splat<V>(Real(-1)), min_cos - Real(1e-6)));
    store_lanes(s.weight + j, weight);
  }

  // 3. Sweep: every neighbour's danger where it covers a slot, two vectors of slots per
  //    pass so that each neighbour's values are loaded once per pass; then one vector,
  //    then single slots, for slot counts that are not a multiple of 2W.
  auto cover = [&](int j, auto sx, auto sy, auto acc) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE {
    using Lane = decltype(acc);
    return lane_max(acc, select(s.ux[j] * sx + s.uy[j] * sy >= s.limit[j], splat<Lane>(s.weight[j]), Lane{}));
  };
  int i = 0;
  for (; i + 2 * W <= slots; i += 2 * W) {
    const V sx0 = load_lanes<V>(dirs.x() + i), sy0 = load_lanes<V>(dirs.y() + i);
    const V sx1 = load_lanes<V>(dirs.x() + i + W), sy1 = load_lanes<V>(dirs.y() + i + W);
    V acc0 = load_lanes<V>(row + i), acc1 = load_lanes<V>(row + i + W);
    for (int j = 0; j < m; ++j) {
      acc0 = cover(j, sx0, sy0, acc0);
      acc1 = cover(j, sx1, sy1, acc1);
    }
    store_lanes(row + i, acc0);
    store_lanes(row + i + W, acc1);
  }
  for (; i + W <= slots; i += W) {
    const V sx = load_lanes<V>(dirs.x() + i), sy = load_lanes<V>(dirs.y() + i);
    V acc = load_lanes<V>(row + i);
    for (int j = 0; j < m; ++j) acc = cover(j, sx, sy, acc);
    store_lanes(row + i, acc);
  }
  for (; i < slots; ++i) {
    Real acc = row[i];
    for (int j = 0; j < m; ++j) acc = cover(j, dirs.x()[i], dirs.y()[i], acc);
    row[i] = acc;
  }
}

template <int W>
CONTEXTSTEER_ALWAYS_INLINE void agent_danger_lanes(const SceneView& scene, const int* agents, int count,
                                                   Real max_distance, Falloff falloff, const SlotDirections& dirs,
                                                   Real* danger) {
  BufferPair& buffers = neighbour_buffers();
  const int slots = dirs.slots();
  // Software-pipelined by one agent: the packed stores of a gathering land at unaligned,
  // overlapping places, and a vector load that spans several of them cannot take its
  // data straight from the store queue; it waits for them to reach the cache. Reading
  // them one agent later (after the next gathering), they have.
  int previous_m = 0;
  for (int k = 0; k <= count; ++k) {
    int m = 0;
    if (k < count) m = gather_neighbours<W>(scene, agents[k], max_distance, buffers.set[k & 1]);
    if (k > 0) {
      add_gathered_danger<W>(buffers.set[(k - 1) & 1], previous_m, max_distance, falloff, dirs,
                             danger + static_cast<std::size_t>(k - 1) * slots);
    }
    previous_m = m;
  }
}

void agent_danger_baseline(const SceneView& scene, const int* agents, int count, Real max_distance, Falloff falloff,
                           const SlotDirections& dirs, Real* danger) {
  agent_danger_lanes<4>(scene, agents, count, max_distance, falloff, dirs, danger);
}

#ifdef CONTEXTSTEER_AVX2_DISPATCH
CONTEXTSTEER_TARGET_AVX2 void agent_danger_avx2(const SceneView& scene, const int* agents, int count,
                                                Real max_distance, Falloff falloff, const SlotDirections& dirs,
                                                Real* danger) {
  agent_danger_lanes<8>(scene, agents, count, max_distance, falloff, dirs, danger);
}
#endif

#endif  // CONTEXTSTEER_SIMD

}  // namespace

void add_agent_danger(const SceneView& scene, const int* agents, int count, Real max_distance, Falloff falloff,
                      const SlotDirections& dirs, Real* danger) {
  const int slots = dirs.slots();
  const int width = kernel_width();
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  // One slot is a special case of add_disc_danger (its arc is the whole circle).
  if (slots >= 2 && width == 8) return agent_danger_avx2(scene, agents, count, max_distance, falloff, dirs, danger);
#endif
#ifdef CONTEXTSTEER_SIMD
  if (slots >= 2 && width >= 4) return agent_danger_baseline(scene, agents, count, max_distance, falloff, dirs, danger);
#endif
  for (int k = 0; k < count; ++k) {
    add_agent_danger_scalar(scene, agents[k], max_distance, falloff, dirs, danger + static_cast<std::size_t>(k) * slots);
  }
}

}  // namespace contextsteer
