// Map rows streamed to the world's maps with non-temporal stores (stream_rows.hpp), which
// write whole 64-byte lines to memory without first reading them into the cache: 16 bytes
// a store on baseline x86-64, 32 on AVX2; elsewhere (ARM64) the rows are copied. Needs
// slots % 16 == 0 and `to` on a 64-byte line. Included by kernels/<set>/stream_lines.cpp.
// The stores are intrinsics of each instruction set, written in the entry point itself
// (an intrinsic inlines only into a function of its target).
#ifndef CONTEXTSTEER_KERNEL_SET_CHOSEN
#error "a wide kernel is included by kernels/<set>/<name>.cpp, after the set's target.hpp"
#endif

#include <cstddef>

#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/kernels/slot_sweep.hpp"

#ifdef CONTEXTSTEER_KERNEL_SET

#ifdef __SSE__
#include <immintrin.h>
#if CONTEXTSTEER_KERNEL_LANES == 8
#define CONTEXTSTEER_STREAM_LANES(to, from) _mm256_stream_ps(to, _mm256_loadu_ps(from))
#else
#define CONTEXTSTEER_STREAM_LANES(to, from) _mm_stream_ps(to, _mm_loadu_ps(from))
#endif
#endif

namespace contextsteer::CONTEXTSTEER_KERNEL_SET {

CONTEXTSTEER_KERNEL_TARGET void stream_lines(const Real* from, const int* agents, int count, int slots, Real* to) {
#ifdef CONTEXTSTEER_STREAM_LANES
  constexpr int W = CONTEXTSTEER_KERNEL_LANES;
  if (slots == 16) {  // the usual count, one line per row: no loop over its parts
    for (int k = 0; k < count; ++k) {
      Real* target = to + static_cast<std::size_t>(agents[k]) * 16;
      for (int i = 0; i < 16; i += W) CONTEXTSTEER_STREAM_LANES(target + i, from + 16 * k + i);
    }
    return;
  }
  for (int k = 0; k < count; ++k) {
    const Real* row = from + static_cast<std::size_t>(k) * slots;
    Real* target = to + static_cast<std::size_t>(agents[k]) * slots;
    for (int i = 0; i < slots; i += W) CONTEXTSTEER_STREAM_LANES(target + i, row + i);
  }
#else
  for (int k = 0; k < count; ++k) {
    copy_row(from + static_cast<std::size_t>(k) * slots, to + static_cast<std::size_t>(agents[k]) * slots, slots);
  }
#endif
}

}  // namespace contextsteer::CONTEXTSTEER_KERNEL_SET

#endif
