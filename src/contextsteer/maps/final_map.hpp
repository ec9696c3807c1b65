// The final map's values: interest masked by danger, per danger mode, for one slot
// (V = Real) or for the W slots in the lanes of a vector (kernels/simd.hpp), with the
// same operations for every width. resolve.cpp and the vector kernel
// (kernels/wide/argmax_rows.inl) are both written with it.
#pragma once

#include <algorithm>

#include "contextsteer/base/real.hpp"
#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/maps/resolve.hpp"

namespace contextsteer {

// The final value of a slot of interest `in` and danger `dn`. `limit` is Threshold's
// threshold or MinMask's least danger plus margin (mask_limit).
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V masked(DangerMode mode, Real limit, V in, V dn) {
  switch (mode) {
    case DangerMode::Subtract:
      return lane_max(in - dn, V{});
    case DangerMode::Threshold:
    case DangerMode::MinMask:
      return select(dn <= limit, lane_max(in, V{}), V{});
    case DangerMode::Multiply:
      break;
  }
  const V clamped = select(dn < Real(0), V{}, select(Real(1) < dn, splat<V>(Real(1)), dn));  // std::clamp(dn, 0, 1)
  return lane_max(in, V{}) * (Real(1) - clamped);
}

// The `limit` masked() takes for one agent's danger row.
inline Real mask_limit(const ResolveParams& p, const Real* danger, int slots) {
  if (p.danger_mode == DangerMode::Threshold) return p.threshold;
  if (p.danger_mode == DangerMode::MinMask) return *std::min_element(danger, danger + slots) + p.margin;
  return 0;
}

}  // namespace contextsteer
