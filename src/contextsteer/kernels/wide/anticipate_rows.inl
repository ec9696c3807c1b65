// Anticipate's danger (behaviors/anticipate.hpp) of a row of slots from each of some discs,
// W slots at a time: anticipated_danger(disc, d) (anticipate.cpp, the reference) mirrored
// lane by lane, operation by operation, along the unit directions (xs[i], ys[i]) of the row
// (its slots, or their arcs' edges). Needs slots % W == 0 and no quiet disc.
// Included by kernels/<set>/anticipate_rows.cpp (dispatch.hpp).
#ifndef CONTEXTSTEER_KERNEL_SET_CHOSEN
#error "a wide kernel is included by kernels/<set>/<name>.cpp, after the set's target.hpp"
#endif

#include "contextsteer/behaviors/anticipate.hpp"
#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/maps/slots.hpp"

#ifdef CONTEXTSTEER_KERNEL_SET

namespace contextsteer {

namespace {

// std::min(Real(1), x) and std::max(Real(0), x) as the reference takes them.
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V at_most_1(V x) {
  return x < Real(1) ? x : splat<V>(1);
}

// Lanes sorted pairwise, as compare-and-swap: (a, b) becomes (min, max).
template <class V>
CONTEXTSTEER_ALWAYS_INLINE void order(V& a, V& b) {
  const auto swap = b < a;
  const V low = swap ? b : a;
  b = swap ? a : b;
  a = low;
}

// touches(w0 + d * past, p, reach, horizon) for each lane's d and past.
template <class V>
CONTEXTSTEER_ALWAYS_INLINE auto touches_after(const AnticipatedDisc& disc, V dx, V dy, V s) {
  const V past = s + Real(1e-4) * (Real(1) + s);
  const V wx = disc.w0.x + dx * past, wy = disc.w0.y + dy * past;
  const V w2 = wx * wx + wy * wy;
  const V along = (wx * disc.p.x + wy * disc.p.y) / w2;
  const V t = disc.horizon < along ? splat<V>(disc.horizon) : along;
  const V ex = wx * t - disc.p.x, ey = wy * t - disc.p.y;
  return (w2 > Real(0)) & (t > Real(0)) & (ex * ex + ey * ey < disc.reach * disc.reach);
}

template <int W>
CONTEXTSTEER_ALWAYS_INLINE void disc_lanes(const AnticipatedDisc& disc, const Real* xs, const Real* ys, Real* row) {
  using V = typename Lanes<W>::Reals;
  using M = typename Lanes<W>::Ints;
  const V dx = load_lanes<V>(xs), dy = load_lanes<V>(ys);
  const Real top = disc.top;
  V danger;
  if (disc.touching) {
    const V closing = dx * disc.p.x + dy * disc.p.y;
    const V head_on = at_most_1(kHeadOn * closing / disc.dist);
    const V kept = disc.v_dot_p / closing;
    const V speed = kept > Real(0) ? kept : V{};
    danger = select(closing <= Real(0), V{}, head_on * (Real(1) - at_most_1(speed / top)));
  } else {
    constexpr Real kNone = __builtin_huge_valf();
    const V b = disc.m.x * dx + disc.m.y * dy;
    const V discriminant = b * b - disc.cap;
    const M cap = discriminant >= Real(0);
    const V root = lane_sqrt(select(cap, discriminant, V{}));
    V c0 = select(cap, -b - root, splat<V>(kNone)), c1 = select(cap, -b + root, splat<V>(kNone));
    V c2, c3;
    {
      const V denom = dx * disc.legs[0].y - dy * disc.legs[0].x;
      const M crosses = (denom > Real(1e-12)) | (denom < Real(-1e-12));
      c2 = select(crosses, disc.leg_w0[0] / select(crosses, denom, splat<V>(1)), splat<V>(kNone));
    }
    {
      const V denom = dx * disc.legs[1].y - dy * disc.legs[1].x;
      const M crosses = (denom > Real(1e-12)) | (denom < Real(-1e-12));
      c3 = select(crosses, disc.leg_w0[1] / select(crosses, denom, splat<V>(1)), splat<V>(kNone));
    }
    order(c0, c1), order(c2, c3), order(c0, c2), order(c1, c3), order(c1, c2);
    const V crossings[4] = {c0, c1, c2, c3};
    M open = c0 == c0;  // every lane still undecided
    if (!disc.standing_touched) {
      danger = V{};
      for (const V c : crossings) {
        const M entered = open & (c < kNone) & (c >= Real(0));
        if (!mask_bits(entered)) continue;
        const M hit = entered & touches_after(disc, dx, dy, c);
        danger = select(hit, Real(1) - at_most_1(c / top), danger);
        open &= ~hit;
      }
    } else {
      danger = splat<V>(1);
      for (const V c : crossings) {
        const M leaving = open & (c < kNone) & (c > Real(0));
        if (!mask_bits(leaving)) continue;
        const M out = leaving & ~touches_after(disc, dx, dy, c);
        danger = select(out, select(c <= top, kEscapeRank * c / top, splat<V>(1)), danger);
        open &= ~out;
      }
    }
  }
  const V old = load_lanes<V>(row);
  store_lanes(row, lane_max(danger, old));
}

}  // namespace

namespace CONTEXTSTEER_KERNEL_SET {
CONTEXTSTEER_KERNEL_TARGET void anticipate_rows(const AnticipatedDisc* discs, int count, const Real* xs, const Real* ys,
                                                int slots, Real* row) {
  for (int k = 0; k < count; ++k) {
    for (int i = 0; i < slots; i += kLanes) disc_lanes<kLanes>(discs[k], xs + i, ys + i, row + i);
  }
}
}  // namespace CONTEXTSTEER_KERNEL_SET

}  // namespace contextsteer

#endif
