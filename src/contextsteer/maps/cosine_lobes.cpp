#include "contextsteer/maps/cosine_lobes.hpp"

#include <stdexcept>
#include <string>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/kernels/slot_sweep.hpp"

namespace contextsteer {

namespace {

#ifdef CONTEXTSTEER_AVX2_DISPATCH
// cosine_lobe's operations on 8 slots at a time. Needs slots % 8 == 0.
CONTEXTSTEER_ALWAYS_INLINE void add_lobes_8(Real* rows, const SlotDirections& dirs, const Lobe* lobes, int count,
                                            bool sum) {
  const int slots = dirs.slots();
  const Real *dx = dirs.x(), *dy = dirs.y();
  for (int l = 0; l < count; ++l) {
    Real* row = rows + static_cast<std::size_t>(lobes[l].row) * slots;
    const Real8 x = splat<Real8>(lobes[l].x), y = splat<Real8>(lobes[l].y), bias = splat<Real8>(lobes[l].bias);
    for (int i = 0; i < slots; i += 8) {
      const Real8 c = x * load_lanes<Real8>(dx + i) + y * load_lanes<Real8>(dy + i) + bias;
      const Real8 old = load_lanes<Real8>(row + i);
      store_lanes(row + i, sum ? old + lane_max(c, Real8{}) : lane_max(old, c));
    }
  }
}
// add_lobes_8 compiled for AVX2, by being inlined (see simd.hpp on Clang).
CONTEXTSTEER_TARGET_AVX2 void add_lobes_avx2(Real* rows, const SlotDirections& dirs, const Lobe* lobes, int count,
                                             bool sum) {
  add_lobes_8(rows, dirs, lobes, count, sum);
}
#endif

}  // namespace

void add_cosine_lobes(Real* rows, const SlotDirections& dirs, const Lobe* lobes, int count, bool sum) {
  const int slots = dirs.slots();
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  if (slots % 8 == 0 && kernel_width() == 8) return add_lobes_avx2(rows, dirs, lobes, count, sum);
#endif
  for (int l = 0; l < count; ++l) {
    cosine_lobe(rows + static_cast<std::size_t>(lobes[l].row) * slots, dirs.x(), dirs.y(), slots, lobes[l].x,
                lobes[l].y, lobes[l].bias, sum);
  }
}

void check_sideways(Real sideways) {
  if (!(sideways >= 0 && sideways < 1)) {
    throw std::invalid_argument("sideways: expected a share of the peak in [0, 1), got " + format_real(sideways));
  }
}

Lobe* lobe_buffer() {
  thread_local Lobe lobes[kLobeChunk];
  return lobes;
}

}  // namespace contextsteer
