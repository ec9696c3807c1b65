// The inner loops over a row of slots, written once with 4-wide vectors.
//
// A context map row is short (16 slots is typical), so a compiler's own vectorised loop
// spends as much on alias checks, peeling and remainders as on the work. These helpers
// run explicit 4-float vectors (simd.hpp: SSE2 on x86-64, NEON on ARM) when the slot
// count is a multiple of 4, and plain loops otherwise.
#pragma once

#include <algorithm>
#include <cstdint>

#include "contextsteer/base/real.hpp"
#include "contextsteer/kernels/simd.hpp"

namespace contextsteer {

// row[i] = max(row[i], w) for every slot i whose direction (dx[i], dy[i]) has
// dot((ux, uy), d_i) >= limit.
inline void max_where_covered(Real* row, const Real* dx, const Real* dy, int slots, Real ux, Real uy, Real limit,
                              Real w) {
#ifdef CONTEXTSTEER_SIMD
  if (slots % 4 == 0) {
    const Real4 vux = splat<Real4>(ux), vuy = splat<Real4>(uy), vlimit = splat<Real4>(limit), vw = splat<Real4>(w),
                zero = splat<Real4>(Real(0));
    for (int i = 0; i < slots; i += 4) {
      const Real4 covered = vux * load_lanes<Real4>(dx + i) + vuy * load_lanes<Real4>(dy + i) >= vlimit ? vw : zero;
      const Real4 old = load_lanes<Real4>(row + i);
      store_lanes(row + i, old > covered ? old : covered);
    }
    return;
  }
#endif
  for (int i = 0; i < slots; ++i) row[i] = std::max(row[i], ux * dx[i] + uy * dy[i] >= limit ? w : Real(0));
}

// With c_i = ux * dx[i] + uy * dy[i] + bias: row[i] = max(row[i], c_i) (Max, over rows
// >= 0, so max(0, c_i) is implied) or row[i] += max(0, c_i) (Sum).
inline void cosine_lobe(Real* row, const Real* dx, const Real* dy, int slots, Real ux, Real uy, Real bias, bool sum) {
#ifdef CONTEXTSTEER_SIMD
  if (slots % 4 == 0) {
    const Real4 vux = splat<Real4>(ux), vuy = splat<Real4>(uy), vbias = splat<Real4>(bias),
                zero = splat<Real4>(Real(0));
    for (int i = 0; i < slots; i += 4) {
      Real4 c = vux * load_lanes<Real4>(dx + i) + vuy * load_lanes<Real4>(dy + i) + vbias;
      const Real4 old = load_lanes<Real4>(row + i);
      if (sum) {
        store_lanes(row + i, old + (c > zero ? c : zero));
      } else {
        store_lanes(row + i, old > c ? old : c);
      }
    }
    return;
  }
#endif
  for (int i = 0; i < slots; ++i) {
    const Real c = ux * dx[i] + uy * dy[i] + bias;
    row[i] = sum ? row[i] + std::max(Real(0), c) : std::max(row[i], c);
  }
}

// The index of the first largest value of row, as std::max_element gives it, without a
// branch per slot (which a noisy map mispredicts): the max over 4-wide chunks, then the
// lowest lane equal to it.
inline int first_max_index(const Real* row, int slots) {
#ifdef CONTEXTSTEER_SIMD
  if (slots % 4 == 0 && slots <= 64) {
    Real4 m = load_lanes<Real4>(row);
    for (int i = 4; i < slots; i += 4) m = lane_max(m, load_lanes<Real4>(row + i));
    const Real best = largest_lane(m);
    std::uint64_t where = 0;
    for (int i = 0; i < slots; i += 4) {
      where |= static_cast<std::uint64_t>(mask_bits(load_lanes<Real4>(row + i) == best)) << i;
    }
    if (where) return __builtin_ctzll(where);  // none only when the row holds NaN
  }
#endif
  return static_cast<int>(std::max_element(row, row + slots) - row);
}

// to[i] = f(a[i], b[i]) for every slot, f taking two Reals or two 4-lane vectors and
// giving the same numbers either way.
template <class F>
CONTEXTSTEER_ALWAYS_INLINE void combine_row(const Real* a, const Real* b, int slots, Real* to, F&& f) {
  int i = 0;
#ifdef CONTEXTSTEER_SIMD
  for (; i + 4 <= slots; i += 4) store_lanes(to + i, f(load_lanes<Real4>(a + i), load_lanes<Real4>(b + i)));
#endif
  for (; i < slots; ++i) to[i] = f(a[i], b[i]);
}

// to[i] = from[i] for every slot: a map row is too short to pay for a call to memmove.
inline void copy_row(const Real* from, Real* to, int slots) {
  int i = 0;
#ifdef CONTEXTSTEER_SIMD
  for (; i + 4 <= slots; i += 4) store_lanes(to + i, load_lanes<Real4>(from + i));
#endif
  for (; i < slots; ++i) to[i] = from[i];
}

// to[i] = max(to[i], from[i]) for every slot.
inline void max_row(const Real* from, Real* to, int slots) {
  int i = 0;
#ifdef CONTEXTSTEER_SIMD
  for (; i + 4 <= slots; i += 4) store_lanes(to + i, lane_max(load_lanes<Real4>(to + i), load_lanes<Real4>(from + i)));
#endif
  for (; i < slots; ++i) to[i] = lane_max(to[i], from[i]);
}

}  // namespace contextsteer
