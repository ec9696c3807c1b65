// atan2 for W lanes at once, or for one Real with the very same operations as math::atan2
// (base/real_math.hpp, which documents its error).
//
// libm's atan2f is a call per value, which a vector kernel cannot make. This one reduces
// (x, y) to an angle s in [-tan(pi/8), tan(pi/8)] (one division), evaluates
// atan(s) = s + s^3 Q(s^2) (math::detail::atan_polynomial) and unfolds the octant.
#pragma once

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/real_math.hpp"
#include "contextsteer/kernels/simd.hpp"

namespace contextsteer {

// The angle of (x, y) in [-pi, pi], radians; pi (not -pi) for y = -0, x < 0. Undefined
// for x = y = 0 (the lanes of such vectors are NaN), so callers select those out.
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V lane_atan2(V y, V x) {
  using namespace math::detail;
  const V ax = select(x < Real(0), -x, x);
  const V ay = select(y < Real(0), -y, y);
  // Fold into the first octant: a = small / large in [0, 1].
  const auto steep = ay > ax;
  const V small = select(steep, ax, ay);
  const V large = select(steep, ay, ax);
  // Above tan(pi/8), atan(a) = pi/4 + atan((a - 1) / (a + 1)), so |s| <= tan(pi/8).
  const auto upper = small > kTanEighthPi * large;
  const V s = select(upper, small - large, small) / select(upper, small + large, large);
  V angle = atan_polynomial(s);
  angle = select(upper, kQuarterPi + angle, angle);
  angle = select(steep, kHalfPi - angle, angle);
  angle = select(x < Real(0), kPi - angle, angle);
  return select(y < Real(0), -angle, angle);
}

}  // namespace contextsteer
