// Danger for a disc seen from an agent, over every slot whose arc it overlaps.
//
// A disc at offset `to` from the agent, reaching `reach` metres from its centre (its own
// radius plus the agent's), subtends the half-angle alpha = asin(min(1, reach / |to|))
// (pi/2 once the agent touches it). Slot i gets max(row[i], w) when its arc
// [phi_i - h, phi_i + h] (h = half the slot spacing) overlaps [beta - alpha, beta +
// alpha], beta the bearing of `to`: the whole arc is tested, not the slot's centre, so a
// coarse map never misses a disc. Rows and w must be >= 0.
#pragma once

#include <algorithm>
#include <cmath>

#include "../slot_sweep.hpp"
#include "../slots.hpp"

namespace contextsteer {

inline void add_disc_danger(const SlotDirections& dirs, Vec2 to, Real reach, Real w, Real* row) {
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
  // The tiny tolerance keeps a disc that exactly touches an arc's edge on both sides.
  max_where_covered(row, dirs.x(), dirs.y(), slots, to.x * inv_d, to.y * inv_d, min_cos - Real(1e-6), w);
}

}  // namespace contextsteer
