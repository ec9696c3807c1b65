// Checks of the scalar parameters that the core's constructors take, so that every one
// of them refuses a bad value alike: each throws std::invalid_argument naming the
// argument, what it expects and the value that came, e.g.
//   "max_distance: expected a distance > 0 and at most 1e9 in metres, got 0".
// `quantity` says what the number is ("a distance", "a time"), `unit` how it is measured
// (" in metres", or "" when it has none). NaN and infinities are refused by each check.
#pragma once

#include "contextsteer/base/real.hpp"

namespace contextsteer {

// value in (0, 1e9].
void require_positive(Real value, const char* argument, const char* quantity = "a number", const char* unit = "");
// value in [0, 1e9].
void require_nonnegative(Real value, const char* argument, const char* quantity = "a number", const char* unit = "");
// value in [-1e9, 1e9].
void require_bounded(Real value, const char* argument, const char* quantity = "a number", const char* unit = "");

}  // namespace contextsteer
