// sin and cos W lanes at once (lane_sincos.hpp): close to double precision, the same
// bits on every path, sensible for angles far outside (-pi, pi].
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "contextsteer/kernels/lane_sincos.hpp"
#include "contextsteer/kernels/simd.hpp"

using namespace contextsteer;

namespace {

std::vector<Real> angles_for_test() {
  std::vector<Real> angles;
  for (int i = -200000; i <= 200000; ++i) angles.push_back(static_cast<Real>(i) * Real(5e-5));  // [-10, 10]
  for (int k = -8; k <= 8; ++k) {  // quadrant boundaries and their neighbors
    const Real at = static_cast<Real>(k * M_PI / 2);
    angles.insert(angles.end(), {at, std::nextafter(at, Real(-100)), std::nextafter(at, Real(100))});
  }
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> far(-8000, 8000);
  for (int i = 0; i < 20000; ++i) angles.push_back(far(rng));
  return angles;
}

void sincos_with_width(const std::vector<Real>& angles, int width, std::vector<Real>& s, std::vector<Real>& c) {
  const int previous = simd_width_limit.exchange(width);
  s.assign(angles.size(), 0);
  c.assign(angles.size(), 0);
  sincos_rows(angles.data(), static_cast<int>(angles.size()), s.data(), c.data());
  simd_width_limit.store(previous);
}

}  // namespace

TEST(LaneSincos, IsWithinTwoTenthsOfAMillionthOfDoublePrecision) {
  const std::vector<Real> angles = angles_for_test();
  std::vector<Real> s, c;
  sincos_with_width(angles, 8, s, c);
  double worst = 0;
  for (std::size_t i = 0; i < angles.size(); ++i) {
    const double x = angles[i];
    worst = std::max({worst, std::fabs(s[i] - std::sin(x)), std::fabs(c[i] - std::cos(x))});
  }
  EXPECT_LT(worst, 2e-7);
  EXPECT_GT(worst, 0);  // not a library call in disguise
}

TEST(LaneSincos, EveryPathGivesTheSameBits) {
  const std::vector<Real> angles = angles_for_test();
  std::vector<Real> s8, c8, s4, c4, s1, c1;
  sincos_with_width(angles, 8, s8, c8);
  sincos_with_width(angles, 4, s4, c4);
  sincos_with_width(angles, 1, s1, c1);
  ASSERT_EQ(0, std::memcmp(s8.data(), s1.data(), s8.size() * sizeof(Real)));
  ASSERT_EQ(0, std::memcmp(c8.data(), c1.data(), c8.size() * sizeof(Real)));
  ASSERT_EQ(0, std::memcmp(s4.data(), s1.data(), s4.size() * sizeof(Real)));
  ASSERT_EQ(0, std::memcmp(c4.data(), c1.data(), c4.size() * sizeof(Real)));
}

TEST(LaneSincos, AnglesFarOutsideTheCircleAreReducedExactly) {
  const std::vector<Real> angles{1e4f, -2.5e5f, 3e7f, -1e30f, 8191.5f, 8192.5f};
  std::vector<Real> s, c;
  for (int width : {8, 4, 1}) {
    sincos_with_width(angles, width, s, c);
    for (std::size_t i = 0; i < angles.size(); ++i) {
      // As libm's, which reduces the float angle exactly.
      EXPECT_NEAR(s[i], std::sin(static_cast<double>(angles[i])), 1e-6) << angles[i] << " width " << width;
      EXPECT_NEAR(c[i], std::cos(static_cast<double>(angles[i])), 1e-6) << angles[i] << " width " << width;
      EXPECT_NEAR(s[i] * s[i] + c[i] * c[i], 1, 1e-6);
    }
  }
}
