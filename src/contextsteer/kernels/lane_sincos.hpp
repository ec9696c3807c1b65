// sin and cos for W lanes at once, or for one Real with the very same operations as
// math::sincos (base/real_math.hpp, which documents the method and its error).
//
// libm's sinf and cosf are a call per value, which a vector kernel cannot make; for
// behaviours that turn a heading into a direction (Forward, Wander) such calls would be most
// of their time. Lanes beyond 8192 rad take math::sincos's exact reduction one at a time.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/real_math.hpp"
#include "contextsteer/kernels/simd.hpp"

namespace contextsteer {

namespace sincos_detail {

using math::detail::kLargeAngle;

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

// Lanes beyond kLargeAngle radians (users may write such headings) take math's exact
// reduction; the polynomial saw 0 in their place.
CONTEXTSTEER_ALWAYS_INLINE bool large(Real x) { return (x < Real(0) ? -x : x) > kLargeAngle; }
CONTEXTSTEER_ALWAYS_INLINE Real within_range(Real x) { return large(x) ? Real(0) : x; }
CONTEXTSTEER_ALWAYS_INLINE void fix_large(Real x, Real& sine, Real& cosine) {
  if (large(x)) math::detail::sincos_large(x, sine, cosine);
}
#ifdef CONTEXTSTEER_SIMD
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V within_range(V x) {
  return select(select(x < Real(0), -x, x) > kLargeAngle, V{}, x);
}
template <class V>
CONTEXTSTEER_ALWAYS_INLINE void fix_large(V x, V& sine, V& cosine) {
  if (!mask_bits(select(x < Real(0), -x, x) > kLargeAngle)) return;
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
  using namespace math::detail;
  const V y = within_range(x);
  const V k = quadrant_round(y);
  const V r = reduce_by_quadrants(y, k);
  const V z = r * r;
  const V s = sin_polynomial(r, z);
  const V c = cos_polynomial(z);
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
