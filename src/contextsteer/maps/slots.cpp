#include "contextsteer/maps/slots.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "contextsteer/base/parameter_checks.hpp"

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
  half_cos_ = static_cast<Real>(std::cos(3.14159265358979323846 / slots));
  half_sin_ = static_cast<Real>(std::sin(3.14159265358979323846 / slots));
  x_.resize(slots);
  y_.resize(slots);
  edge_x_.resize(slots);
  edge_y_.resize(slots);
  for (int i = 0; i < slots; ++i) {
    // Angles in double so that slot i of a fine map matches slot 2i of a coarser one to the last bit.
    const double angle = static_cast<double>(offset) + 2.0 * 3.14159265358979323846 * i / slots;
    x_[i] = static_cast<Real>(std::cos(angle));
    y_[i] = static_cast<Real>(std::sin(angle));
    const double edge = angle - 3.14159265358979323846 / slots;
    edge_x_[i] = static_cast<Real>(std::cos(edge));
    edge_y_[i] = static_cast<Real>(std::sin(edge));
  }
}

Vec2 SlotDirections::direction_at(Real fractional_slot) const {
  const double angle = static_cast<double>(offset_) + static_cast<double>(spacing_) * fractional_slot;
  return {static_cast<Real>(std::cos(angle)), static_cast<Real>(std::sin(angle))};
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
