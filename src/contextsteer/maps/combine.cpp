#include "contextsteer/maps/combine.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace contextsteer {

namespace {

// Weights whose largest magnitude lies below this are scaled up for the mean (so that
// neither their products with the maps nor the inverse of their sum leave float's normal
// range); above it the mean is computed from the weights as given.
constexpr Real kSmallestUnscaledWeight = Real(1.0 / (1ull << 40));

// A power of two that brings the largest of the k weights' magnitudes into [0.5, 1)
// when it lies below kSmallestUnscaledWeight, else 1. In double, as it may exceed float's
// range (2^149 for the smallest subnormal); exact: scaling by a power of two loses no bit
// of a float, subnormal or not, on the way up.
double mean_weight_scale(const Real* weights, int k) {
  Real largest = 0;
  for (int i = 0; i < k; ++i) largest = std::max(largest, std::abs(weights[i]));
  if (!(largest > 0) || largest >= kSmallestUnscaledWeight) return 1;
  int exponent = 0;
  std::frexp(double(largest), &exponent);  // largest = f * 2^exponent, f in [0.5, 1)
  return std::ldexp(1.0, -exponent);
}

}  // namespace

CombineRule parse_combine_rule(const std::string& name, const char* argument) {
  if (name == "max") return CombineRule::Max;
  if (name == "sum") return CombineRule::Sum;
  if (name == "mean") return CombineRule::Mean;
  if (name == "min") return CombineRule::Min;
  throw std::invalid_argument(std::string(argument) + ": expected one of " + combine_rule_names() + ", got '" + name +
                              "'");
}

const char* combine_rule_names() { return "'max', 'sum', 'mean', 'min'"; }

std::string mean_weights_error(const Real* weights, int k) {
  if (!weights) return {};
  // In double: the sum of float weights within +-1e9 is then exact to far below the bar.
  double sum = 0, magnitudes = 0;
  for (int i = 0; i < k; ++i) sum += weights[i], magnitudes += std::abs(double(weights[i]));
  if (sum == 0) return "the mean needs weights whose sum is not zero";
  if (std::abs(sum) < 1e-6 * magnitudes) {
    return "the mean needs weights whose sum is at least a millionth of the sum of their magnitudes "
           "(weights that cancel out leave their mean to the rounding)";
  }
  return {};
}

void combine(const Real* const* maps, int k, std::size_t count, CombineRule rule, const Real* weights, Real* out) {
  if (k < 1) throw std::invalid_argument("maps: expected at least one map to combine, got none");
  double scale = 1;
  if (rule == CombineRule::Mean) {
    const std::string error = mean_weights_error(weights, k);
    if (!error.empty()) throw std::invalid_argument("weights: " + error);
    if (weights) scale = mean_weight_scale(weights, k);
  }
  auto weight = [weights, scale](int i) { return weights ? static_cast<Real>(weights[i] * scale) : Real(1); };

  Real weight_sum = 0;
  for (int i = 0; i < k; ++i) weight_sum += weight(i);
  if (rule == CombineRule::Mean && weight_sum == 0) {  // in float, past many weights
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
