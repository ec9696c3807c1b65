// The cells of a box's corners in a grid of cells: the first step of every neighbor query
// (scene/spatial_grid.hpp), four coordinates at once.
#pragma once

#include "contextsteer/base/real.hpp"
#include "contextsteer/kernels/simd.hpp"

namespace contextsteer {

struct CellSpan {
  int x0, x1, y0, y1;
};

// For the coordinates (x_lo, x_hi, y_lo, y_hi) in metres, with origin, inverse cell size
// and last cell given per coordinate (each 4 Reals, in that order, 16-byte aligned): the
// cell (c - origin) * inverse, below 0 (and NaN) taken to 0 and beyond `last` to `last`,
// truncated. One conversion and no branch where vectors are available; the same numbers
// one coordinate at a time elsewhere.
CONTEXTSTEER_ALWAYS_INLINE CellSpan cell_span_of(const Real* origin, const Real* inverse, const Real* last, Real x_lo,
                                                 Real x_hi, Real y_lo, Real y_hi) {
#ifdef CONTEXTSTEER_SIMD
  const Real4 top = load_lanes<Real4>(last);
  Real4 c = (Real4{x_lo, x_hi, y_lo, y_hi} - load_lanes<Real4>(origin)) * load_lanes<Real4>(inverse);
  c = lane_max(c, Real4{});                            // below 0, and NaN, to 0
  c = select(c < top, c, top);                         // from n - 1 up (and infinity) to n - 1
  const Int4 cell = __builtin_convertvector(c, Int4);  // truncation: the floor for c >= 0
  return {cell[0], cell[1], cell[2], cell[3]};
#else
  const Real in[4] = {x_lo, x_hi, y_lo, y_hi};
  int cell[4];
  for (int i = 0; i < 4; ++i) {
    Real c = (in[i] - origin[i]) * inverse[i];
    c = lane_max(c, Real(0));
    c = c < last[i] ? c : last[i];
    cell[i] = static_cast<int>(c);
  }
  return {cell[0], cell[1], cell[2], cell[3]};
#endif
}

}  // namespace contextsteer
