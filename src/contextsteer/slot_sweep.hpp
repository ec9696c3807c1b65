// The inner loops over a row of slots, written once with 4-wide vectors.
//
// A context map row is short (16 slots is typical), so a compiler's own vectorised loop
// spends as much on alias checks, peeling and remainders as on the work. These helpers
// run explicit 4-float vectors (simd.hpp: SSE2 on x86-64, NEON on ARM) when the slot
// count is a multiple of 4, and plain loops otherwise.
#pragma once

#include <algorithm>

#include "real.hpp"
#include "simd.hpp"

namespace contextsteer {

// row[i] = max(row[i], w) for every slot i whose direction (dx[i], dy[i]) has
// dot((ux, uy), d_i) >= limit.
inline void max_where_covered(Real* row, const Real* dx, const Real* dy, int slots, Real ux, Real uy, Real limit,
                              Real w) {
#ifdef CONTEXTSTEER_SIMD
  if (slots % 4 == 0) {
    const Real4 vux = splat<Real4>(ux), vuy = splat<Real4>(uy), vlimit = splat<Real4>(limit), vw = splat<Real4>(w), zero = splat<Real4>(Real(0));
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

// row[i] = max(row[i], max(0, ux * dx[i] + uy * dy[i])) (Max) or += that (Sum).
inline void cosine_lobe(Real* row, const Real* dx, const Real* dy, int slots, Real ux, Real uy, bool sum) {
#ifdef CONTEXTSTEER_SIMD
  if (slots % 4 == 0) {
    const Real4 vux = splat<Real4>(ux), vuy = splat<Real4>(uy), zero = splat<Real4>(Real(0));
    for (int i = 0; i < slots; i += 4) {
      Real4 c = vux * load_lanes<Real4>(dx + i) + vuy * load_lanes<Real4>(dy + i);
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
    const Real c = ux * dx[i] + uy * dy[i];
    row[i] = sum ? row[i] + std::max(Real(0), c) : std::max(row[i], c);
  }
}

}  // namespace contextsteer
