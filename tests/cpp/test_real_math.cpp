// The core's own sin, cos, atan2 and exp (base/real_math.hpp): their largest errors against
// double precision, measured here over dense grids and random draws, stay within the
// bounds the header documents; the lane forms give the same bits on one Real.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "contextsteer/base/real_math.hpp"
#include "contextsteer/kernels/lane_atan2.hpp"
#include "contextsteer/kernels/lane_sincos.hpp"

using namespace contextsteer;

namespace {

bool same_bits(Real a, Real b) { return std::memcmp(&a, &b, sizeof a) == 0; }

double sincos_error(Real x) {
  Real s, c;
  math::sincos(x, s, c);
  const double d = x;
  return std::max(std::fabs(s - std::sin(d)), std::fabs(c - std::cos(d)));
}

}  // namespace

TEST(RealMath, SinCosWithinTheirBoundNearTheCircle) {
  double worst = 0;
  for (int i = -400000; i <= 400000; ++i) worst = std::max(worst, sincos_error(static_cast<Real>(i) * Real(2.5e-5)));
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> near(-8192, 8192);
  for (int i = 0; i < 200000; ++i) worst = std::max(worst, sincos_error(near(rng)));
  EXPECT_LT(worst, 1e-7);
  EXPECT_GT(worst, 1e-8);  // a polynomial, not a library call
}

TEST(RealMath, SinCosOfLargeAnglesReduceExactly) {
  double worst = 0;
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> exponent(13, 127.9);
  for (int i = 0; i < 200000; ++i) {
    const Real x = static_cast<Real>(std::pow(2.0, exponent(rng))) * (i % 2 ? -1.0f : 1.0f);
    worst = std::max(worst, sincos_error(x));
  }
  for (Real x : {8192.0f, 8192.001f, 1e4f, 3e7f, 1.6e9f, -1e30f, 3.4e38f, -3.4e38f}) {
    worst = std::max(worst, sincos_error(x));
  }
  // Every multiple of pi / 2 closest to a float within [2^13, 2^40]: the hardest to reduce.
  for (double k = 5300; k < 7e11; k *= 1.0007) {
    const Real x = static_cast<Real>(std::round(k) * M_PI / 2);
    worst = std::max(worst, sincos_error(x));
  }
  EXPECT_LT(worst, 1e-7);
  Real s, c;
  for (Real x : {kInfinity, -kInfinity, std::nanf("")}) {
    math::sincos(x, s, c);
    EXPECT_TRUE(std::isnan(s) && std::isnan(c)) << x;
  }
}

TEST(RealMath, SinCosOfDoubleAnglesWithinTheirBound) {
  double worst = 0;
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> any(-1e9, 1e9), near(-10, 10);
  for (int i = 0; i < 200000; ++i) {
    for (double x : {any(rng), near(rng)}) {
      Real s, c;
      math::sincos_of_double(x, s, c);
      worst = std::max({worst, std::fabs(s - std::sin(x)), std::fabs(c - std::cos(x))});
    }
  }
  EXPECT_LT(worst, 1e-7);
}

TEST(RealMath, LaneSincosOnOneRealIsMathSincos) {
  std::mt19937 rng(14);
  std::uniform_real_distribution<Real> wide(-20000, 20000), narrow(-10, 10);
  for (int i = 0; i < 100000; ++i) {
    for (Real x : {wide(rng), narrow(rng)}) {
      Real s, c, ls, lc;
      math::sincos(x, s, c);
      lane_sincos(x, ls, lc);
      ASSERT_TRUE(same_bits(s, ls) && same_bits(c, lc)) << x;
      ASSERT_TRUE(same_bits(math::sin(x), s) && same_bits(math::cos(x), c)) << x;
    }
  }
}

TEST(RealMath, Atan2WithinItsBoundAndAsTheLanes) {
  double worst = 0;
  std::mt19937 rng(15);
  std::uniform_real_distribution<Real> u(-1, 1);
  std::uniform_real_distribution<double> scale(-30, 30);
  for (int i = 0; i < 400000; ++i) {
    const Real m = static_cast<Real>(std::pow(2.0, scale(rng)));
    const Real y = u(rng) * m, x = u(rng) * m;
    if (x == 0 && y == 0) continue;
    const Real a = math::atan2(y, x);
    ASSERT_TRUE(same_bits(a, lane_atan2(y, x))) << y << ", " << x;
    worst = std::max(worst, std::fabs(a - std::atan2(static_cast<double>(y), static_cast<double>(x))));
  }
  for (int i = 0; i < 3600; ++i) {  // every tenth of a degree on the circle
    const double t = (i - 1800) * M_PI / 1800;
    const Real y = static_cast<Real>(std::sin(t)), x = static_cast<Real>(std::cos(t));
    worst = std::max(worst, std::fabs(math::atan2(y, x) - std::atan2(static_cast<double>(y), static_cast<double>(x))));
  }
  EXPECT_LT(worst, 2.8e-7);
  EXPECT_GT(worst, 1e-8);
  // The axes and the origin, as IEEE's atan2.
  EXPECT_EQ(math::atan2(0.0f, 1.0f), 0.0f);
  EXPECT_EQ(math::atan2(1.0f, 0.0f), math::detail::kHalfPi);
  EXPECT_EQ(math::atan2(0.0f, -1.0f), kPi);
  EXPECT_EQ(math::atan2(-1.0f, 0.0f), -math::detail::kHalfPi);
  EXPECT_EQ(math::atan2(0.0f, 0.0f), 0.0f);
  EXPECT_TRUE(std::signbit(math::atan2(-0.0f, 0.0f)));
  EXPECT_EQ(math::atan2(0.0f, -0.0f), kPi);
  EXPECT_EQ(math::atan2(-0.0f, -0.0f), -kPi);
}

TEST(RealMath, ExpWithinOneAndAHalfUnitsInTheLastPlace) {
  double worst_ulps = 0;
  auto check = [&](Real x) {
    const double want = std::exp(static_cast<double>(x));
    const Real got = math::exp(x);
    if (want < 1.1754944e-38) {  // subnormal results: an absolute bound of a few subnormal units
      ASSERT_LE(std::fabs(got - want), 3 * 1.4e-45) << x;
      return;
    }
    const double ulp = std::ldexp(1.0, std::ilogb(want) - 23);
    worst_ulps = std::max(worst_ulps, std::fabs(got - want) / ulp);
  };
  for (int i = -1039720; i <= 887228; ++i) check(static_cast<Real>(i) * Real(1e-4));
  std::mt19937 rng(16);
  std::uniform_real_distribution<Real> small(-1, 1);
  for (int i = 0; i < 200000; ++i) check(small(rng));
  EXPECT_LE(worst_ulps, 1.5);
  EXPECT_GT(worst_ulps, 0.5);
  EXPECT_EQ(math::exp(0.0f), 1.0f);
  EXPECT_EQ(math::exp(89.0f), kInfinity);
  EXPECT_EQ(math::exp(-105.0f), 0.0f);
  EXPECT_TRUE(std::isnan(math::exp(std::nanf(""))));
  EXPECT_EQ(math::exp(-kInfinity), 0.0f);
  EXPECT_EQ(math::exp(kInfinity), kInfinity);
}
