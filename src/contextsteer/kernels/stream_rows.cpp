#include "contextsteer/kernels/stream_rows.hpp"

#include <cstddef>
#include <cstdint>

#include "contextsteer/kernels/dispatch.hpp"
#include "contextsteer/kernels/slot_sweep.hpp"

#ifdef __SSE__
#include <immintrin.h>
#endif

namespace contextsteer {

void stream_rows(const Real* from, const int* agents, int count, int slots, Real* to) {
  const KernelTable* kernels = vector_kernels();
  if (kernels && slots % 16 == 0 && reinterpret_cast<std::uintptr_t>(to) % 64 == 0) {
    return kernels->stream_lines(from, agents, count, slots, to);
  }
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
