// Whether any value lies outside a range: the world's check of every column it is given,
// which is almost always clean, so W values at a time and without a branch. The reference:
// outside() in world/validation.cpp. Included by kernels/<set>/any_outside.cpp (dispatch.hpp).
#ifndef CONTEXTSTEER_KERNEL_SET_CHOSEN
#error "a wide kernel is included by kernels/<set>/<name>.cpp, after the set's target.hpp"
#endif

#include <cstddef>

#include "contextsteer/kernels/simd.hpp"

#ifdef CONTEXTSTEER_KERNEL_SET

namespace contextsteer {

namespace {

// True when some value of values[0..count) lies outside [lowest, highest] and is not
// `also`; NaN fails every comparison.
template <int W>
CONTEXTSTEER_ALWAYS_INLINE bool any_outside_lanes(const Real* values, std::size_t count, Real lowest, Real highest,
                                                  Real also) {
  using V = typename Lanes<W>::Reals;
  typename Lanes<W>::Ints bad{};
  std::size_t i = 0;
  for (; i + W <= count; i += W) {
    const V v = load_lanes<V>(values + i);
    bad |= ~((v >= lowest) & ((v <= highest) | (v == also)));
  }
  bool any = mask_bits(bad) != 0;
  for (; i < count; ++i) any |= !(values[i] >= lowest && (values[i] <= highest || values[i] == also));
  return any;
}

}  // namespace

namespace CONTEXTSTEER_KERNEL_SET {
CONTEXTSTEER_KERNEL_TARGET bool any_outside(const Real* values, std::size_t count, Real lowest, Real highest,
                                            Real also) {
  return any_outside_lanes<kLanes>(values, count, lowest, highest, also);
}
}  // namespace CONTEXTSTEER_KERNEL_SET

}  // namespace contextsteer

#endif
