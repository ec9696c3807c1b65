// Polyline: arc lengths, points and the closest point within a range, open and closed.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "contextsteer/polyline.hpp"

using namespace contextsteer;

TEST(Polyline, ArcLengthsClampOnAnOpenPathAndWrapOnAClosedOne) {
  const std::vector<Vec2> l{{0, 0}, {4, 0}, {4, 3}};
  const Polyline open(l, false), closed(l, true);
  EXPECT_NEAR(open.length(), 7, 1e-6);
  EXPECT_NEAR(closed.length(), 12, 1e-6);  // and back: 5 m
  EXPECT_EQ(open.vertices().size(), 3u);
  EXPECT_EQ(closed.vertices().size(), 4u);
  EXPECT_EQ(open.on_path(-1), 0);
  EXPECT_EQ(open.on_path(9), 7);
  EXPECT_NEAR(closed.on_path(13), 1, 1e-6);
  EXPECT_NEAR(closed.on_path(-1), 11, 1e-6);
  Vec2 t;
  const Vec2 p = closed.point_at(9.5f, &t);  // half way back along the closing leg
  EXPECT_NEAR(p.x, 2, 1e-5);
  EXPECT_NEAR(p.y, 1.5f, 1e-5);
  EXPECT_NEAR(t.x, -0.8f, 1e-6);
  EXPECT_NEAR(t.y, -0.6f, 1e-6);
  Real fraction = 0;
  EXPECT_EQ(open.leg_of(5.5f, fraction), 1);
  EXPECT_NEAR(fraction, 0.5f, 1e-6);
}

TEST(Polyline, ClosestOverTheWholePathEqualsBruteForce) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-10, 10);
  for (bool closed : {false, true}) {
    std::vector<Vec2> points;
    for (int i = 0; i < 9; ++i) points.push_back({u(rng), u(rng)});
    const Polyline path(points, closed);
    for (int q = 0; q < 60; ++q) {
      const Vec2 p{u(rng), u(rng)};
      // Brute force: the path sampled every 2 mm (within 1 mm of any of its points).
      Real best = kInfinity;
      for (Real s = 0; s <= path.length(); s += 2e-3f) best = std::min(best, length(p - path.point_at(s)));
      const Polyline::Closest c = path.closest(p);
      EXPECT_NEAR(std::sqrt(c.distance_squared), best, 1.5e-3) << q;
      EXPECT_NEAR(length(c.point - path.point_at(c.s)), 0, 1e-4) << q;
    }
  }
}

TEST(Polyline, ClosestWithinARangeStaysInIt) {
  // A hairpin: out along y = 0 and back along y = 1.
  const Polyline hairpin({{0, 0}, {10, 0}, {10, 1}, {0, 1}}, false);
  EXPECT_NEAR(hairpin.closest({5, 0.8f}).s, 16, 1e-5);       // the way back is closer
  EXPECT_NEAR(hairpin.closest({5, 0.8f}, 2, 8).s, 5, 1e-5);  // but not in range
  EXPECT_NEAR(hairpin.closest({9, 0.8f}, 2, 6).s, 6, 1e-5);  // the range's end
  EXPECT_NEAR(hairpin.closest({1, 0.2f}, 2, 6).s, 2, 1e-5);  // its start
  // On a closed path the range runs on into the next lap, and s comes back wrapped.
  const Polyline square({{0, 0}, {10, 0}, {10, 10}, {0, 10}}, true);
  EXPECT_NEAR(square.closest({2, -0.5f}, 38, 43).s, 2, 1e-5);
  EXPECT_NEAR(square.closest({2, -0.5f}, 78, 83).s, 2, 1e-4);  // a lap further on, the same
  // A single point: every s is 0 and the point is the closest.
  const Polyline dot({{3, 4}}, false);
  EXPECT_EQ(dot.length(), 0);
  EXPECT_NEAR(dot.closest({0, 0}).distance_squared, 25, 1e-5);
  EXPECT_EQ(dot.point_at(5).x, 3);
}
