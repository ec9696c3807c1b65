// Lobes added a block at a time (cosine_lobes.hpp) equal cosine_lobe one at a time, in
// order, at every kernel width.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "contextsteer/cosine_lobes.hpp"
#include "contextsteer/simd.hpp"
#include "contextsteer/slot_sweep.hpp"

using namespace contextsteer;

TEST(CosineLobes, EqualOneLobeAtATimeInOrder) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<Real> u(-2, 2);
  for (int slots : {8, 12, 16, 32}) {
    const SlotDirections dirs(slots, Real(0.2));
    const int rows = 20;
    std::vector<Lobe> lobes;
    for (int l = 0; l < 60; ++l) {  // rows get several; half the lobes widened by a bias
      lobes.push_back({static_cast<int>(rng() % rows), u(rng), u(rng), l % 2 ? std::abs(u(rng)) / 2 : Real(0)});
    }
    for (bool sum : {false, true}) {
      std::vector<Real> want(static_cast<std::size_t>(rows) * slots);
      for (Real& v : want) v = u(rng) > 0 ? u(rng) : 0;  // rows that already hold values
      const std::vector<Real> start = want;
      for (const Lobe& l : lobes) {
        cosine_lobe(want.data() + static_cast<std::size_t>(l.row) * slots, dirs.x(), dirs.y(), slots, l.x, l.y, l.bias,
                    sum);
      }
      EXPECT_NE(want, start);
      for (int width : {8, 4, 1}) {
        std::vector<Real> got = start;
        const int previous = simd_width_limit.exchange(width);
        add_cosine_lobes(got.data(), dirs, lobes.data(), static_cast<int>(lobes.size()), sum);
        simd_width_limit = previous;
        ASSERT_EQ(0, std::memcmp(got.data(), want.data(), got.size() * sizeof(Real)))
            << "slots " << slots << " sum " << sum << " width " << width;
      }
    }
  }
}
