// The directions of a context map's slots.
//
// Slot i of a map with S slots points at angle offset + 2*pi*i/S (radians,
// counter-clockwise from +x). The directions are computed once per resolution and
// shared by every agent that uses it.
#pragma once

#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"

namespace contextsteer {

class SlotDirections {
 public:
  // Throws std::invalid_argument unless 1 <= slots <= kMaxSlots and offset is finite.
  explicit SlotDirections(int slots, Real offset = 0);

  int slots() const { return static_cast<int>(x_.size()); }
  Real offset() const { return offset_; }
  // Angle between neighboring slots, radians.
  Real spacing() const { return spacing_; }
  // cos and sin of half the spacing, needed for every arc-coverage test.
  Real half_spacing_cos() const { return half_cos_; }
  Real half_spacing_sin() const { return half_sin_; }

  Vec2 operator[](int i) const { return {x_[i], y_[i]}; }
  const Real* x() const { return x_.data(); }
  const Real* y() const { return y_.data(); }

  // Unit vector of arc edge i, at fractional slot i - 0.5: slot i's arc runs from edge i
  // to edge i + 1 (mod slots).
  Vec2 edge(int i) const { return {edge_x_[i], edge_y_[i]}; }
  const Real* edge_x() const { return edge_x_.data(); }
  const Real* edge_y() const { return edge_y_.data(); }

  // Unit vector at a fractional slot index (e.g. 2.5 lies halfway between slots 2 and 3).
  Vec2 direction_at(Real fractional_slot) const;
  // Fractional slot index in [0, slots) of the direction `angle` (radians).
  Real slot_of_angle(Real angle) const;

 private:
  Real offset_;
  Real spacing_;
  Real half_cos_;
  Real half_sin_;
  std::vector<Real> x_;
  std::vector<Real> y_;
  std::vector<Real> edge_x_;
  std::vector<Real> edge_y_;
};

// Writes the (slots, 2) unit vectors of slot_directions into `out`.
void slot_directions(int slots, Real offset, Real* out);

// Throws std::invalid_argument naming `argument` unless 1 <= slots <= kMaxSlots.
void check_slot_count(int slots, const char* argument);

}  // namespace contextsteer
