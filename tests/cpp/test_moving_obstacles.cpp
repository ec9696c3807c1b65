// Moving obstacles (scene/moving_obstacles.hpp): motion, paths, the loose index against
// the same shapes as fresh static obstacles, and save/load to the bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "contextsteer/scene/moving_obstacles.hpp"

using namespace contextsteer;

namespace {

MovingObstacles many_bodies(std::mt19937& rng) {
  std::uniform_real_distribution<Real> place(0, 100), speed(-2, 2), size(0.2f, 1.5f);
  MovingObstacles m;
  std::vector<Circle> circles;
  std::vector<Vec2> velocities;
  for (int i = 0; i < 150; ++i)
    circles.push_back({{place(rng), place(rng)}, size(rng)}), velocities.push_back({speed(rng), speed(rng)});
  m.add_circles(circles, velocities, 1);
  std::vector<Segment> segments;
  velocities.clear();
  for (int i = 0; i < 30; ++i) {
    const Vec2 a{place(rng), place(rng)};
    segments.push_back({a, a + Vec2{3, 1}}), velocities.push_back({speed(rng), speed(rng)});
  }
  m.add_segments(segments, velocities, 2);
  m.add_polygon({{10, 10}, {14, 10}, {12, 15}}, {0.5f, 0}, 0.7f, 1);
  ObstaclePath path;
  path.waypoints = {{0, 0}, {50, 50}, {90, 10}};
  path.speed = 1.5f;
  path.back_and_forth = true;
  m.set_path(3, path);
  return m;
}

// The same shapes as static obstacles, checked afresh.
Obstacles fresh(const MovingObstacles& m) {
  Obstacles o;
  const Obstacles& s = m.shapes();
  for (std::size_t i = 0; i < s.circles().size(); ++i) o.add_circle(s.circles()[i], s.circle_layers()[i]);
  const std::vector<Segment> free = s.free_segments();
  for (std::size_t i = 0; i < free.size(); ++i) o.add_segment(free[i], s.segment_layers()[i]);
  for (int k = 0; k < s.polygon_count(); ++k) {
    o.add_polygon(
        {s.polygon_vertices().begin() + s.polygon_start(k), s.polygon_vertices().begin() + s.polygon_start(k + 1)},
        s.polygon_layers()[k]);
  }
  return o;
}

}  // namespace

TEST(MovingObstacles, LooseIndexGivesThePenetrationOfFreshObstacles) {
  std::mt19937 rng(7);
  MovingObstacles m = many_bodies(rng);
  std::uniform_real_distribution<Real> place(-5, 105), radius(0.1f, 1);
  bool kept_with_drift = false;
  for (int step = 0; step < 40; ++step) {
    m.advance(Real(0.1));
    kept_with_drift = kept_with_drift || m.shapes().drift() > 0;
    const Obstacles o = fresh(m);
    for (int q = 0; q < 300; ++q) {
      const Vec2 p{place(rng), place(rng)};
      const Real r = radius(rng);
      for (const LayerMask mask : {LayerMask(1), LayerMask(2), kAllLayers}) {
        ASSERT_EQ(m.shapes().penetration(p, r, mask), o.penetration(p, r, mask));
      }
    }
  }
  EXPECT_TRUE(kept_with_drift);  // the index was kept between rebuilds
}

TEST(MovingObstacles, PathsSetTheVelocityAlongThem) {
  MovingObstacles m;
  m.add_circles({{{0, 0}, 1}}, {}, 1);
  ObstaclePath path;
  path.waypoints = {{3, 0}, {3, 4}};
  path.speed = 1;
  m.set_path(0, path);
  for (int i = 0; i < 50; ++i) m.advance(Real(0.1));  // 5 m: 3 east, then 2 north
  EXPECT_NEAR(m.position(0).x, 3, 1e-4);
  EXPECT_NEAR(m.position(0).y, 2, 1e-4);
  EXPECT_NEAR(m.velocity(0).y, 1, 1e-6);
  EXPECT_THROW(m.set_path(1, path), std::invalid_argument);
  path.speed = 0;
  EXPECT_THROW(m.set_path(0, path), std::invalid_argument);
}

TEST(MovingObstacles, SaveAndLoadStepOnToTheBit) {
  std::mt19937 rng(3);
  MovingObstacles a = many_bodies(rng);
  for (int i = 0; i < 10; ++i) a.advance(Real(0.1));
  MovingObstacles b;
  b.load(a.save());
  for (int i = 0; i < 30; ++i) a.advance(Real(0.1)), b.advance(Real(0.1));
  EXPECT_EQ(a.positions(), b.positions());
  EXPECT_EQ(a.angles(), b.angles());
  std::vector<unsigned char> bytes = a.save();
  bytes.pop_back();
  EXPECT_THROW(b.load(bytes), std::invalid_argument);
}

TEST(MovingObstacles, APileOfCoincidentBodiesIsMetWholeAndViewsKeepTheirColumns) {
  // Many circles at one point, then as many segments across it: every one is met from
  // near the point, none from afar, and the columns a view took before each add keep
  // the bodies as they were.
  MovingObstacles m;
  const int n = 5000;
  m.add_circles(std::vector<Circle>(n, Circle{{2, 3}, 0.5f}), {}, 1);
  const std::shared_ptr<MovingObstacles::Columns> before = m.columns();
  m.add_segments(std::vector<Segment>(n, Segment{{1, 3}, {3, 3}}), std::vector<Vec2>(n, Vec2{1, 0}), 2);
  EXPECT_EQ(before->position.size(), std::size_t(2 * n));
  EXPECT_EQ(m.positions().size(), std::size_t(4 * n));
  EXPECT_EQ(m.velocities()[2 * n], 1);
  EXPECT_EQ(m.velocities()[0], 0);
  ASSERT_TRUE(m.shapes().indexed());
  std::vector<int> met(2 * n, 0);
  m.for_each_body_near({2, 3.2f}, 0.3f, kAllLayers, [&](int b) { met[b] = 1; });
  EXPECT_EQ(std::count(met.begin(), met.end(), 1), 2 * n);
  int far = 0;
  m.for_each_body_near({40, 40}, 1, kAllLayers, [&](int) { ++far; });
  EXPECT_EQ(far, 0);
  // One step on, the segments have moved 0.1 m east with the index kept or rebuilt.
  m.advance(Real(0.1));
  EXPECT_NEAR(m.position(n).x, 2.1f, 1e-5);
  std::fill(met.begin(), met.end(), 0);
  m.for_each_body_near({3.05f, 3}, 0.01f, 2, [&](int b) { met[b] = 1; });
  EXPECT_EQ(std::count(met.begin(), met.begin() + n, 1), 0);  // circles on layer 1
  EXPECT_EQ(std::count(met.begin() + n, met.end(), 1), n);
}
