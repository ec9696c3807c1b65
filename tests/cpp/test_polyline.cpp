// Polyline: arc lengths, points and the closest point within a range, open and closed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "contextsteer/navigation/polyline.hpp"

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

namespace {

// Polyline::closest(p, from, to) as a loop over every leg, each measured as the class
// does: the reference for its halving of the legs and its index.
Polyline::Closest closest_by_every_leg(const Polyline& path, Vec2 p, Real from, Real to) {
  const std::vector<Vec2>& v = path.vertices();
  std::vector<Real> cumulative(v.size(), 0);
  for (std::size_t i = 1; i < v.size(); ++i) cumulative[i] = cumulative[i - 1] + length(v[i] - v[i - 1]);
  const Real span = std::max(Real(0), to - from);
  from = path.on_path(from);
  to = from + span;
  Polyline::Closest best;
  best.s = from;
  best.point = path.point_at(from, &best.tangent);
  best.distance_squared = kInfinity;
  const int laps = path.closed() && to > path.length() ? 2 : 1;
  for (int lap = 0; lap < laps; ++lap) {
    const Real offset = static_cast<Real>(lap) * path.length();
    for (std::size_t i = 0; i + 1 < v.size(); ++i) {
      const Real s0 = cumulative[i] + offset, s1 = cumulative[i + 1] + offset;
      if (s1 < from || s0 > to) continue;
      const Real len = s1 - s0;
      const Vec2 a = v[i], ab = v[i + 1] - a;
      Real t = 0;
      if (len > 0) t = std::clamp(dot(p - a, ab) / len, std::max(Real(0), from - s0), std::min(len, to - s0));
      const Vec2 c = len > 0 ? a + ab * (t / len) : a;
      const Real d2 = length_squared(p - c);
      if (d2 < best.distance_squared) {
        best.distance_squared = d2;
        best.s = s0 + t;
        best.point = c;
        best.tangent = len > 0 ? ab * (1 / len) : Vec2{1, 0};
      }
    }
  }
  best.s = path.on_path(std::max(best.s, from));
  return best;
}

void expect_same(const Polyline::Closest& a, const Polyline::Closest& b, const char* what, int q) {
  EXPECT_EQ(a.s, b.s) << what << " " << q;
  EXPECT_EQ(a.point.x, b.point.x) << what << " " << q;
  EXPECT_EQ(a.point.y, b.point.y) << what << " " << q;
  EXPECT_EQ(a.distance_squared, b.distance_squared) << what << " " << q;
  EXPECT_EQ(a.tangent.x, b.tangent.x) << what << " " << q;
}

}  // namespace

TEST(Polyline, ClosestOnAPathOfManyLegsIsThatOfEveryLegToTheBit) {
  // A figure of eight of 3,000 points, wobbling, with repeated points: it crosses itself,
  // and legs meet at equal distances. The whole-path query goes through the index of its
  // legs and a ranged one measures only the legs in range; both must give what measuring
  // every leg gives, ties to the first leg included.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<Vec2> points;
  for (int i = 0; i < 3000; ++i) {
    const float a = 2 * kPi * static_cast<float>(i) / 3000;
    points.push_back({400 * std::sin(a) + 0.3f * u(rng), 200 * std::sin(2 * a) + 0.3f * u(rng)});
    if (i % 500 == 0) points.push_back(points.back());  // a leg of length 0
  }
  for (bool closed : {false, true}) {
    const Polyline path(points, closed);
    int q = 0;
    auto check = [&](Vec2 p) {
      expect_same(path.closest(p), closest_by_every_leg(path, p, 0, path.length()), "whole", q);
      const Real from = (u(rng) + 1) * path.length(), span = (u(rng) + 1) * Real(0.3) * path.length();
      expect_same(path.closest(p, from, from + span), closest_by_every_leg(path, p, from, from + span), "range", q);
      expect_same(path.closest(p, from, from), closest_by_every_leg(path, p, from, from), "point", q);
      ++q;
    };
    for (int k = 0; k < 400; ++k) check({450 * u(rng), 250 * u(rng)});     // on and near the path
    for (int k = 0; k < 100; ++k) check({5e4f * u(rng), 5e4f * u(rng)});   // far from it
    for (std::size_t k = 0; k < points.size(); k += 37) check(points[k]);  // on its points
    check({0, 0});                                                         // where it crosses
    check({1e9f, -1e9f});
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
