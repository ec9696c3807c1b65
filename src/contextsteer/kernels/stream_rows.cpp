#include "contextsteer/kernels/stream_rows.hpp"

#include <cstddef>
#include <cstdint>

#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/kernels/slot_sweep.hpp"

#ifdef __SSE__
#include <immintrin.h>
#endif

namespace contextsteer {

namespace {

#ifdef __SSE__
// Both need slots % 16 == 0 and `to` on a 64-byte line.
void stream_lines_sse(const Real* from, const int* agents, int count, int slots, Real* to) {
  for (int k = 0; k < count; ++k) {
    const Real* row = from + static_cast<std::size_t>(k) * slots;
    Real* target = to + static_cast<std::size_t>(agents[k]) * slots;
    for (int i = 0; i < slots; i += 4) _mm_stream_ps(target + i, _mm_loadu_ps(row + i));
  }
}
#endif

#ifdef CONTEXTSTEER_AVX2_DISPATCH
CONTEXTSTEER_TARGET_AVX2 void stream_lines_avx2(const Real* from, const int* agents, int count, int slots, Real* to) {
  if (slots == 16) {  // the usual count, one line per row: no loop over its two halves
    for (int k = 0; k < count; ++k) {
      Real* target = to + static_cast<std::size_t>(agents[k]) * 16;
      _mm256_stream_ps(target, _mm256_loadu_ps(from + 16 * k));
      _mm256_stream_ps(target + 8, _mm256_loadu_ps(from + 16 * k + 8));
    }
    return;
  }
  for (int k = 0; k < count; ++k) {
    const Real* row = from + static_cast<std::size_t>(k) * slots;
    Real* target = to + static_cast<std::size_t>(agents[k]) * slots;
    for (int i = 0; i < slots; i += 8) _mm256_stream_ps(target + i, _mm256_loadu_ps(row + i));
  }
}
#endif

}  // namespace

void stream_rows(const Real* from, const int* agents, int count, int slots, Real* to) {
#ifdef __SSE__
  if (slots % 16 == 0 && reinterpret_cast<std::uintptr_t>(to) % 64 == 0) {
#ifdef CONTEXTSTEER_AVX2_DISPATCH
    if (kernel_width() == 8) return stream_lines_avx2(from, agents, count, slots, to);
#endif
    return stream_lines_sse(from, agents, count, slots, to);
  }
#endif
  for (int k = 0; k < count; ++k) {
    copy_row(from + static_cast<std::size_t>(k) * slots, to + static_cast<std::size_t>(agents[k]) * slots, slots);
  }
}

void stream_rows_done() {
#ifdef __SSE__
  _mm_sfence();
#endif
}

}  // namespace contextsteer
