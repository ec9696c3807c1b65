// Cosine lobes added to rows of maps (maps/cosine_lobes.hpp), W slots at a time, with
// cosine_lobe's operations (slot_sweep.hpp, the reference). Needs dirs.slots() % W == 0.
// Included by kernels/<set>/add_cosine_lobes.cpp (dispatch.hpp).
#ifndef CONTEXTSTEER_KERNEL_SET_CHOSEN
#error "a wide kernel is included by kernels/<set>/<name>.cpp, after the set's target.hpp"
#endif

#include <cstddef>

#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/maps/cosine_lobes.hpp"
#include "contextsteer/maps/slots.hpp"

#ifdef CONTEXTSTEER_KERNEL_SET

namespace contextsteer {

namespace {

template <int W>
CONTEXTSTEER_ALWAYS_INLINE void add_lobes_lanes(Real* rows, const SlotDirections& dirs, const Lobe* lobes, int count,
                                                bool sum) {
  using V = typename Lanes<W>::Reals;
  const int slots = dirs.slots();
  const Real *dx = dirs.x(), *dy = dirs.y();
  for (int l = 0; l < count; ++l) {
    Real* row = rows + static_cast<std::size_t>(lobes[l].row) * slots;
    const V x = splat<V>(lobes[l].x), y = splat<V>(lobes[l].y), bias = splat<V>(lobes[l].bias);
    for (int i = 0; i < slots; i += W) {
      const V c = x * load_lanes<V>(dx + i) + y * load_lanes<V>(dy + i) + bias;
      const V old = load_lanes<V>(row + i);
      store_lanes(row + i, sum ? old + lane_max(c, V{}) : lane_max(old, c));
    }
  }
}

}  // namespace

namespace CONTEXTSTEER_KERNEL_SET {
CONTEXTSTEER_KERNEL_TARGET void add_cosine_lobes(Real* rows, const SlotDirections& dirs, const Lobe* lobes, int count,
                                                 bool sum) {
  add_lobes_lanes<kLanes>(rows, dirs, lobes, count, sum);
}
}  // namespace CONTEXTSTEER_KERNEL_SET

}  // namespace contextsteer

#endif
