// sin and cos for W lanes at once, or for one Real with the very same operations.
//
// libm's sinf and cosf are a call per value, which a vector kernel cannot make; for
// behaviours that turn a heading into a direction (Forward, Wander) such calls would be most
// of their time. This one takes the quadrant k = round(x * 2 / pi) (by adding and taking
// away 1.5 * 2^23), reduces r = x - k pi / 2 with pi / 2 split into three parts
// (Cody-Waite; exact products for |k| < 2^13), evaluates the minimax polynomials of
// Cephes' sinf and cosf on |r| <= pi / 4, and swaps and signs them by quadrant. Angles
// beyond 8192 rad take libm's sinf and cosf instead. Largest error against a
// double-precision sin and cos: about 1e-7 (tests/cpp/test_lane_sincos.cpp checks it).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "contextsteer/base/real.hpp"
#include "contextsteer/kernels/simd.hpp"

namespace contextsteer {

namespace sincos_detail {

constexpr Real kLarge = 8192;  // beyond this, k would need too many bits
constexpr Real kTwoOverPi = Real(0.636619772367581343);
constexpr Real kRound = Real(12582912);  // 1.5 * 2^23: adding it rounds to an integer
// pi / 2 = kA + kB + kC, kA and kB with few enough bits that k * kA and k * kB are exact.
constexpr Real kA = Real(1.5703125);
constexpr Real kB = Real(4.837512969970703125e-4);
constexpr Real kC = Real(7.54978995489188216e-8);

// The quadrant as an integer, for one Real or W lanes (a template, so that the 8-lane
// form exists only inside kernels compiled for AVX2).
template <class V>
CONTEXTSTEER_ALWAYS_INLINE auto quadrant_of(V k) {
#ifdef CONTEXTSTEER_SIMD
  if constexpr (!std::is_same_v<V, Real>) {
    return __builtin_convertvector(k, typename Lanes<sizeof(V) / sizeof(Real)>::Ints);
  } else
#endif
  {
    return static_cast<std::int32_t>(k);
  }
}

// Lanes beyond kLarge radians (users may write such headings) take libm's sin and cos,
// which reduce them exactly; the polynomial saw 0 in their place.
CONTEXTSTEER_ALWAYS_INLINE bool large(Real x) { return (x < Real(0) ? -x : x) > kLarge; }
CONTEXTSTEER_ALWAYS_INLINE Real within_range(Real x) { return large(x) ? Real(0) : x; }
CONTEXTSTEER_ALWAYS_INLINE void fix_large(Real x, Real& sine, Real& cosine) {
  if (large(x)) sine = std::sin(x), cosine = std::cos(x);
}
#ifdef CONTEXTSTEER_SIMD
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V within_range(V x) {
  return select(select(x < Real(0), -x, x) > kLarge, V{}, x);
}
template <class V>
CONTEXTSTEER_ALWAYS_INLINE void fix_large(V x, V& sine, V& cosine) {
  if (!mask_bits(select(x < Real(0), -x, x) > kLarge)) return;
  for (unsigned l = 0; l < sizeof(V) / sizeof(Real); ++l) {
    Real s = sine[l], c = cosine[l];  // a vector's lane cannot be bound to a reference
    fix_large(x[l], s, c);
    sine[l] = s, cosine[l] = c;
  }
}
#endif

}  // namespace sincos_detail

// sin(x) and cos(x) of angles x in radians (finite).
template <class V>
CONTEXTSTEER_ALWAYS_INLINE void lane_sincos(V x, V& sine, V& cosine) {
  using namespace sincos_detail;
  const V y = within_range(x);
  const V k = (y * kTwoOverPi + kRound) - kRound;
  const V r = ((y - k * kA) - k * kB) - k * kC;
  const V z = r * r;
  const V s = r + r * z * ((Real(-1.9515295891e-4) * z + Real(8.3321608736e-3)) * z + Real(-1.6666654611e-1));
  const V c = (Real(1) - Real(0.5) * z) +
              z * z * ((Real(2.443315711809948e-5) * z + Real(-1.388731625493765e-3)) * z + Real(4.166664568298827e-2));
  // Quadrant q: (sin, cos) = (s, c), (c, -s), (-s, -c), (-c, s) for q = 0, 1, 2, 3.
  const auto q = quadrant_of(k);
  const auto swap = (q & 1) != 0;
  const V sin_part = select(swap, c, s), cos_part = select(swap, s, c);
  sine = select((q & 2) != 0, -sin_part, sin_part);
  cosine = select(((q + 1) & 2) != 0, -cos_part, cos_part);
  fix_large(x, sine, cosine);
}

// sines[i], cosines[i] = sin(angles[i]), cos(angles[i]) for i < count (radians, finite),
// W at a time where the CPU allows, with the same numbers on every path.
void sincos_rows(const Real* angles, int count, Real* sines, Real* cosines);

}  // namespace contextsteer
