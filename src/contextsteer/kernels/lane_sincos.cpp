#include "contextsteer/kernels/lane_sincos.hpp"

namespace contextsteer {

namespace {

#ifdef CONTEXTSTEER_SIMD
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

void sincos_baseline(const Real* angles, int count, Real* sines, Real* cosines) {
  sincos_lanes<4>(angles, count, sines, cosines);
}

#ifdef CONTEXTSTEER_AVX2_DISPATCH
CONTEXTSTEER_TARGET_AVX2 void sincos_avx2(const Real* angles, int count, Real* sines, Real* cosines) {
  sincos_lanes<8>(angles, count, sines, cosines);
}
#endif
#endif  // CONTEXTSTEER_SIMD

}  // namespace

void sincos_rows(const Real* angles, int count, Real* sines, Real* cosines) {
  const int width = kernel_width();
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  if (width == 8) return sincos_avx2(angles, count, sines, cosines);
#endif
#ifdef CONTEXTSTEER_SIMD
  if (width >= 4) return sincos_baseline(angles, count, sines, cosines);
#endif
  (void)width;
  for (int i = 0; i < count; ++i) lane_sincos(angles[i], sines[i], cosines[i]);
}

}  // namespace contextsteer
