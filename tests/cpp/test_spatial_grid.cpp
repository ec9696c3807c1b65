#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "contextsteer/spatial_grid.hpp"

using namespace contextsteer;

TEST(SpatialGrid, QueriesEqualBruteForceOnRandomScenes) {
  std::mt19937 rng(11);
  for (int scene = 0; scene < 20; ++scene) {
    const int n = 1 + static_cast<int>(rng() % 500);
    std::uniform_real_distribution<float> u(-50, 50);
    std::vector<Real> xy(2 * n);
    for (Real& v : xy) v = u(rng);
    if (scene % 5 == 0) std::fill(xy.begin(), xy.end(), 3.0f);  // every agent at one point
    SpatialGrid grid;
    const Real row_height = 0.5f + static_cast<Real>(rng() % 20);
    grid.build(xy.data(), n, row_height);
    for (int q = 0; q < 30; ++q) {
      Vec2 p{u(rng), u(rng)};
      Real r = static_cast<Real>(rng() % 30);
      // Discs far past the grid's edges, and ones holding the whole grid: their cells clamp.
      if (q % 10 == 8) p = p * 1000.0f;
      if (q % 10 == 9) r = q < 20 ? 1e5f : kInfinity;
      std::vector<int> got;
      grid.query(p, r, got);
      std::sort(got.begin(), got.end());
      std::vector<int> want;
      for (int i = 0; i < n; ++i) {
        const Real dx = xy[2 * i] - p.x, dy = xy[2 * i + 1] - p.y;
        if (dx * dx + dy * dy <= r * r) want.push_back(i);
      }
      EXPECT_EQ(got, want) << "scene " << scene << " query " << q;
    }
  }
}

TEST(SpatialGrid, RunsAfterAPlaceMeetEachPairWithinReachOnce) {
  std::mt19937 rng(12);
  for (int scene = 0; scene < 12; ++scene) {
    const int n = 2 + static_cast<int>(rng() % 400);
    std::uniform_real_distribution<float> u(-40, 40);
    std::vector<Real> xy(2 * n);
    for (Real& v : xy) v = u(rng);
    if (scene % 4 == 0) std::fill(xy.begin(), xy.begin() + n, 2.0f);  // many agents on one line
    SpatialGrid grid;
    const Real row_height = 1 + static_cast<Real>(rng() % 10);
    grid.build(xy.data(), n, row_height);
    const Real reach = static_cast<Real>(1 + rng() % 12);
    // Every pair (a < b) within reach, by brute force and by the runs after each place.
    std::vector<std::pair<int, int>> want, got;
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        const Real dx = xy[2 * a] - xy[2 * b], dy = xy[2 * a + 1] - xy[2 * b + 1];
        if (dx * dx + dy * dy <= reach * reach) want.emplace_back(a, b);
      }
    }
    for (int k = 0; k < n; ++k) {
      const Vec2 p{grid.xs()[k], grid.ys()[k]};
      int last = k + 1;
      const int reached = grid.for_each_run_after(k, p, reach, [&](int begin, int end) {
        ASSERT_GT(begin, k);
        ASSERT_GE(begin, last);  // increasing, never overlapping
        last = end;
        for (int i = begin; i < end; ++i) {
          const Real dx = grid.xs()[i] - p.x, dy = grid.ys()[i] - p.y;
          if (dx * dx + dy * dy > reach * reach) continue;
          const int a = grid.order()[k], b = grid.order()[i];
          got.emplace_back(std::min(a, b), std::max(a, b));
        }
      });
      EXPECT_GE(reached, last);
      EXPECT_EQ(grid.order()[grid.rank_of(grid.order()[k])], grid.order()[k]);
    }
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want) << "scene " << scene;  // each pair once: no duplicates in got
  }
}

TEST(SpatialGrid, KnowsWhenEveryAgentSensesEveryOther) {
  const std::vector<Real> xy{0, 0, 1, 1, 2, 2};
  std::vector<LayerMask> layer{2, 2, 2}, senses{3, 3, 3};
  SpatialGrid grid;
  grid.build(xy.data(), 3, 1, nullptr, layer.data(), senses.data());
  EXPECT_TRUE(grid.everyone_senses_everyone());
  senses[1] = 1;  // one agent senses only layer 1, which nobody is on
  grid.build(xy.data(), 3, 1, nullptr, layer.data(), senses.data());
  EXPECT_FALSE(grid.everyone_senses_everyone());
  senses = {1, 1, 1};  // alike, but blind to each other
  grid.build(xy.data(), 3, 1, nullptr, layer.data(), senses.data());
  EXPECT_FALSE(grid.everyone_senses_everyone());
  grid.build(xy.data(), 3, 1);  // defaults: layer 1, sensing all
  EXPECT_TRUE(grid.everyone_senses_everyone());
}

TEST(SpatialGrid, KnowsWhenEveryAgentHasOneRadius) {
  const std::vector<Real> xy{0, 0, 1, 1, 2, 2};
  std::vector<Real> radius{0.5f, 0.5f, 0.5f};
  SpatialGrid grid;
  grid.build(xy.data(), 3, 1, radius.data());
  EXPECT_EQ(grid.common_radius(), 0.5f);
  radius[2] = 0.6f;
  grid.build(xy.data(), 3, 1, radius.data());
  EXPECT_EQ(grid.common_radius(), -1.0f);
  grid.build(xy.data(), 3, 1);  // no radii: every one 0
  EXPECT_EQ(grid.common_radius(), 0.0f);
}

TEST(SpatialGrid, EmptyAndRebuiltGridsAnswer) {
  SpatialGrid grid;
  grid.build(nullptr, 0, 1.0f);
  std::vector<int> out;
  grid.query({0, 0}, 10, out);
  EXPECT_TRUE(out.empty());
  const std::vector<Real> xy{0, 0, 1000, 1000};  // far apart: the cells grow instead of their count
  grid.build(xy.data(), 2, 0.01f);
  grid.query({999, 999}, 2, out);
  EXPECT_EQ(out, std::vector<int>{1});
  EXPECT_THROW(grid.build(xy.data(), 2, 0), std::invalid_argument);
}

TEST(SpatialGrid, MatchesOnlyTheStateItWasBuiltFrom) {
  std::vector<Real> xy{0, 0, 3, 1, -2, 5}, radius{0.5f, 0.5f, 1};
  std::vector<LayerMask> layer{1, 2, 1}, senses{kAllLayers, 1, 3};
  SpatialGrid grid;
  grid.build(xy.data(), 3, 2, radius.data(), layer.data(), senses.data());
  auto matches = [&](int n, Real row_height) {
    return grid.matches(xy.data(), n, row_height, radius.data(), layer.data(), senses.data());
  };
  EXPECT_TRUE(matches(3, 2));
  EXPECT_FALSE(matches(3, 4));  // another row height
  EXPECT_FALSE(matches(2, 2));  // another count
  xy[3] += 0.001f;
  EXPECT_FALSE(matches(3, 2));
  xy[3] -= 0.001f;
  radius[2] = 0.9f;
  EXPECT_FALSE(matches(3, 2));
  radius[2] = 1;
  layer[0] = 4;
  EXPECT_FALSE(matches(3, 2));
  layer[0] = 1;
  senses[1] = 2;
  EXPECT_FALSE(matches(3, 2));
  senses[1] = 1;
  EXPECT_TRUE(matches(3, 2));
}
