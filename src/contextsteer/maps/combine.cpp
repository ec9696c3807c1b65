#include "contextsteer/maps/combine.hpp"

#include <algorithm>
#include <stdexcept>

namespace contextsteer {

CombineRule parse_combine_rule(const std::string& name, const char* argument) {
  if (name == "max") return CombineRule::Max;
  if (name == "sum") return CombineRule::Sum;
  if (name == "mean") return CombineRule::Mean;
  if (name == "min") return CombineRule::Min;
  throw std::invalid_argument(std::string(argument) + ": expected one of " + combine_rule_names() + ", got '" + name +
                              "'");
}

const char* combine_rule_names() { return "'max', 'sum', 'mean', 'min'"; }

void combine(const Real* const* maps, int k, std::size_t count, CombineRule rule, const Real* weights, Real* out) {
  if (k < 1) throw std::invalid_argument("maps: expected at least one map to combine, got none");
  auto weight = [weights](int i) { return weights ? weights[i] : Real(1); };

  Real weight_sum = 0;
  for (int i = 0; i < k; ++i) weight_sum += weight(i);
  if (rule == CombineRule::Mean && weight_sum == 0) {
    throw std::invalid_argument("weights: the mean needs weights whose sum is not zero");
  }

  const Real w0 = weight(0);
  for (std::size_t j = 0; j < count; ++j) out[j] = w0 * maps[0][j];
  // Map-major loops keep every inner loop a contiguous sweep the compiler vectorises.
  for (int i = 1; i < k; ++i) {
    const Real w = weight(i);
    const Real* m = maps[i];
    switch (rule) {
      case CombineRule::Max:
        for (std::size_t j = 0; j < count; ++j) out[j] = std::max(out[j], w * m[j]);
        break;
      case CombineRule::Min:
        for (std::size_t j = 0; j < count; ++j) out[j] = std::min(out[j], w * m[j]);
        break;
      case CombineRule::Sum:
      case CombineRule::Mean:
        for (std::size_t j = 0; j < count; ++j) out[j] += w * m[j];
        break;
    }
  }
  if (rule == CombineRule::Mean) {
    const Real inv = Real(1) / weight_sum;
    for (std::size_t j = 0; j < count; ++j) out[j] *= inv;
  }
}

}  // namespace contextsteer
