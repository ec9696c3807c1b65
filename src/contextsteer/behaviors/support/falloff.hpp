// How a behaviour's strength fades with distance.
//
// x = distance / max_distance in [0, 1] (0 when max_distance is infinite):
//   Step:          1
//   Linear:        1 - x
//   Smoothstep:    1 - (3x^2 - 2x^3)
//   InverseSquare: 1 / (1 + 16 x^2)   (1/17 at the edge)
//   Exponential:   exp(-4x)           (about 0.018 at the edge)
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/real_math.hpp"
#include "contextsteer/behaviors/support/parameters.hpp"

namespace contextsteer {

enum class Falloff { Step, Linear, Smoothstep, InverseSquare, Exponential };

Falloff parse_falloff(const std::string& name, const char* argument);

template <>
struct Names<Falloff> {
  static constexpr NamedValue<Falloff> values[] = {{"step", Falloff::Step},
                                                   {"linear", Falloff::Linear},
                                                   {"smoothstep", Falloff::Smoothstep},
                                                   {"inverse_square", Falloff::InverseSquare},
                                                   {"exponential", Falloff::Exponential}};
};

inline Real falloff_value(Falloff curve, Real distance, Real max_distance) {
  const Real x = std::isinf(max_distance) ? Real(0) : std::clamp(distance / max_distance, Real(0), Real(1));
  switch (curve) {
    case Falloff::Step:
      return 1;
    case Falloff::Linear:
      return 1 - x;
    case Falloff::Smoothstep:
      return 1 - x * x * (3 - 2 * x);
    case Falloff::InverseSquare:
      return 1 / (1 + 16 * x * x);
    case Falloff::Exponential:
      return math::exp(-4 * x);
  }
  return 1;
}

}  // namespace contextsteer
