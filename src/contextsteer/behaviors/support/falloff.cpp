#include "contextsteer/behaviors/support/falloff.hpp"

namespace contextsteer {

Falloff parse_falloff(const std::string& name, const char* argument) { return value_named<Falloff>(name, argument); }

}  // namespace contextsteer
