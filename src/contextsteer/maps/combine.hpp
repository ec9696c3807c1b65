// Per-slot combination of several behaviours' maps into one.
#pragma once

#include <cstddef>
#include <string>

#include "contextsteer/base/real.hpp"

namespace contextsteer {

// With weights w_k, each map m_k is first scaled: max and min take max_k / min_k of
// w_k * m_k, sum takes sum_k w_k * m_k, mean takes sum_k w_k * m_k / sum_k w_k.
// Without weights every w_k is 1.
enum class CombineRule { Max, Sum, Mean, Min };

CombineRule parse_combine_rule(const std::string& name, const char* argument);
const char* combine_rule_names();

// out[j] = rule over k of maps[k][j], for j in [0, count). `weights` has k entries or
// is null. `out` may alias none of the inputs. Throws std::invalid_argument when k < 1,
// or when the rule is Mean and the weights sum to zero.
void combine(const Real* const* maps, int k, std::size_t count, CombineRule rule, const Real* weights, Real* out);

}  // namespace contextsteer
