// The one place that picks the vector kernels for this CPU.
//
// How the kernels are laid out:
// - kernels/*.hpp: the lane machinery every kernel is written with (simd.hpp: vector types,
//   loads, stores, selections; lane_sincos, lane_atan2, slot_sweep: lane-generic helpers
//   that also take a plain Real) and this table. They include base/ only.
// - kernels/wide/<name>.inl: one kernel, written once as an always-inline template on the
//   lane count W (a vector of W floats: simd.hpp), then its entry point, defined with
//   kLanes and CONTEXTSTEER_KERNEL_TARGET in the namespace CONTEXTSTEER_KERNEL_SET. A wide
//   kernel takes the domain's own data (the grid, the slot directions, ...) and includes
//   the domain headers it needs: only the per-width files include it, and nothing includes
//   those, so it sits at the top of the include graph, like the bindings.
// - kernels/<set>/<name>.cpp, one tiny file per kernel and instruction set: baseline
//   (W = 4: SSE2 on x86-64, NEON on ARM64), avx2 (W = 8, functions marked target avx2),
//   avx512 (AVX-512 for what gains from it). Each includes its set's target.hpp, then the
//   kernel's .inl.
// - CONTEXTSTEER_WIDE_KERNELS below lists every entry point once; the KernelTable and the
//   declarations of each set's entry points are made from it. vector_kernels() returns the
//   table for this CPU and the lanes allowed now (simd_width_limit), or null: the domain
//   then takes its scalar path, the reference that every width matches to the bit.
// A domain file calls `if (const KernelTable* k = vector_kernels()) return k->name(...);`
// before its scalar path, and holds no vector code and no #if of its own.
//
// Adding a kernel: write kernels/wide/<name>.inl (the template on W, then the entry point),
// add one line to CONTEXTSTEER_WIDE_KERNELS, add kernels/baseline/<name>.cpp and
// kernels/avx2/<name>.cpp (two includes each), and call it from the domain as above. A set
// without its own version of an entry point takes another's in dispatch.cpp (avx512 takes
// avx2's but for pair_danger_chunk).
#pragma once

#include <atomic>
#include <cstddef>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"

namespace contextsteer {

// The domain data some kernels take (declared by their layers; only the wide kernels and
// their callers see them whole).
struct AnticipatedDisc;
struct Circle;
struct CloseAgents;
struct Decision;
struct Lobe;
struct MotionColumns;
struct NeighborBuffers;
struct NeighborDanger;
struct ResolveParams;
struct SceneView;
struct Segment;
class SlotDirections;
class SpatialGrid;

// X(result, name, parameters): every wide kernel's entry point. The conditions each puts
// on its arguments are given where the kernel is written (kernels/wide/<name>.inl).
#define CONTEXTSTEER_WIDE_KERNELS(X)                                                                                   \
  X(bool, any_outside, (const Real* values, std::size_t count, Real lowest, Real highest, Real also))                  \
  X(void, sincos_rows, (const Real* angles, int count, Real* sines, Real* cosines))                                    \
  X(void, stream_lines, (const Real* from, const int* agents, int count, int slots, Real* to))                         \
  X(void, add_cosine_lobes, (Real * rows, const SlotDirections& dirs, const Lobe* lobes, int count, bool sum))         \
  X(void, argmax_rows,                                                                                                 \
    (const Real* interest, const Real* danger, int count, const SlotDirections& dirs, const ResolveParams& params,     \
     Real* final_rows, Decision* decisions))                                                                           \
  X(int, move_agents, (const MotionColumns& columns, int first, int count, Real h, int substeps, Real& farthest))      \
  X(void, lower_to_first_hits,                                                                                         \
    (Vec2 p, const Real* dx, const Real* dy, int count, const Circle* circles, int circle_count, const Segment* walls, \
     int wall_count, Real r, Real* t))                                                                                 \
  X(void, measure_overlap, (const SceneView& scene, const int* agents, int count, Real* overlap))                      \
  X(void, add_agent_danger,                                                                                            \
    (const SceneView& scene, const int* agents, int count, NeighborDanger how, const SlotDirections& dirs,             \
     Real* danger, NeighborBuffers& buffers))                                                                          \
  X(void, pair_danger_chunk,                                                                                           \
    (const SpatialGrid& grid, int begin, int end, int zero_from, int zero_limit, NeighborDanger how,                   \
     const SlotDirections& dirs, Real* rows, int* zeroed_to, const CloseAgents* close, NeighborBuffers& buffers))      \
  X(void, anticipate_rows,                                                                                             \
    (const AnticipatedDisc* discs, int count, const Real* xs, const Real* ys, int slots, Real* row))

// One instruction set's kernels, and the lanes W they run.
struct KernelTable {
  int lanes;
#define CONTEXTSTEER_KERNEL_POINTER(result, name, parameters) result(*name) parameters;
  CONTEXTSTEER_WIDE_KERNELS(CONTEXTSTEER_KERNEL_POINTER)
#undef CONTEXTSTEER_KERNEL_POINTER
};

// The widest kernels the library may use: 16 (AVX-512, for the few kernels that have such
// a path, when the CPU has it), 8 (AVX2, when the CPU has it), 4, or 1 (the scalar paths
// only). Lowered by tests, to check that every path gives the same numbers.
inline std::atomic<int> simd_width_limit{16};

// True when this CPU runs AVX2 and popcnt (AVX-512 F, VL, BW and DQ), and the operating
// system saves the registers they use. Asked once; false off x86.
bool cpu_has_avx2();
bool cpu_has_avx512();

// The kernels of each width this build and this CPU have (null where none), found once.
struct KernelTables {
  const KernelTable* widest;   // AVX-512, else as up_to_8
  const KernelTable* up_to_8;  // AVX2, else as up_to_4
  const KernelTable* up_to_4;  // baseline vectors; null in a build without vector kernels
};
const KernelTables& detect_kernel_tables();
inline const KernelTables& kernel_tables() {
  static const KernelTables& tables = detect_kernel_tables();
  return tables;
}

// The kernels to run now, within simd_width_limit; null when the scalar paths are to run.
inline const KernelTable* vector_kernels() {
  const int limit = simd_width_limit.load(std::memory_order_relaxed);
  const KernelTables& tables = kernel_tables();
  return limit >= 16 ? tables.widest : limit >= 8 ? tables.up_to_8 : limit >= 4 ? tables.up_to_4 : nullptr;
}

// The lanes the kernels run now: 8 on a CPU with AVX2, 4 with vector extensions, else 1
// (the scalar paths). (16 lanes are asked for apart, by wide_kernels_allowed().)
inline int kernel_width() {
  const KernelTable* kernels = vector_kernels();
  return kernels ? kernels->lanes : 1;
}

// Whether the kernels that have a 16-lane path (AVX-512) may take it now.
inline bool wide_kernels_allowed() {
  return simd_width_limit.load(std::memory_order_relaxed) >= 16 && cpu_has_avx512();
}

// Each instruction set's entry points (defined in kernels/<set>/, where the set exists).
#define CONTEXTSTEER_KERNEL_DECLARATION(result, name, parameters) result name parameters;
namespace baseline {
CONTEXTSTEER_WIDE_KERNELS(CONTEXTSTEER_KERNEL_DECLARATION)
}
namespace avx2 {
CONTEXTSTEER_WIDE_KERNELS(CONTEXTSTEER_KERNEL_DECLARATION)
}
namespace avx512 {
void pair_danger_chunk(const SpatialGrid& grid, int begin, int end, int zero_from, int zero_limit, NeighborDanger how,
                       const SlotDirections& dirs, Real* rows, int* zeroed_to, const CloseAgents* close,
                       NeighborBuffers& buffers);
}
#undef CONTEXTSTEER_KERNEL_DECLARATION

}  // namespace contextsteer
