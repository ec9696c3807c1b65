// Numbers in error messages, written as Python writes a float32.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "real.hpp"

namespace contextsteer {

// The fewest significant digits that read back as the same float: 1e-30 is "1e-30" and
// 3e38 is "3e+38", where std::to_string writes "0.000000" and a 39-digit number.
inline std::string format_real(Real value) {
  char text[32];
  for (int digits = 1; digits <= 9; ++digits) {  // 9 always reads back
    std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(value));
    if (std::strtof(text, nullptr) == value) break;
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
