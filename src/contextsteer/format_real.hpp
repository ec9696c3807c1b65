// Numbers in error messages, written as Python would print them.
#pragma once

#include <cstdio>
#include <string>

namespace contextsteer {

// Nine significant digits, enough to tell any two floats apart: 1e-30 is "1e-30" and 3e38
// is "3e+38", where std::to_string writes "0.000000" and a 39-digit number.
inline std::string format_real(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

}  // namespace contextsteer
