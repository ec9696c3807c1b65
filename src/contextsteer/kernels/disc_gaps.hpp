// The least gap between a disc and a list of discs, four discs at a time.
#pragma once

#include <cstddef>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/kernels/simd.hpp"

namespace contextsteer {

// The least d^2 - reach^2 over the discs (xs[i], ys[i]) of radius rs[i], i < count, with d
// the distance from p (metres) and reach = rs[i] + r: below 0 exactly where the disc of
// radius r at p meets one. count % 4 == 0 (pad with discs far away); kInfinity for none.
CONTEXTSTEER_ALWAYS_INLINE Real least_gap(const Real* xs, const Real* ys, const Real* rs, std::size_t count, Vec2 p,
                                          Real r) {
#ifdef CONTEXTSTEER_SIMD
  Real4 lane_least = splat<Real4>(kInfinity);
  for (std::size_t i = 0; i < count; i += 4) {
    const Real4 dx = load_lanes<Real4>(xs + i) - splat<Real4>(p.x);
    const Real4 dy = load_lanes<Real4>(ys + i) - splat<Real4>(p.y);
    const Real4 reach = load_lanes<Real4>(rs + i) + splat<Real4>(r);
    const Real4 gap = dx * dx + dy * dy - reach * reach;
    lane_least = gap < lane_least ? gap : lane_least;
  }
  Real least = kInfinity;
  for (int lane = 0; lane < 4; ++lane) least = lane_least[lane] < least ? lane_least[lane] : least;
  return least;
#else
  Real least = kInfinity;
  for (std::size_t i = 0; i < count; ++i) {
    const Real dx = xs[i] - p.x, dy = ys[i] - p.y, reach = rs[i] + r;
    const Real gap = dx * dx + dy * dy - reach * reach;
    least = gap < least ? gap : least;
  }
  return least;
#endif
}

}  // namespace contextsteer
