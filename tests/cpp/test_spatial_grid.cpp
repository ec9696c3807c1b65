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
    const Real cell = 0.5f + static_cast<Real>(rng() % 20);
    grid.build(xy.data(), n, cell);
    for (int q = 0; q < 30; ++q) {
      const Vec2 p{u(rng), u(rng)};
      const Real r = static_cast<Real>(rng() % 30);
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

TEST(SpatialGrid, EmptyAndRebuiltGridsAnswer) {
  SpatialGrid grid;
  grid.build(nullptr, 0, 1.0f);
  std::vector<int> out;
  grid.query({0, 0}, 10, out);
  EXPECT_TRUE(out.empty());
  const std::vector<Real> xy{0, 0, 1000, 1000};  // far apart: the cell size grows instead of the cell count
  grid.build(xy.data(), 2, 0.01f);
  grid.query({999, 999}, 2, out);
  EXPECT_EQ(out, std::vector<int>{1});
  EXPECT_THROW(grid.build(xy.data(), 2, 0), std::invalid_argument);
}

TEST(SpatialGrid, MatchesOnlyTheStateItWasBuiltFrom) {
  std::vector<Real> xy{0, 0, 3, 1, -2, 5}, radius{0.5f, 0.5f, 1};
  std::vector<LayerMask> layer{1, 2, 1};
  SpatialGrid grid;
  grid.build(xy.data(), 3, 2, radius.data(), layer.data());
  EXPECT_TRUE(grid.matches(xy.data(), 3, 2, radius.data(), layer.data()));
  EXPECT_FALSE(grid.matches(xy.data(), 3, 4, radius.data(), layer.data()));  // another cell size
  EXPECT_FALSE(grid.matches(xy.data(), 2, 2, radius.data(), layer.data()));  // another count
  xy[3] += 0.001f;
  EXPECT_FALSE(grid.matches(xy.data(), 3, 2, radius.data(), layer.data()));
  xy[3] -= 0.001f;
  radius[2] = 0.9f;
  EXPECT_FALSE(grid.matches(xy.data(), 3, 2, radius.data(), layer.data()));
  radius[2] = 1;
  layer[0] = 4;
  EXPECT_FALSE(grid.matches(xy.data(), 3, 2, radius.data(), layer.data()));
}
