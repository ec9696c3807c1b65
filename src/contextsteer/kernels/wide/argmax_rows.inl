// resolve_rows for Argmax without hysteresis, with danger (maps/resolve.hpp), W slots at a
// time: each agent's final map, its largest value and the first slot holding it, the
// numbers resolve_row gives. Needs slots % W == 0 and slots <= 64. Included by
// kernels/<set>/argmax_rows.cpp (dispatch.hpp).
#ifndef CONTEXTSTEER_KERNEL_SET_CHOSEN
#error "a wide kernel is included by kernels/<set>/<name>.cpp, after the set's target.hpp"
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/maps/final_map.hpp"
#include "contextsteer/maps/resolve.hpp"
#include "contextsteer/maps/slots.hpp"

#ifdef CONTEXTSTEER_KERNEL_SET

namespace contextsteer {

namespace {

template <int W>
CONTEXTSTEER_ALWAYS_INLINE void argmax_rows_lanes(const Real* interest, const Real* danger, int count,
                                                  const SlotDirections& dirs, const ResolveParams& p, Real* final_rows,
                                                  Decision* decisions) {
  using V = typename Lanes<W>::Reals;
  const int slots = dirs.slots();
  for (int k = 0; k < count; ++k) {
    const std::size_t row = static_cast<std::size_t>(k) * slots;
    const Real limit = mask_limit(p, danger + row, slots);
    Real* final_row = final_rows + row;
    V largest{};  // final values are >= 0
    for (int i = 0; i < slots; i += W) {
      const V f = masked(p.danger_mode, limit, load_lanes<V>(interest + row + i), load_lanes<V>(danger + row + i));
      store_lanes(final_row + i, f);
      largest = lane_max(largest, f);
    }
    const Real best = largest_lane(largest);
    Decision d;
    if (best > 0) {
      std::uint64_t where = 0;
      for (int i = 0; i < slots; i += W) {
        where |= static_cast<std::uint64_t>(mask_bits(load_lanes<V>(final_row + i) == best)) << i;
      }
      const int slot = __builtin_ctzll(where);
      d.blocked = false;
      d.slot = static_cast<Real>(slot);
      d.direction = dirs[slot];
      d.strength = std::min(best, Real(1));
    }
    decisions[k] = d;
  }
}

}  // namespace

namespace CONTEXTSTEER_KERNEL_SET {
CONTEXTSTEER_KERNEL_TARGET void argmax_rows(const Real* interest, const Real* danger, int count,
                                            const SlotDirections& dirs, const ResolveParams& params, Real* final_rows,
                                            Decision* decisions) {
  argmax_rows_lanes<kLanes>(interest, danger, count, dirs, params, final_rows, decisions);
}
}  // namespace CONTEXTSTEER_KERNEL_SET

}  // namespace contextsteer

#endif
