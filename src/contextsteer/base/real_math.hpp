// The core's own sine, cosine, atan2 and exp for one Real, so that a step gives the same
// bits on every CPU, compiler, operating system and standard library: libm's functions are
// accurate but not the same everywhere. Each is a fixed sequence of IEEE operations
// (+ - * /, comparisons, exact conversions and integer arithmetic), built without fused
// multiply-add contraction. kernels/lane_sincos.hpp and lane_atan2.hpp run the very same
// sequences on W lanes (the polynomials below are theirs too).
//
// Largest errors against a double-precision reference, which tests/cpp/test_real_math.cpp
// asserts over dense grids and random draws:
//   sin, cos          1e-7 absolute for every finite float angle: up to 8192 rad the angle
//                     is reduced by pi / 2 in float (Cody-Waite, exact products); beyond, it
//                     is reduced exactly, with 2 / pi to 256 bits in integer arithmetic
//   sincos_of_double  1e-7 absolute for |angle| <= 1e9 (reduced by pi / 2 in double)
//   atan2             2.8e-7 rad (about 3 units in the last place near pi)
//   exp               1.5 units in the last place for normal results, 3 subnormal units below
#pragma once

#include <cstdint>

#include "contextsteer/base/real.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define CONTEXTSTEER_MATH_INLINE inline __attribute__((always_inline))
#else
#define CONTEXTSTEER_MATH_INLINE inline
#endif

namespace contextsteer {
namespace math {

// sin and cos of x radians; the same numbers as lane_sincos on one lane for finite x,
// NaN for NaN and +-inf.
void sincos(Real x, Real& sine, Real& cosine);
Real sin(Real x);
Real cos(Real x);

// sin and cos of an angle given in double precision, rounded once to float: slot
// directions, whose angles are fractions of a turn plus an offset. |angle| <= 1e9.
void sincos_of_double(double angle, Real& sine, Real& cosine);

// The angle of (x, y) in [-pi, pi], radians; the same numbers as lane_atan2 on one lane
// for (x, y) != (0, 0). At the origin, as IEEE's atan2: +-0 for x = +0, +-pi for x = -0.
Real atan2(Real y, Real x);

// e^x; 0 below -103.97, inf above 88.72, NaN for NaN.
Real exp(Real x);

namespace detail {

// sin and cos on |x| beyond 8192 rad, NaN for NaN and +-inf (lane_sincos's own lanes beyond
// 8192 rad come here too).
void sincos_large(Real x, Real& sine, Real& cosine);

// sincos's reduction: the quadrant k = round(x * 2 / pi) (adding and taking away 1.5 * 2^23
// rounds to an integer) and r = x - k pi / 2 with pi / 2 in three parts, k * kA and k * kB
// exact for |k| < 2^13 (|x| <= 8192).
constexpr Real kLargeAngle = 8192;
constexpr Real kTwoOverPi = Real(0.636619772367581343);
constexpr Real kRound = Real(12582912);
constexpr Real kA = Real(1.5703125);
constexpr Real kB = Real(4.837512969970703125e-4);
constexpr Real kC = Real(7.54978995489188216e-8);

template <class V>
CONTEXTSTEER_MATH_INLINE V quadrant_round(V x) {
  return (x * kTwoOverPi + kRound) - kRound;
}
template <class V>
CONTEXTSTEER_MATH_INLINE V reduce_by_quadrants(V x, V k) {
  return ((x - k * kA) - k * kB) - k * kC;
}
// Minimax polynomials for sin and cos on |r| <= pi / 4 (Cephes' sinf and cosf), z = r * r.
template <class V>
CONTEXTSTEER_MATH_INLINE V sin_polynomial(V r, V z) {
  return r + r * z * ((Real(-1.9515295891e-4) * z + Real(8.3321608736e-3)) * z + Real(-1.6666654611e-1));
}
template <class V>
CONTEXTSTEER_MATH_INLINE V cos_polynomial(V z) {
  return (Real(1) - Real(0.5) * z) +
         z * z * ((Real(2.443315711809948e-5) * z + Real(-1.388731625493765e-3)) * z + Real(4.166664568298827e-2));
}

// atan on |s| <= tan(pi / 8): s + s^3 Q(s^2), Q fitted for least maximum relative error.
constexpr Real kTanEighthPi = Real(0.414213562373095);
constexpr Real kQuarterPi = Real(0.785398163397448);
constexpr Real kHalfPi = Real(1.570796326794897);
template <class V>
CONTEXTSTEER_MATH_INLINE V atan_polynomial(V s) {
  const V z = s * s;
  const V q = ((Real(0.08324013650417328) * z + Real(-0.1396237313747406)) * z + Real(0.19985683262348175)) * z +
              Real(-0.3333316147327423);
  return s + s * z * q;
}

// (sin, cos) of r + q pi / 2 from s = sin r, c = cos r: (s, c), (c, -s), (-s, -c), (-c, s).
CONTEXTSTEER_MATH_INLINE void unfold_quadrant(std::uint32_t q, Real s, Real c, Real& sine, Real& cosine) {
  const Real sin_part = (q & 1) ? c : s, cos_part = (q & 1) ? s : c;
  sine = (q & 2) ? -sin_part : sin_part;
  cosine = ((q + 1) & 2) ? -cos_part : cos_part;
}

}  // namespace detail

inline void sincos(Real x, Real& sine, Real& cosine) {
  using namespace detail;
  if (!((x < 0 ? -x : x) <= kLargeAngle)) return sincos_large(x, sine, cosine);  // NaN too
  const Real k = quadrant_round(x);
  const Real r = reduce_by_quadrants(x, k);
  const Real z = r * r;
  unfold_quadrant(static_cast<std::uint32_t>(static_cast<std::int32_t>(k)), sin_polynomial(r, z), cos_polynomial(z),
                  sine, cosine);
}

inline Real sin(Real x) {
  Real s, c;
  sincos(x, s, c);
  return s;
}

inline Real cos(Real x) {
  Real s, c;
  sincos(x, s, c);
  return c;
}

inline Real atan2(Real y, Real x) {
  using namespace detail;
  if (x == 0 && y == 0) {
    const Real angle = std::signbit(x) ? kPi : Real(0);
    return std::signbit(y) ? -angle : angle;
  }
  const Real ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
  // Fold into the first octant (small / large in [0, 1]), then below tan(pi / 8):
  // atan(a) = pi / 4 + atan((a - 1) / (a + 1)).
  const bool steep = ay > ax;
  const Real small = steep ? ax : ay, large = steep ? ay : ax;
  const bool upper = small > kTanEighthPi * large;
  Real angle = atan_polynomial((upper ? small - large : small) / (upper ? small + large : large));
  if (upper) angle = kQuarterPi + angle;
  if (steep) angle = kHalfPi - angle;
  if (x < 0) angle = kPi - angle;
  return y < 0 ? -angle : angle;
}

}  // namespace math
}  // namespace contextsteer
