#include "contextsteer/base/parameter_checks.hpp"

#include <stdexcept>
#include <string>

#include "contextsteer/base/format_real.hpp"

namespace contextsteer {

namespace {
[[noreturn]] void refuse(Real value, const char* argument, const char* quantity, const char* range, const char* unit) {
  throw std::invalid_argument(std::string(argument) + ": expected " + quantity + range + unit + ", got " +
                              format_real(value));
}
}  // namespace

void require_positive(Real value, const char* argument, const char* quantity, const char* unit) {
  if (!(value > 0) || !within_bound(value)) refuse(value, argument, quantity, " > 0 and at most 1e9", unit);
}

void require_nonnegative(Real value, const char* argument, const char* quantity, const char* unit) {
  if (!(value >= 0) || !within_bound(value)) refuse(value, argument, quantity, " from 0 to 1e9", unit);
}

void require_bounded(Real value, const char* argument, const char* quantity, const char* unit) {
  if (!within_bound(value)) refuse(value, argument, quantity, " within -1e9 to 1e9", unit);
}

}  // namespace contextsteer
