// The obstacles' spatial index (Obstacles::prepare_index, for_each_near) against checking
// every obstacle: the same penetrations and the same danger rows, to the bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/rays.hpp"
#include "contextsteer/scene/obstacle_marks.hpp"
#include "contextsteer/scene/obstacles.hpp"
#include "params_with.hpp"

using namespace contextsteer;

namespace {

// Many circles and walls (some long, some diagonal), polygons (small hexagons and a
// large triangle), bounds, on two layers.
Obstacles crowded_scene(std::mt19937& rng) {
  std::uniform_real_distribution<Real> place(0, 100), size(0.1f, 2), length(-6, 6);
  Obstacles o;
  for (int i = 0; i < 300; ++i) o.add_circle({{place(rng), place(rng)}, size(rng)}, i % 3 ? 1 : 2);
  for (int i = 0; i < 60; ++i) {
    const Vec2 a{place(rng), place(rng)};
    o.add_segment({a, a + Vec2{length(rng), length(rng)}}, i % 2 ? 1 : 2);
  }
  o.add_segment({{5, 5}, {95, 90}});  // long and diagonal
  o.add_polygon({{40, 40}, {60, 40}, {50, 55}});
  for (int k = 0; k < 40; ++k) {
    const Vec2 centre{place(rng), place(rng)};
    const Real radius = size(rng) * 1.5f;
    std::vector<Vec2> hexagon;
    for (int i = 0; i < 6; ++i) hexagon.push_back(centre + Vec2{std::cos(1.0472f * i), std::sin(1.0472f * i)} * radius);
    o.add_polygon(hexagon, k % 2 ? 1 : 2);
  }
  o.set_bounds({{-2, -2}, {102, 102}});
  return o;
}

// Scenes a uniform grid over the obstacles' box handles badly, each with the places its
// queries come from.
struct UnevenScene {
  const char* name;
  Obstacles obstacles;
  std::vector<Vec2> near;  // points among the obstacles
  // Whether cells of a few metres can be addressed: not with coordinates near the core's
  // bound, where floats are 64 m apart and the cells at least 2^-23 of the extent.
  bool fine = true;
};

std::vector<UnevenScene> uneven_scenes() {
  std::mt19937 rng(13);
  std::uniform_real_distribution<Real> unit(0, 1), size(0.1f, 1);
  // 400 pillars and 40 short walls in a 100 m room with its lower-left corner at `at`.
  auto add_room = [&](Obstacles& o, Vec2 at) {
    for (int i = 0; i < 400; ++i) o.add_circle({at + Vec2{100 * unit(rng), 100 * unit(rng)}, size(rng)});
    for (int i = 0; i < 40; ++i) {
      const Vec2 a = at + Vec2{100 * unit(rng), 100 * unit(rng)};
      o.add_segment({a, a + Vec2{4 * unit(rng) - 2, 4 * unit(rng) - 2}}, i % 2 ? 1 : 2);
    }
  };
  auto room_points = [&](Vec2 at, int count) {
    std::vector<Vec2> points;
    for (int i = 0; i < count; ++i) points.push_back(at + Vec2{110 * unit(rng) - 5, 110 * unit(rng) - 5});
    return points;
  };
  std::vector<UnevenScene> scenes;
  for (const Real far : {1e4f, 1e6f, 9e8f}) {  // a room, and one pillar far off
    UnevenScene s{"far pillar", {}, room_points({0, 0}, 300), far < 1e8f};
    add_room(s.obstacles, {0, 0});
    s.obstacles.add_circle({{far, -far}, 1});
    s.near.push_back({far - 1.5f, -far});
    scenes.push_back(std::move(s));
  }
  for (const Real side : {1e4f, 1e7f}) {  // a room in a corner of wide bounds
    UnevenScene s{"wide bounds", {}, room_points({0, 0}, 300)};
    add_room(s.obstacles, {0, 0});
    s.obstacles.set_bounds({{-10, -10}, {side, side}});
    s.near.push_back({side - 0.5f, 50});
    scenes.push_back(std::move(s));
  }
  {  // twelve towns over 200 km
    UnevenScene s{"towns", {}, {}};
    for (int t = 0; t < 12; ++t) {
      const Vec2 at{2e5f * unit(rng), 2e5f * unit(rng)};
      add_room(s.obstacles, at);
      const std::vector<Vec2> points = room_points(at, 40);
      s.near.insert(s.near.end(), points.begin(), points.end());
    }
    scenes.push_back(std::move(s));
  }
  {  // a spiral wall of 3,000 short legs, a long diagonal wall across it and beyond, and
     // a pile of 100 circles at one spot
    UnevenScene s{"spiral, diagonal, pile", {}, room_points({-100, -100}, 300)};
    std::vector<Segment> legs;
    for (int i = 0; i < 3000; ++i) {
      auto at = [](Real t) { return Vec2{(5 + 3 * t) * std::cos(t), (5 + 3 * t) * std::sin(t)}; };
      legs.push_back({at(i * 0.01f), at((i + 1) * 0.01f)});
    }
    s.obstacles.add_segments(legs);
    s.obstacles.add_segment({{-95, -90}, {3000, 3005}});
    for (int i = 0; i < 100; ++i) s.obstacles.add_circle({{30 + unit(rng) * 0.01f, 30}, 0.5f});
    scenes.push_back(std::move(s));
  }
  {  // 1,500 specks piled on one spot among 300 walls 40 m long: shrinking the cells for the
     // pile would list the walls in more cells than the budget allows
    UnevenScene s{"pile among walls", {}, room_points({-50, -50}, 200)};
    for (int i = 0; i < 1500; ++i) s.obstacles.add_circle({{unit(rng) * 0.001f, 0}, 0.0001f});
    for (int i = 0; i < 300; ++i) {
      const Vec2 a{100 * unit(rng) - 50, 100 * unit(rng) - 50};
      const Real angle = 6.2832f * unit(rng);
      s.obstacles.add_segment({a, a + Vec2{std::cos(angle), std::sin(angle)} * 40});
    }
    scenes.push_back(std::move(s));
  }
  return scenes;
}

}  // namespace

TEST(ObstacleIndex, NearestObstaclesAreAmongThoseVisited) {
  std::mt19937 rng(3);
  Obstacles o = crowded_scene(rng);
  o.prepare_index();
  std::uniform_real_distribution<Real> place(-10, 110), reach(0.1f, 8);
  for (int k = 0; k < 500; ++k) {
    const Vec2 p{place(rng), place(rng)};
    const Real r = reach(rng);
    std::set<int> circles, walls;
    o.for_each_near(p, r, [&](int i) { circles.insert(i); }, [&](int j) { walls.insert(j); });
    for (std::size_t i = 0; i < o.circles().size(); ++i) {
      const Circle& c = o.circles()[i];
      if (length(c.centre - p) - c.radius <= r) EXPECT_TRUE(circles.count(static_cast<int>(i))) << k;
    }
    for (std::size_t j = 0; j < o.walls().size(); ++j) {
      const Segment& w = o.walls()[j];
      if (length(closest_point_on_segment(w, p) - p) <= r) EXPECT_TRUE(walls.count(static_cast<int>(j))) << k;
    }
    // It is an index: far fewer than all, away from the long walls.
    if (k == 0) EXPECT_LT(circles.size() + walls.size(), o.circles().size() / 4);
  }
}

TEST(ObstacleIndex, UnevenScenesMeetEveryObstacleWithinReachAndFewOthers) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<Real> reach(0.1f, 8), unit(0, 1);
  for (UnevenScene& scene : uneven_scenes()) {
    const Obstacles plain = scene.obstacles;
    Obstacles& o = scene.obstacles;
    o.prepare_index();
    ASSERT_TRUE(o.indexed()) << scene.name;
    const std::size_t all = o.circles().size() + o.walls().size();
    std::size_t met = 0, queries = 0;
    for (std::size_t k = 0; k < scene.near.size(); ++k) {
      const Vec2 p = scene.near[k];
      // Mostly reaches as Avoid and Rays have them, some past the whole scene.
      const Real r = k % 50 == 49 ? Real(2e9) : reach(rng);
      std::set<int> circles, walls;
      o.for_each_near(p, r, [&](int i) { circles.insert(i); }, [&](int j) { walls.insert(j); });
      for (std::size_t i = 0; i < o.circles().size(); ++i) {
        const Circle& c = o.circles()[i];
        if (length(c.centre - p) - c.radius <= r) EXPECT_TRUE(circles.count(static_cast<int>(i))) << scene.name << k;
      }
      for (std::size_t j = 0; j < o.walls().size(); ++j) {
        const Segment& w = o.walls()[j];
        if (length(closest_point_on_segment(w, p) - p) <= r) {
          EXPECT_TRUE(walls.count(static_cast<int>(j))) << scene.name << k;
        }
      }
      if (r < 10) met += circles.size() + walls.size(), ++queries;
      for (LayerMask mask : {LayerMask(1), LayerMask(2), kAllLayers}) {
        const Real radius = 2 * unit(rng);
        EXPECT_EQ(plain.penetration(p, radius, mask), o.penetration(p, radius, mask)) << scene.name << k;
      }
    }
    // An index, not a list: far less than everything met per query.
    if (scene.fine) EXPECT_LT(met / queries, all / 20) << scene.name;
  }
}

TEST(ObstacleIndex, CellsFollowTheObstaclesNotTheirBox) {
  for (UnevenScene& scene : uneven_scenes()) {
    Obstacles& o = scene.obstacles;
    o.prepare_index();
    const ObstacleIndex& index = o.index();
    const std::string name = scene.name;
    if (!scene.fine) continue;
    if (name == "far pillar" || name == "towns") {
      // The rooms' pillars 5 m apart set the side, not the kilometres between them.
      EXPECT_LT(index.cell(), 10) << name;
      EXPECT_GT(index.cell(), 1) << name;
      // Cells that small over kilometres of empty land: held by the occupied ones alone.
      EXPECT_TRUE(index.hashed()) << name;
    }
    if (name == "wide bounds") {
      EXPECT_LT(index.cell(), 10) << name;
      EXPECT_EQ(index.listed_apart(), 4u) << name;  // the bounds' sides
      EXPECT_FALSE(index.hashed()) << name;         // the grid covers the room alone
    }
    if (name == "spiral, diagonal, pile") {
      EXPECT_LT(index.cell(), 5) << name;           // the legs, not the 3 km box
      EXPECT_EQ(index.listed_apart(), 1u) << name;  // the diagonal wall
    }
    if (name == "pile among walls") {
      // Cells fine enough to part the specks would list each wall in ~100 of them, past
      // the budget: the index keeps the last side within it.
      EXPECT_GT(index.cell(), 1) << name;
    }
    // However wide the scene, only the cells near obstacles hold anything.
    EXPECT_LT(index.occupied_cells(), 20000u) << name;
  }
  // A track's legs keep one per cell over their box (Polyline's nearest-leg search grows
  // its reach from one cell): built so, the spiral's cells are far coarser.
  std::vector<UnevenScene> scenes = uneven_scenes();
  const auto spiral = std::find_if(scenes.begin(), scenes.end(), [](const UnevenScene& s) {
    return std::string(s.name) == "spiral, diagonal, pile";
  });
  ASSERT_NE(spiral, scenes.end());
  Obstacles spread = spiral->obstacles, uncrowded = spread;
  spread.prepare_index(CellSizing::kSpread);
  uncrowded.prepare_index();
  EXPECT_GT(spread.index().cell(), 2 * uncrowded.index().cell());
}

TEST(ObstacleIndex, APileOfOverlappingCirclesIsListedWithinTheBudgetAndFewApart) {
  // 3,000 circles overlapping within a few metres of a spot: cells of one circle each
  // over their box are ~0.15 m wide. Circles 1 m across would be listed in ~60 of them
  // each, past the budget (16 per obstacle and 4,096); circles 4 m across would cross
  // more than kLongCells, and all be listed apart, for every query to meet. The cells
  // grow until both fit.
  for (const Real radius : {0.5f, 2.0f}) {
    std::mt19937 rng(21);
    std::normal_distribution<Real> around(0, 1);
    Obstacles o;
    const int count = 3000;
    for (int i = 0; i < count; ++i) o.add_circle({{around(rng), around(rng)}, radius});
    o.prepare_index();
    ASSERT_TRUE(o.indexed());
    EXPECT_LE(o.index().listings(), 16u * count + 4096) << radius;
    EXPECT_LE(o.index().listed_apart(), ObstacleIndex::kMostApart) << radius;
    EXPECT_GT(o.index().cell(), radius / 2) << radius;
    std::uniform_real_distribution<Real> place(-8, 8), reach(0, 3);
    for (int k = 0; k < 200; ++k) {
      const Vec2 p{place(rng), place(rng)};
      const Real r = reach(rng);
      std::set<int> met;
      o.for_each_near(p, r, [&](int i) { met.insert(i); }, [](int) {});
      for (int i = 0; i < count; ++i) {
        const Circle& c = o.circles()[static_cast<std::size_t>(i)];
        if (length(c.centre - p) - c.radius <= r) EXPECT_TRUE(met.count(i)) << radius << " " << k << " " << i;
      }
    }
  }
}

TEST(ObstacleIndex, PointsAndReachesAtTheCoresBoundStayInTheGrid) {
  // 100 pebbles within a metre: cells of ~0.1 m, so that a point 1e9 m away lies 1e10
  // cells off, beyond what an int holds. The index clamps before it converts (the
  // sanitizer build of tests/run.sh reports a conversion that overflows).
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> place(0, 1);
  Obstacles o;
  for (int i = 0; i < 100; ++i) o.add_circle({{place(rng), place(rng)}, 0.005f});
  o.prepare_index();
  ASSERT_TRUE(o.indexed());
  ASSERT_LT(o.index().cell(), 0.2f);
  for (const Vec2 p : {Vec2{1e9f, 1e9f}, Vec2{-1e9f, 0.5f}, Vec2{0.5f, -1e9f}}) {
    std::set<int> near, all;
    o.for_each_near(p, 10, [&](int i) { near.insert(i); }, [](int) {});
    o.for_each_near(p, 3e9f, [&](int i) { all.insert(i); }, [](int) {});
    EXPECT_TRUE(near.empty());
    EXPECT_EQ(all.size(), 100u);  // a reach past everything meets every pebble
    EXPECT_EQ(o.penetration(p, 1, kAllLayers), 0);
  }
}

TEST(ObstacleIndex, PenetrationAvoidAndRaysAreTheSameAsCheckingEveryObstacle) {
  std::mt19937 rng(5);
  Obstacles plain = crowded_scene(rng);
  rng.seed(5);
  Obstacles indexed = crowded_scene(rng);
  indexed.prepare_index();
  std::uniform_real_distribution<Real> place(-5, 105), radius(0.2f, 1.5f);
  AvoidParams params;
  params.max_distance = 3;
  const Avoid avoid({}, params);
  const SlotDirections dirs(16);
  std::vector<Real> positions, radii;
  for (int k = 0; k < 400; ++k) {
    positions.push_back(place(rng)), positions.push_back(place(rng));
    radii.push_back(radius(rng));
  }
  int touching = 0, inside = 0;
  for (int k = 0; k < 400; ++k) {
    const Vec2 p{positions[2 * k], positions[2 * k + 1]};
    for (LayerMask mask : {LayerMask(1), LayerMask(2), kAllLayers}) {
      const Real a = plain.penetration(p, radii[k], mask), b = indexed.penetration(p, radii[k], mask);
      EXPECT_EQ(a, b) << k;
      touching += a > 0;
      // Within the bounds, only inside a polygon is a disc deeper than its radius.
      inside += a > radii[k] && p.x > -2 && p.x < 102 && p.y > -2 && p.y < 102;
    }
  }
  EXPECT_GT(touching, 20);  // the comparison met real contacts
  EXPECT_GT(inside, 5);     // and points inside polygons
  auto danger = [&](const Behavior& behaviour, const Obstacles& o) {
    SceneView scene;
    scene.agents = 400;
    scene.positions = positions.data();
    scene.radius = radii.data();
    scene.obstacles = &o;
    std::vector<int> agents(400);
    for (int k = 0; k < 400; ++k) agents[k] = k;
    std::vector<Real> rows(400 * 16, 0);
    behaviour.fill(scene, agents.data(), 400, dirs, nullptr, rows.data());
    return rows;
  };
  const std::vector<Real> want = danger(avoid, plain), got = danger(avoid, indexed);
  EXPECT_EQ(0, std::memcmp(want.data(), got.data(), want.size() * sizeof(Real)));
  EXPECT_GT(*std::max_element(want.begin(), want.end()), 0.5f);
  const Rays rays(with<RaysParams>([](auto& p) { p.length = 4; }));
  const std::vector<Real> rays_want = danger(rays, plain), rays_got = danger(rays, indexed);
  EXPECT_EQ(0, std::memcmp(rays_want.data(), rays_got.data(), rays_want.size() * sizeof(Real)));
  EXPECT_GT(*std::max_element(rays_want.begin(), rays_want.end()), 0.5f);
}

TEST(ObstacleIndex, MarksLetAQueryMeetEachObstacleOnce) {
  // The index lists an obstacle in every cell it reaches into, so a query of a long reach
  // meets many more than once; ObstacleMarks (which Avoid and Rays keep) lets each
  // through once per query, circles and walls apart, whatever the obstacles' count.
  std::mt19937 rng(11);
  Obstacles o = crowded_scene(rng);
  o.prepare_index();
  ASSERT_TRUE(o.indexed());
  ObstacleMarks marks;
  int repeats = 0;
  for (int round = 0; round < 2; ++round) {  // the second after a circle was added
    for (const Vec2 p : {Vec2{50, 50}, Vec2{20, 70}, Vec2{50, 50}}) {
      std::multiset<int> circles_met, walls_met;
      std::set<int> circles_let, walls_let;
      marks.start(o);
      o.for_each_near(
          p, 12,
          [&](int i) {
            circles_met.insert(i);
            if (marks.first_circle(i)) EXPECT_TRUE(circles_let.insert(i).second) << i;
          },
          [&](int i) {
            walls_met.insert(i);
            if (marks.first_wall(i)) EXPECT_TRUE(walls_let.insert(i).second) << i;
          });
      EXPECT_EQ(circles_let, std::set<int>(circles_met.begin(), circles_met.end()));
      EXPECT_EQ(walls_let, std::set<int>(walls_met.begin(), walls_met.end()));
      EXPECT_GT(walls_let.size(), 5u);
      repeats += static_cast<int>(circles_met.size() - circles_let.size() + walls_met.size() - walls_let.size());
    }
    o.add_circle({{50, 50}, 1});
    o.prepare_index();
  }
  EXPECT_GT(repeats, 20);  // the index did list obstacles more than once
}

TEST(ObstacleIndex, ChangingTheObstaclesDropsTheIndexAndFewObstaclesHaveNone) {
  std::mt19937 rng(7);
  Obstacles o = crowded_scene(rng);
  o.prepare_index();
  o.add_circle({{50, 50}, 1});  // after the index was built: must still be found
  int seen = 0;
  o.for_each_near({50, 50}, 0.1f, [&](int i) { seen += i == static_cast<int>(o.circles().size()) - 1; }, [](int) {});
  EXPECT_EQ(seen, 1);
  Obstacles few;
  few.add_circle({{0, 0}, 1});
  few.prepare_index();
  int visited = 0;
  few.for_each_near({500, 500}, 1, [&](int) { ++visited; }, [](int) {});
  EXPECT_EQ(visited, 1);  // fewer than kIndexFrom: all are checked
}

TEST(ObstacleIndex, AvoidsOwnCirclesGiveTheSameDangerAsEachCircleAlone) {
  // Avoid indexes its own circles when it has many; the danger must still be the maximum
  // over every circle, each met alone.
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> place(0, 100), size(0.1f, 2);
  std::vector<Circle> circles;
  for (int i = 0; i < 300; ++i) circles.push_back({{place(rng), place(rng)}, size(rng)});
  AvoidParams params;
  params.max_distance = 3;
  const SlotDirections dirs(16);
  std::vector<Real> positions, radii;
  for (int k = 0; k < 200; ++k) {
    positions.push_back(place(rng)), positions.push_back(place(rng));
    radii.push_back(size(rng) / 2);
  }
  std::vector<int> agents(200);
  for (int k = 0; k < 200; ++k) agents[k] = k;
  SceneView scene;
  scene.agents = 200;
  scene.positions = positions.data();
  scene.radius = radii.data();
  auto danger = [&](const Avoid& avoid) {
    std::vector<Real> rows(200 * 16, 0);
    avoid.fill(scene, agents.data(), 200, dirs, nullptr, rows.data());
    return rows;
  };
  const std::vector<Real> got = danger(Avoid(circles, params));
  std::vector<Real> want(200 * 16, 0);
  for (const Circle& c : circles) {
    const std::vector<Real> alone = danger(Avoid({c}, params));
    for (std::size_t i = 0; i < want.size(); ++i) want[i] = std::max(want[i], alone[i]);
  }
  EXPECT_EQ(0, std::memcmp(want.data(), got.data(), want.size() * sizeof(Real)));
  EXPECT_GT(std::count_if(want.begin(), want.end(), [](Real d) { return d > 0; }), 200);  // circles were met
}
