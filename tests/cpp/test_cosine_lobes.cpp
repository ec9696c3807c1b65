// Lobes added a block at a time (cosine_lobes.hpp) equal cosine_lobe one at a time, in
// order, at every kernel width.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/kernels/slot_sweep.hpp"
#include "contextsteer/maps/cosine_lobes.hpp"

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

// A block whose lobes overflow the per-thread chunk (kLobeChunk) adds them chunk by chunk:
// the same bits as one lobe at a time, as a sum or a maximum.
TEST(CosineLobes, ABlockOfMoreLobesThanAChunkGivesTheSameBits) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<Real> u(-2, 2);
  const SlotDirections dirs(16);
  const int rows = 128, per_row = 11;  // 1,408 lobes: two full chunks and a part
  static_assert(rows * per_row > 2 * kLobeChunk, "the block spans several chunks");
  std::vector<Lobe> lobes;
  for (int k = 0; k < rows; ++k) {
    for (int l = 0; l < per_row; ++l) lobes.push_back({k, u(rng), u(rng), l % 3 ? Real(0) : std::abs(u(rng)) / 2});
  }
  for (bool sum : {false, true}) {
    std::vector<Real> want(static_cast<std::size_t>(rows) * 16, 0);
    for (const Lobe& l : lobes) {
      cosine_lobe(want.data() + static_cast<std::size_t>(l.row) * 16, dirs.x(), dirs.y(), 16, l.x, l.y, l.bias, sum);
    }
    std::vector<Real> got(want.size(), 0);
    add_block_lobes(got.data(), dirs, rows, sum, [&](int k, auto&& add) {
      for (int l = 0; l < per_row; ++l) {
        const Lobe& lobe = lobes[static_cast<std::size_t>(k) * per_row + l];
        add(lobe.x, lobe.y, lobe.bias);
      }
    });
    ASSERT_EQ(0, std::memcmp(got.data(), want.data(), got.size() * sizeof(Real))) << "sum " << sum;
  }
}
