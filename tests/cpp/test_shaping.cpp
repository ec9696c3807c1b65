#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "contextsteer/maps/shaping.hpp"

using namespace contextsteer;

TEST(Blur, WidthZeroIsIdentity) {
  const std::vector<Real> in{0, 1, 0, 0.5f};
  std::vector<Real> out(4);
  blur(ConstMapBatch(in.data(), 1, 4), 0, MapBatch{out.data(), 1, 4});
  EXPECT_EQ(in, out);
}

TEST(Blur, SpreadsASpikeSymmetricallyAndKeepsTheTotal) {
  std::vector<Real> in(12, 0);
  in[0] = 1;  // at slot 0 so that the spread must wrap around
  std::vector<Real> out(12);
  blur(ConstMapBatch(in.data(), 1, 12), 1.0f, MapBatch{out.data(), 1, 12});
  EXPECT_NEAR(std::accumulate(out.begin(), out.end(), 0.0), 1.0, 1e-6);
  EXPECT_NEAR(out[1], out[11], 1e-7);
  EXPECT_NEAR(out[2], out[10], 1e-7);
  EXPECT_GT(out[0], out[1]);
  EXPECT_GT(out[1], out[2]);
  // Hand-computed: g(k) = exp(-k^2/2), k in [-3, 3]; out[0] = 1 / sum g.
  double total = 1;
  for (int k = 1; k <= 3; ++k) total += 2 * std::exp(-0.5 * k * k);
  EXPECT_NEAR(out[0], 1 / total, 1e-6);
  EXPECT_NEAR(out[1], std::exp(-0.5) / total, 1e-6);
}

TEST(Blur, AKernelWiderThanTheCircleFoldsOntoIt) {
  // Against the sum over every offset k in [-R, R], wrapped, in double: odd and even
  // slot counts, with offsets of whole turns (k = +-6 on 6 slots) among them.
  for (const auto& [slots, width] : {std::pair{5, 2.3f}, std::pair{6, 4.0f}, std::pair{7, 0.9f}, std::pair{2, 3.0f}}) {
    std::vector<Real> in(slots), out(slots);
    for (int i = 0; i < slots; ++i) in[i] = Real(0.1) + Real(0.37) * static_cast<Real>((i * 7) % slots);
    blur(ConstMapBatch(in.data(), 1, slots), width, MapBatch{out.data(), 1, slots});
    const int reach = static_cast<int>(std::ceil(3.0 * width));
    for (int i = 0; i < slots; ++i) {
      double sum = 0, total = 0;
      for (int k = -reach; k <= reach; ++k) {
        const double g = std::exp(-0.5 * (k / double(width)) * (k / double(width)));
        sum += g * in[((i + k) % slots + slots) % slots];
        total += g;
      }
      EXPECT_NEAR(out[i], sum / total, 1e-6) << slots << " slots, width " << width << ", slot " << i;
    }
  }
}

TEST(Blur, AnyWidthCostsAtMostTheSlotsAndTendsToTheMean) {
  // Width 1e9 used to mean 2^19 taps a slot; folded, it is the row's mean.
  const CircularBlur kernel(1e9f, 16);
  std::vector<Real> in(16), out(16);
  for (int i = 0; i < 16; ++i) in[i] = static_cast<Real>(i);
  kernel.apply(in.data(), out.data());
  for (const Real v : out) EXPECT_NEAR(v, 7.5, 1e-4);
}

TEST(Blur, RefusesNegativeOrNonFiniteWidth) {
  EXPECT_THROW(CircularBlur(-1, 8), std::invalid_argument);
  EXPECT_THROW(CircularBlur(NAN, 8), std::invalid_argument);
  EXPECT_THROW(CircularBlur(INFINITY, 8), std::invalid_argument);
  EXPECT_THROW(CircularBlur(1, 0), std::invalid_argument);
}

TEST(Smooth, BlendsWithThePreviousMap) {
  const std::vector<Real> now{1, 0}, before{0, 1};
  std::vector<Real> out(2);
  smooth(now.data(), before.data(), 2, 0.25f, out.data());
  EXPECT_FLOAT_EQ(out[0], 0.75f);
  EXPECT_FLOAT_EQ(out[1], 0.25f);
  EXPECT_THROW(smooth(now.data(), before.data(), 2, 1.5f, out.data()), std::invalid_argument);
}

TEST(Resample, LinearDoublesAndHalvesResolution) {
  const std::vector<Real> in{0, 1, 0, 0.5f};
  std::vector<Real> up(8), down(2);
  resample(ConstMapBatch(in.data(), 1, 4), ResampleMethod::Linear, MapBatch{up.data(), 1, 8});
  EXPECT_EQ(up, (std::vector<Real>{0, 0.5f, 1, 0.5f, 0, 0.25f, 0.5f, 0.25f}));
  resample(ConstMapBatch(in.data(), 1, 4), ResampleMethod::Linear, MapBatch{down.data(), 1, 2});
  EXPECT_EQ(down, (std::vector<Real>{0, 0}));  // slots 0 and 2 only: the peak at slot 1 is lost
}

TEST(Resample, MaxKeepsNarrowPeaksWhenCoarsening) {
  const std::vector<Real> in{0, 1, 0, 0.5f};
  std::vector<Real> down(2);
  resample(ConstMapBatch(in.data(), 1, 4), ResampleMethod::Max, MapBatch{down.data(), 1, 2});
  // Output slot 0 covers input slots 3, 0, 1 (within one input slot); slot 1 covers 1, 2, 3.
  EXPECT_EQ(down, (std::vector<Real>{1, 1}));
  EXPECT_THROW(parse_resample_method("cubic", "method"), std::invalid_argument);
}
