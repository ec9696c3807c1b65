// Danger for a disc seen from an agent, over every slot whose arc it overlaps.
//
// A disc at offset `to` from the agent, reaching `reach` metres from its centre (its own
// radius plus the agent's), subtends the half-angle alpha = asin(min(1, reach / |to|))
// (pi/2 once the agent touches it). Slot i gets max(row[i], w) when its arc
// [phi_i - h, phi_i + h] (h = half the slot spacing) overlaps [beta - alpha, beta +
// alpha], beta the bearing of `to`: the whole arc is tested, not the slot's centre, so a
// coarse map never misses a disc. But a slot at 90 degrees or more from the bearing is
// never covered: moving along it (or between two such slots) leads away from the disc or
// along its tangent and cannot bring the agent closer. This matters only where the arc
// reaches past 90 degrees by up to half a slot, for a disc within reach / cos(h) of the
// agent: within 2% of touching with 16 slots, 41% with 4. Covering those slots too would
// let two touching neighbors on opposite sides block every slot, and a pressed crowd
// would lock for good. Rows and w must be >= 0.
//
// `turn` (a unit vector: the cosine and sine of an angle) turns the bearing by that
// angle first, as Avoid's keep_right does for other agents; (1, 0) leaves it as it is.
#pragma once

#include <algorithm>
#include <cmath>

#include "contextsteer/kernels/slot_sweep.hpp"
#include "contextsteer/maps/slots.hpp"

namespace contextsteer {

// The least dot product of a covered slot's direction with the bearing: slots at 90
// degrees or more (dot <= 0, give or take rounding) are never covered.
constexpr Real kLeadsAwayDot = Real(1e-4);

// The coverage limit of a disc whose arc reaches min_cos (the cosine of alpha plus half a
// slot), for a Real or a vector of them: covered slots have a dot product with the
// bearing of at least this. The tiny tolerance keeps a disc that exactly touches an arc's
// edge on both sides.
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V coverage_limit(V min_cos) {
  return lane_max(min_cos - Real(1e-6), V{} + kLeadsAwayDot);
}

inline void add_disc_danger(const SlotDirections& dirs, Vec2 to, Real reach, Real w, Real* row, Vec2 turn = {1, 0}) {
  const int slots = dirs.slots();
  const Real d = length(to);
  if (d < Real(1e-6) || slots == 1) {  // no bearing, or one slot whose arc is the whole circle
    for (int i = 0; i < slots; ++i) row[i] = std::max(row[i], w);
    return;
  }
  // Covered when the angle between a slot's direction and the bearing is at most
  // alpha + h, i.e. dot(u, d_i) >= cos(alpha + h); alpha + h <= pi since alpha <= pi/2
  // and h <= pi/2 for two slots or more.
  const Real inv_d = 1 / d;
  const Real sin_alpha = std::min(Real(1), reach * inv_d);
  const Real cos_alpha = std::sqrt(1 - sin_alpha * sin_alpha);
  const Real min_cos = cos_alpha * dirs.half_spacing_cos() - sin_alpha * dirs.half_spacing_sin();
  const Real ux = to.x * inv_d, uy = to.y * inv_d;
  max_where_covered(row, dirs.x(), dirs.y(), slots, turn.x * ux - turn.y * uy, turn.y * ux + turn.x * uy,
                    coverage_limit(min_cos), w);
}

}  // namespace contextsteer
