#include "contextsteer/behaviors/support/parameters.hpp"

#include <cmath>
#include <string>

namespace contextsteer {

namespace {

// What a number measured in `unit` is called, and how its unit is written.
void words_of(const std::string& unit, const char*& quantity, const char*& written) {
  quantity = "a number", written = "";
  if (unit == "m") quantity = "a distance", written = " in metres";
  if (unit == "s") quantity = "a time", written = " in seconds";
  if (unit == "rad") quantity = "an angle", written = " in radians";
  if (unit == "Hz") quantity = "a rate", written = " per second";
}

}  // namespace

void check_number(const char* name, Real value, const Accepts& b, const char* unit) {
  const bool inside = (b.low_open ? value > b.low : value >= b.low) && (b.high_open ? value < b.high : value <= b.high);
  if (inside || (b.infinite && value == kInfinity) || (b.absent && std::isnan(value))) return;
  const char* quantity;
  const char* written;
  words_of(unit, quantity, written);
  std::string range;
  if (b.low == -kMaxMagnitude && b.high == kMaxMagnitude) {
    range = " within -1e9 to 1e9";
  } else if (b.high == kMaxMagnitude && !b.high_open) {
    range = (b.low_open ? " > " : " from ") + format_real(b.low) + (b.low_open ? " and at most 1e9" : " to 1e9");
  } else {
    range = std::string(b.low_open ? " above " : " from ") + format_real(b.low) +
            (b.high_open ? " to below " : " to ") + format_real(b.high);
  }
  throw std::invalid_argument(std::string(name) + ": expected " + quantity + range + written + ", got " +
                              format_real(value));
}

void check_count(const char* name, long long value, const Accepts& b, const char* unit) {
  const auto low = static_cast<long long>(b.low), high = static_cast<long long>(b.high);
  if (value >= low && value <= high) return;
  throw std::invalid_argument(std::string(name) + ": expected from " + std::to_string(low) + " to " +
                              std::to_string(high) + (*unit ? " " : "") + unit + ", got " + std::to_string(value));
}

}  // namespace contextsteer
