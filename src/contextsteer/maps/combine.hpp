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
// or when the rule is Mean and the weights' sum is zero or lost in their rounding
// (mean_weights_error). Finite maps and weights give finite values: the mean of weights
// too small for float's normal range (subnormal, as 1e-45) is taken over the weights
// scaled by a power of two, which gives the same bits as unscaled weights would where
// those stay normal.
void combine(const Real* const* maps, int k, std::size_t count, CombineRule rule, const Real* weights, Real* out);

// Why the Mean rule cannot divide by the sum of these k weights (null: all 1), or "" when
// it can: their sum is zero, or smaller than a millionth of the sum of their magnitudes
// (cancelled weights, whose mean the rounding decides).
std::string mean_weights_error(const Real* weights, int k);

}  // namespace contextsteer
