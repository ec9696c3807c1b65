#include "contextsteer/behaviors/support/falloff.hpp"

#include <stdexcept>

namespace contextsteer {

Falloff parse_falloff(const std::string& name, const char* argument) {
  if (name == "step") return Falloff::Step;
  if (name == "linear") return Falloff::Linear;
  if (name == "smoothstep") return Falloff::Smoothstep;
  if (name == "inverse_square") return Falloff::InverseSquare;
  if (name == "exponential") return Falloff::Exponential;
  throw std::invalid_argument(std::string(argument) +
                              ": expected one of 'step', 'linear', 'smoothstep', 'inverse_square', "
                              "'exponential', got '" +
                              name + "'");
}

}  // namespace contextsteer
