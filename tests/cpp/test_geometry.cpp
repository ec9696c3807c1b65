#include <gtest/gtest.h>

#include <cmath>

#include "contextsteer/geometry/geometry.hpp"
#include "contextsteer/scene/obstacles.hpp"

using namespace contextsteer;

TEST(Geometry, ClosestPointOnSegmentClampsToTheEnds) {
  const Segment s{{0, 0}, {4, 0}};
  EXPECT_FLOAT_EQ(closest_point_on_segment(s, {2, 3}).x, 2);
  EXPECT_FLOAT_EQ(closest_point_on_segment(s, {-2, 3}).x, 0);
  EXPECT_FLOAT_EQ(closest_point_on_segment(s, {9, -1}).x, 4);
}

TEST(Geometry, RayAgainstCircleAndCapsule) {
  EXPECT_FLOAT_EQ(ray_circle_distance({0, 0}, {1, 0}, {5, 0}, 1), 4);
  EXPECT_TRUE(std::isinf(ray_circle_distance({0, 0}, {-1, 0}, {5, 0}, 1)));
  EXPECT_EQ(ray_circle_distance({5, 0.5f}, {1, 0}, {5, 0}, 1), 0);
  const Segment wall{{3, -2}, {3, 2}};
  EXPECT_FLOAT_EQ(ray_capsule_distance({0, 0}, {1, 0}, wall, 0.5f), 2.5f);    // the flat side
  EXPECT_NEAR(ray_capsule_distance({0, 2}, {1, 0}, wall, 0.5f), 2.5f, 1e-5);  // the round end, head on
  EXPECT_TRUE(std::isinf(ray_capsule_distance({0, 0}, {0, 1}, wall, 0.5f)));
  EXPECT_EQ(ray_capsule_distance({3.2f, 0}, {1, 0}, wall, 0.5f), 0);
}

TEST(Geometry, PointInConcavePolygon) {
  // An L shape: the notch at (3, 3) is outside.
  const Vec2 l[] = {{0, 0}, {4, 0}, {4, 2}, {2, 2}, {2, 4}, {0, 4}};
  EXPECT_TRUE(point_in_polygon(l, 6, {1, 1}));
  EXPECT_TRUE(point_in_polygon(l, 6, {1, 3}));
  EXPECT_FALSE(point_in_polygon(l, 6, {3, 3}));
  EXPECT_FALSE(point_in_polygon(l, 6, {-1, 1}));
}

TEST(Obstacles, PenetrationOfEveryKind) {
  Obstacles o;
  o.add_circle({{0, 0}, 1});
  EXPECT_NEAR(o.penetration({1.2f, 0}, 0.5f, kAllLayers), 0.3f, 1e-6);
  EXPECT_EQ(o.penetration({3, 0}, 0.5f, kAllLayers), 0);
  o.add_segment({{10, -5}, {10, 5}}, 2u);
  EXPECT_NEAR(o.penetration({9.8f, 0}, 0.5f, 2u), 0.3f, 1e-5);
  EXPECT_EQ(o.penetration({9.8f, 0}, 0.5f, 1u), 0);  // not on a sensed layer
  o.add_polygon({{20, 0}, {24, 0}, {24, 4}, {20, 4}});
  EXPECT_NEAR(o.penetration({21, 2}, 0.5f, kAllLayers), 1.5f, 1e-5);  // inside: 1 m from the edge + r
  o.set_bounds({{-50, -50}, {50, 50}});
  EXPECT_NEAR(o.penetration({49.8f, 30}, 0.5f, 0u), 0.3f, 1e-5);  // bounds apply on every layer
  EXPECT_NEAR(o.penetration({52, 30}, 0.5f, 0u), 2.5f, 1e-5);
  EXPECT_EQ(o.walls().size(), 1u + 4u + 4u);
  EXPECT_THROW(o.add_polygon({{0, 0}, {1, 1}}), std::invalid_argument);
  EXPECT_THROW(o.set_bounds({{1, 1}, {0, 2}}), std::invalid_argument);
}

TEST(Obstacles, RefuseValuesBeyondTheCoresBound) {
  // Past +-1e9 m (kMaxMagnitude) the index's cell arithmetic and the products of the
  // geometry could overflow; the C++ API refuses such obstacles as Python does.
  Obstacles o;
  EXPECT_THROW(o.add_circle({{2e9f, 0}, 1}), std::invalid_argument);
  EXPECT_THROW(o.add_circle({{0, 0}, 2e9f}), std::invalid_argument);
  EXPECT_THROW(o.add_circle({{0, 0}, -1}), std::invalid_argument);
  EXPECT_THROW(o.add_segment({{0, 0}, {0, -2e9f}}), std::invalid_argument);
  EXPECT_THROW(o.add_segment({{0, NAN}, {0, 0}}), std::invalid_argument);
  EXPECT_THROW(o.add_polygon({{0, 0}, {1, 0}, {0, INFINITY}}), std::invalid_argument);
  EXPECT_THROW(o.set_bounds({{-2e9f, 0}, {1, 1}}), std::invalid_argument);
  // Added together, one bad item keeps all of them out.
  EXPECT_THROW(o.add_segments({{{0, 0}, {1, 0}}, {{0, 0}, {0, 3e9f}}}), std::invalid_argument);
  EXPECT_THROW(o.add_circles({{{0, 0}, 1}, {{0, 0}, -1}}), std::invalid_argument);
  EXPECT_TRUE(o.empty());
  o.add_circle({{1e9f, -1e9f}, 1e9f});  // the bound itself is accepted
  o.add_segment({{-1e9f, 0}, {1e9f, 0}});
  o.set_bounds({{-1e9f, -1e9f}, {1e9f, 1e9f}});
  EXPECT_EQ(o.circles().size(), 1u);
  EXPECT_EQ(o.free_segments().size(), 1u);
}

TEST(Obstacles, PenetrationIsTheDeepestOfTheCirclesTouched) {
  // At (0, 0) with radius 0.5: the big circle is reached 0.5 m deep, with d^2 - reach^2
  // = 49 - 56.25; the small one 0.8 m deep, with d^2 - reach^2 = 0.04 - 1. The least
  // d^2 - reach^2 picks the big circle, which is not the deepest.
  Obstacles o;
  o.add_circle({{7, 0}, 7});
  o.add_circle({{0, 0.2f}, 0.5f});
  EXPECT_NEAR(o.penetration({0, 0}, 0.5f, kAllLayers), 0.8f, 1e-6);
}
