#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "contextsteer/maps/combine.hpp"

using namespace contextsteer;

namespace {
std::vector<Real> run(CombineRule rule, const std::vector<Real>* weights = nullptr) {
  static const std::vector<Real> a{0.0f, 0.5f, 1.0f};
  static const std::vector<Real> b{0.4f, 0.2f, -1.0f};
  const Real* maps[] = {a.data(), b.data()};
  std::vector<Real> out(3);
  combine(maps, 2, 3, rule, weights ? weights->data() : nullptr, out.data());
  return out;
}
}  // namespace

TEST(Combine, EachRuleSlotBySlot) {
  EXPECT_EQ(run(CombineRule::Max), (std::vector<Real>{0.4f, 0.5f, 1.0f}));
  EXPECT_EQ(run(CombineRule::Min), (std::vector<Real>{0.0f, 0.2f, -1.0f}));
  const auto sum = run(CombineRule::Sum);
  EXPECT_FLOAT_EQ(sum[0], 0.4f);
  EXPECT_FLOAT_EQ(sum[1], 0.7f);
  EXPECT_FLOAT_EQ(sum[2], 0.0f);
  const auto mean = run(CombineRule::Mean);
  EXPECT_FLOAT_EQ(mean[1], 0.35f);
}

TEST(Combine, WeightsScaleEachMapFirst) {
  const std::vector<Real> w{2.0f, 0.5f};
  const auto sum = run(CombineRule::Sum, &w);
  EXPECT_FLOAT_EQ(sum[0], 0.2f);  // 2*0 + 0.5*0.4
  EXPECT_FLOAT_EQ(sum[1], 1.1f);  // 2*0.5 + 0.5*0.2
  EXPECT_FLOAT_EQ(sum[2], 1.5f);  // 2*1 - 0.5
  const auto mean = run(CombineRule::Mean, &w);
  EXPECT_FLOAT_EQ(mean[1], 1.1f / 2.5f);
  const auto mx = run(CombineRule::Max, &w);
  EXPECT_FLOAT_EQ(mx[0], 0.2f);
}

TEST(Combine, RefusesNoMapsAndAZeroWeightMean) {
  std::vector<Real> out(3);
  EXPECT_THROW(combine(nullptr, 0, 3, CombineRule::Max, nullptr, out.data()), std::invalid_argument);
  const std::vector<Real> w{1.0f, -1.0f};
  EXPECT_THROW(run(CombineRule::Mean, &w), std::invalid_argument);
  EXPECT_THROW(parse_combine_rule("median", "rule"), std::invalid_argument);
  EXPECT_EQ(parse_combine_rule("min", "rule"), CombineRule::Min);
}
