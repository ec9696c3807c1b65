// Numbers in error messages: as short as they can be while reading back as the same float.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>

#include "contextsteer/base/real.hpp"

namespace contextsteer {

// The fewest significant digits that read back as the same float, in fixed notation from
// 1e-4 up to 1e7 and in scientific notation beyond: 50 is "50", 0.1f is "0.1", 1e-30 is
// "1e-30" and 3e38 is "3e+38", where std::to_string writes "0.000000" and a 39-digit
// number (and "%.1g" would write 50 as "5e+01").
inline std::string format_real(Real value) {
  char text[48];
  if (!std::isfinite(value)) {
    std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
    return text;
  }
  int digits = 1;
  for (;; ++digits) {
    std::snprintf(text, sizeof text, "%.*e", digits - 1, static_cast<double>(value));
    if (digits == 9 || std::strtof(text, nullptr) == value) break;  // 9 always reads back
  }
  const int exponent = std::atoi(std::strchr(text, 'e') + 1);
  if (exponent >= -4 && exponent < 7) {
    std::snprintf(text, sizeof text, "%.*f", std::max(0, digits - 1 - exponent), static_cast<double>(value));
  }
  return text;
}

// Numbers as a tuple, "(1, 2.5)", for the points, circles and boxes of error messages.
inline std::string format_reals(std::initializer_list<Real> values) {
  std::string text = "(";
  for (const Real v : values) text += (text.size() > 1 ? ", " : "") + format_real(v);
  return text + ")";
}

}  // namespace contextsteer
