#include "contextsteer/maps/slots.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/base/real_math.hpp"

namespace contextsteer {

void check_slot_count(int slots, const char* argument) {
  if (slots < 1 || slots > kMaxSlots) {
    throw std::invalid_argument(std::string(argument) + ": expected a slot count from 1 to " +
                                std::to_string(kMaxSlots) + ", got " + std::to_string(slots));
  }
}

SlotDirections::SlotDirections(int slots, Real offset) : offset_(offset) {
  check_slot_count(slots, "slots");
  require_bounded(offset, "offset", "an angle", " in radians");
  spacing_ = kTwoPi / static_cast<Real>(slots);
  math::sincos_of_double(3.14159265358979323846 / slots, half_sin_, half_cos_);
  x_.resize(slots);
  y_.resize(slots);
  edge_x_.resize(slots);
  edge_y_.resize(slots);
  for (int i = 0; i < slots; ++i) {
    // Angles in double so that slot i of a fine map matches slot 2i of a coarser one to the last bit.
    const double angle = static_cast<double>(offset) + 2.0 * 3.14159265358979323846 * i / slots;
    math::sincos_of_double(angle, y_[i], x_[i]);
    math::sincos_of_double(angle - 3.14159265358979323846 / slots, edge_y_[i], edge_x_[i]);
  }
}

Vec2 SlotDirections::direction_at(Real fractional_slot) const {
  const double angle = static_cast<double>(offset_) + static_cast<double>(spacing_) * fractional_slot;
  Vec2 d;
  math::sincos_of_double(angle, d.y, d.x);
  return d;
}

Real SlotDirections::slot_of_angle(Real angle) const {
  double s = (static_cast<double>(angle) - offset_) / spacing_;
  const double n = static_cast<double>(slots());
  s = std::fmod(s, n);
  if (s < 0) s += n;
  if (s >= n) s = 0;  // fmod of a value just under n can round up to n in float
  return static_cast<Real>(s);
}

void slot_directions(int slots, Real offset, Real* out) {
  const SlotDirections dirs(slots, offset);
  for (int i = 0; i < slots; ++i) {
    out[2 * i] = dirs.x()[i];
    out[2 * i + 1] = dirs.y()[i];
  }
}

}  // namespace contextsteer
