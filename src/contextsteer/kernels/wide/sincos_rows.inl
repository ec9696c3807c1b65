// sin and cos of a row of angles, W at a time (lane_sincos.hpp), the last few one at a
// time with the same operations. Included by kernels/<set>/sincos_rows.cpp (dispatch.hpp).
#ifndef CONTEXTSTEER_KERNEL_SET_CHOSEN
#error "a wide kernel is included by kernels/<set>/<name>.cpp, after the set's target.hpp"
#endif

#include "contextsteer/kernels/lane_sincos.hpp"
#include "contextsteer/kernels/simd.hpp"

#ifdef CONTEXTSTEER_KERNEL_SET

namespace contextsteer {

namespace {

template <int W>
CONTEXTSTEER_ALWAYS_INLINE void sincos_lanes(const Real* angles, int count, Real* sines, Real* cosines) {
  using V = typename Lanes<W>::Reals;
  int i = 0;
  for (; i + W <= count; i += W) {
    V s, c;
    lane_sincos(load_lanes<V>(angles + i), s, c);
    store_lanes(sines + i, s);
    store_lanes(cosines + i, c);
  }
  for (; i < count; ++i) lane_sincos(angles[i], sines[i], cosines[i]);
}

}  // namespace

namespace CONTEXTSTEER_KERNEL_SET {
CONTEXTSTEER_KERNEL_TARGET void sincos_rows(const Real* angles, int count, Real* sines, Real* cosines) {
  sincos_lanes<kLanes>(angles, count, sines, cosines);
}
}  // namespace CONTEXTSTEER_KERNEL_SET

}  // namespace contextsteer

#endif
