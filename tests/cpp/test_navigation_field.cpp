// The navigation field against geometry worked out by hand, and FollowField's rows.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "contextsteer/behaviors/follow_field.hpp"
#include "contextsteer/navigation/navigation_field.hpp"
#include "params_with.hpp"

using namespace contextsteer;

namespace {

const Bounds kSquare{{0, 0}, {20, 20}};

Real angle_between(Vec2 a, Vec2 b) {
  return std::acos(std::clamp(dot(a, b) / (length(a) * length(b)), Real(-1), Real(1)));
}

}  // namespace

TEST(NavigationField, OnOpenGroundDistancesAndDirectionsAreThoseOfAStraightLine) {
  const Vec2 goal{6.1f, 7.3f};
  const NavigationField field(Obstacles{}, kAllLayers, kSquare, 0.25f, 0, {goal});
  EXPECT_EQ(field.columns(), 80);
  EXPECT_EQ(field.rows(), 80);
  Real worst_distance = 0, worst_angle = 0;
  for (Real x = 0.3f; x < 20; x += 0.7f) {
    for (Real y = 0.2f; y < 20; y += 0.9f) {
      const Vec2 p{x, y};
      const Real straight = length(goal - p);
      if (straight < 1) continue;
      worst_distance = std::max(worst_distance, std::fabs(field.distance_at(p) - straight) / straight);
      worst_angle = std::max(worst_angle, angle_between(field.direction_at(p), goal - p));
    }
  }
  // Second-order marching along the axes: under 1% off (first order: 5%).
  EXPECT_LT(worst_distance, 0.01f);
  EXPECT_GT(worst_distance, 0.0f);
  EXPECT_LT(worst_angle, 4.5f * kPi / 180);
  // At the goal itself there is nowhere left to go.
  EXPECT_NEAR(field.distance_at(goal), 0, 0.2f);
}

TEST(NavigationField, GoesRoundTheOpenEndOfAWall) {
  // A wall from (10, 4) to the top of the area: the way from (5, 10) to (15, 10) passes
  // its lower end, 2 * sqrt(5^2 + 6^2) = 15.62 m, where the straight line is 10 m.
  Obstacles walls;
  walls.add_segment({{10, 4}, {10, 20}});
  const NavigationField field(walls, kAllLayers, kSquare, 0.25f, 0, {{15, 10}});
  const Vec2 start{5, 10};
  EXPECT_GT(field.distance_at(start), 15.62f);
  EXPECT_LT(field.distance_at(start), 15.62f * 1.06f);  // round a corner, fast marching errs a little more
  EXPECT_LT(angle_between(field.direction_at(start), Vec2{5, -6}), 8 * kPi / 180);
  // Just left of the wall, the way runs down along it, not through it.
  const Vec2 along = field.direction_at({9, 12});
  EXPECT_LT(along.y, -0.9f);
  // The cells the wall crosses, and those within half a diagonal of it, are blocked.
  const int column = static_cast<int>(10 / 0.25f);
  EXPECT_TRUE(field.blocked()[static_cast<std::size_t>(48) * field.columns() + column]);
  EXPECT_TRUE(field.blocked()[static_cast<std::size_t>(48) * field.columns() + column - 1]);
  EXPECT_FALSE(field.blocked()[static_cast<std::size_t>(48) * field.columns() + column - 3]);
  EXPECT_FALSE(field.blocked()[static_cast<std::size_t>(8) * field.columns() + column]);  // below its end
}

TEST(NavigationField, AnAgentPushedAgainstAWallIsLedOutOnItsOwnSide) {
  // (9.95, 12) lies in a blocked cell (0.05 m from the wall). Its goal is just across
  // the wall, but the way out is back to the left, the side it is on.
  Obstacles walls;
  walls.add_segment({{10, 4}, {10, 20}});
  const NavigationField field(walls, kAllLayers, kSquare, 0.25f, 0, {{10.5f, 12}});
  EXPECT_TRUE(field.blocked()[static_cast<std::size_t>(12 / 0.25f) * field.columns() + 39]);
  EXPECT_LT(field.direction_at({9.95f, 12}).x, -0.7f);
  EXPECT_LT(field.direction_at({9.9f, 15}).x, -0.7f);
  EXPECT_GT(field.direction_at({10.05f, 12}).x, 0.7f);  // and on the goal's side, to that side
}

TEST(NavigationField, BesideADoorsJambTheFreeCellsLeadThroughTheDoor) {
  // A wall at x = 10 with a door from y = 9.6 to 10.4; the goal beyond it. (9.78, 9.72)
  // lies 0.25 m from the lower jamb, in the room: its nearest cell centre (9.875, 9.625)
  // is blocked (0.13 m from the jamb) and leads out of the wall on its own side, back
  // into the room, but the other corners are free and lead on to the door.
  Obstacles walls;
  walls.add_segment({{10, 0}, {10, 9.6f}});
  walls.add_segment({{10, 10.4f}, {10, 20}});
  const NavigationField field(walls, kAllLayers, kSquare, 0.25f, 0.25f, {{15, 10}});
  const auto blocked = [&](Vec2 p) {
    return field.blocked()[static_cast<std::size_t>(p.y / 0.25f) * field.columns() + static_cast<int>(p.x / 0.25f)];
  };
  ASSERT_TRUE(blocked({9.875f, 9.625f}));
  ASSERT_FALSE(blocked({9.625f, 9.875f}));
  const Vec2 here{9.78f, 9.72f}, door{10, 10};
  const Vec2 way = field.direction_at(here);
  EXPECT_GE(way.x, 0);
  EXPECT_LT(angle_between(way, door - here), 45 * kPi / 180);
  // Where every corner is blocked, the way out of the wall still leads back to its side.
  EXPECT_LT(field.direction_at({9.95f, 5}).x, -0.7f);
}

TEST(NavigationField, ClearanceIsAMarginThatCostsNotAWall) {
  // A door 1 m wide at x = 10; with 1 m of clearance the margins of its jambs overlap
  // all across it, yet the way still goes through, down its middle.
  Obstacles walls;
  walls.add_segment({{10, 0}, {10, 9.5f}});
  walls.add_segment({{10, 10.5f}, {10, 20}});
  const NavigationField wide(walls, kAllLayers, kSquare, 0.25f, 1.0f, {{15, 10}});
  const NavigationField tight(walls, kAllLayers, kSquare, 0.25f, 0, {{15, 10}});
  EXPECT_FALSE(wide.blocked()[static_cast<std::size_t>(40) * wide.columns() + 40]);  // the door's middle
  EXPECT_GT(wide.distance_at({5, 10}), tight.distance_at({5, 10}) + 0.5f);           // the margin costs
  EXPECT_LT(wide.distance_at({5, 10}), 15.0f);
  EXPECT_GT(wide.direction_at({9, 10}).x, 0.95f);
  // Along an open wall, the field leads away from it where there is room: 0.5 m from
  // the wall's far side the way bends off it, without clearance it runs straight on.
  Obstacles wall;
  wall.add_segment({{2, 5}, {18, 5}});
  const NavigationField off(wall, kAllLayers, kSquare, 0.25f, 1.0f, {{18, 10}});
  const NavigationField on(wall, kAllLayers, kSquare, 0.25f, 0, {{18, 10}});
  EXPECT_GT(off.direction_at({6, 5.5f}).y, on.direction_at({6, 5.5f}).y + 0.1f);
}

TEST(NavigationField, TheClearanceCostsNearAGoalToo) {
  // A goal 0.5 m from a wall, inside its 1 m margin: the metre along the wall costs what
  // the margin charges (about 2.8 per metre that close), not its straight length, which
  // the exact seeds round a goal gave before (1.0 for the first metre, then 1.9 for the
  // second).
  Obstacles wall;
  wall.add_segment({{2, 5}, {18, 5}});
  const NavigationField margin(wall, kAllLayers, kSquare, 0.25f, 1.0f, {{10, 5.5f}});
  const NavigationField open(wall, kAllLayers, kSquare, 0.25f, 0, {{10, 5.5f}});
  EXPECT_NEAR(open.distance_at({11, 5.5f}), 1.0f, 0.02f);
  EXPECT_GT(margin.distance_at({11, 5.5f}), 1.8f);
  // Out of the margin the seeds are exact as before: 4 m straight up from the goal, the
  // way leaves the margin at once and costs little more than its length.
  EXPECT_LT(margin.distance_at({10, 9.5f}), 4.3f);
}

TEST(NavigationField, PlacesNoGoalCanReachHaveNeitherDistanceNorDirection) {
  Obstacles room;
  room.add_segment({{12, 12}, {18, 12}});
  room.add_segment({{18, 12}, {18, 18}});
  room.add_segment({{18, 18}, {12, 18}});
  room.add_segment({{12, 18}, {12, 12}});
  const NavigationField field(room, kAllLayers, kSquare, 0.5f, 0, {{2, 2}});
  EXPECT_TRUE(std::isinf(field.distance_at({15, 15})));
  const Vec2 none = field.direction_at({15, 15});
  EXPECT_EQ(none.x, 0.0f);
  EXPECT_EQ(none.y, 0.0f);
  EXPECT_TRUE(std::isfinite(field.distance_at({10, 15})));
}

TEST(NavigationField, CirclesPolygonsBoundsAndLayersBlock) {
  Obstacles scene;
  scene.add_circle({{5, 5}, 2}, 1);
  scene.add_polygon({{12, 2}, {18, 2}, {18, 8}, {12, 8}}, 2);
  scene.set_bounds({{1, 1}, {19, 19}});
  const NavigationField both(scene, kAllLayers, kSquare, 0.5f, 0, {{10, 15}});
  auto blocked_at = [](const NavigationField& f, Vec2 p) {
    return f.blocked()[static_cast<std::size_t>(p.y / f.cell()) * f.columns() + static_cast<int>(p.x / f.cell())] != 0;
  };
  EXPECT_TRUE(blocked_at(both, {5.1f, 5.1f}));   // in the circle
  EXPECT_TRUE(blocked_at(both, {15.1f, 5.1f}));  // deep inside the polygon
  EXPECT_TRUE(blocked_at(both, {0.3f, 10.1f}));  // outside the bounds
  EXPECT_FALSE(blocked_at(both, {10.1f, 5.1f}));
  // Sensing layer 1 only, the polygon (on layer 2) is not there; the bounds always are.
  const NavigationField first(scene, 1, kSquare, 0.5f, 0, {{10, 15}});
  EXPECT_FALSE(blocked_at(first, {15.1f, 5.1f}));
  EXPECT_TRUE(blocked_at(first, {5.1f, 5.1f}));
  EXPECT_TRUE(blocked_at(first, {0.3f, 10.1f}));
  EXPECT_LT(first.distance_at({15, 5}), both.distance_at({15, 4}) + 100);  // reached at all
}

TEST(NavigationField, SeveralGoalsLeadToTheNearest) {
  const NavigationField field(Obstacles{}, kAllLayers, kSquare, 0.25f, 0, {{2, 10}, {18, 10}});
  EXPECT_LT(field.direction_at({6, 10}).x, -0.99f);
  EXPECT_GT(field.direction_at({14, 10}).x, 0.99f);
  EXPECT_NEAR(field.distance_at({14, 10}), 4, 0.1f);
}

TEST(NavigationField, ARidgeBetweenTwoEquallyShortWaysTakesTheNearestCellsSide) {
  // A wall square to the line from (4, 10) to the goal at (16, 10), centred on it: the
  // ways round its two ends are equally long. On the line, between two rows of cell
  // centres, the rows point toward either end; a blend of both would point at the wall.
  Obstacles wall;
  wall.add_segment({{10, 6}, {10, 14}});
  const NavigationField field(wall, kAllLayers, kSquare, 0.5f, 0, {{16, 10}});
  for (Real x : {7.0f, 8.0f, 9.0f}) {  // where the ends lie 100 degrees apart or more
    const Vec2 u = field.direction_at({x, 10});
    EXPECT_NEAR(length(u), 1, 1e-5) << x;
    EXPECT_GT(std::fabs(u.y), 0.6f) << x;  // toward one end of the wall, not straight at it
  }
  // Farther off, the ways still agree enough to blend: east along the ridge, and the path
  // from there goes round one end to the goal.
  EXPECT_GT(field.direction_at({4, 10}).x, 0.8f);
  const std::vector<Vec2> path = field.path_from({4, 10}, 0.1f, 100);
  EXPECT_LE(length(path.back() - Vec2{16, 10}), 0.1f + 0.25f);  // a step, and the blend within half a cell
}

TEST(NavigationField, APathFromAPointFollowsTheFieldToTheGoal) {
  Obstacles walls;
  walls.add_segment({{10, 4}, {10, 20}});
  const NavigationField field(walls, kAllLayers, kSquare, 0.25f, 0, {{15, 10}});
  const std::vector<Vec2> path = field.path_from({5, 10}, 0.1f, 100);
  EXPECT_EQ(path.front().x, 5);
  EXPECT_EQ(path.front().y, 10);
  EXPECT_LE(length(path.back() - Vec2{15, 10}), 0.2f);  // within a step of the goal, blended
  Real travelled = 0, lowest = kInfinity;
  for (std::size_t i = 1; i < path.size(); ++i) {
    EXPECT_NEAR(length(path[i] - path[i - 1]), 0.1f, 1e-5);
    travelled += length(path[i] - path[i - 1]);
    lowest = std::min(lowest, path[i].y);
    if (path[i - 1].x < 10 && path[i].x >= 10) EXPECT_LT(path[i].y, 4) << "through the wall";
  }
  EXPECT_NEAR(travelled, 15.62f, 15.62f * 0.06f);  // round the wall's lower end
  EXPECT_LT(lowest, 4.0f);
  // Bounded by max_length; only the start where no goal can be reached.
  EXPECT_EQ(field.path_from({5, 10}, 0.1f, 1).size(), 11u);
  Obstacles box;
  for (Segment s : {Segment{{2, 2}, {6, 2}}, Segment{{6, 2}, {6, 6}}, Segment{{6, 6}, {2, 6}}, Segment{{2, 6}, {2, 2}}})
    box.add_segment(s);
  const NavigationField shut(box, kAllLayers, kSquare, 0.25f, 0, {{15, 10}});
  EXPECT_EQ(shut.path_from({4, 4}, 0.1f, 100).size(), 1u);
  EXPECT_THROW(field.path_from({5, 10}, 0, 100), std::invalid_argument);
  EXPECT_THROW(field.path_from({5, 10}, 0.1f, -1), std::invalid_argument);
}

TEST(NavigationField, RejectsBadArguments) {
  const Obstacles none;
  EXPECT_THROW(NavigationField(none, kAllLayers, {{0, 0}, {0, 5}}, 1, 0, {{0, 0}}), std::invalid_argument);
  EXPECT_THROW(NavigationField(none, kAllLayers, kSquare, 0, 0, {{1, 1}}), std::invalid_argument);
  EXPECT_THROW(NavigationField(none, kAllLayers, kSquare, 1e-4f, 0, {{1, 1}}), std::invalid_argument);  // 4e10 cells
  EXPECT_THROW(NavigationField(none, kAllLayers, kSquare, 1, -1, {{1, 1}}), std::invalid_argument);
  EXPECT_THROW(NavigationField(none, kAllLayers, kSquare, 1, 0, {}), std::invalid_argument);
  EXPECT_THROW(NavigationField(none, kAllLayers, kSquare, 1, 0, {{21, 1}}), std::invalid_argument);
  EXPECT_THROW(NavigationField(none, kAllLayers, {{-3e9f, 0}, {20, 20}}, 1e9f, 0, {{1, 1}}), std::invalid_argument);
  EXPECT_THROW(NavigationField(none, kAllLayers, kSquare, 1, 2e9f, {{1, 1}}), std::invalid_argument);
  EXPECT_THROW(NavigationField(none, kAllLayers, kSquare, 1, 0, {}, {{{0, 0}, {1, 2e9f}}}), std::invalid_argument);
  Obstacles circle;
  circle.add_circle({{5, 5}, 1});
  EXPECT_THROW(NavigationField(circle, kAllLayers, kSquare, 0.5f, 0, {{5, 5}}), std::invalid_argument);
  EXPECT_NO_THROW(NavigationField(circle, 2, kSquare, 0.5f, 0, {{5, 5}}));  // not on a sensed layer
}

TEST(NavigationField, FromItsCellsItReadsAsTheFieldItWasBuiltAs) {
  Obstacles walls;
  walls.add_segment({{10, 4}, {10, 20}});
  const NavigationField built(walls, kAllLayers, kSquare, 0.5f, 0.3f, {{15, 10}}, {{{1, 1}, {2, 2}}});
  auto from = [&](const std::vector<Real>& distances, const std::vector<Real>& directions,
                  const std::vector<std::uint8_t>& blocked, Real cell = 0.5f, int columns = -1) {
    return NavigationField::from_cells(built.origin(), cell, built.clearance(), columns < 0 ? built.columns() : columns,
                                       built.rows(), built.goals(), built.goal_areas(), distances, directions, blocked);
  };
  const NavigationField loaded = from(built.distances(), built.directions(), built.blocked());
  EXPECT_EQ(loaded.columns(), built.columns());
  EXPECT_EQ(loaded.cell(), built.cell());
  EXPECT_EQ(loaded.goal_areas().size(), 1u);
  auto same = [](Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; };
  for (const Vec2 p : {Vec2{5, 10}, Vec2{9, 12}, Vec2{10, 10}, Vec2{-3, 25}, Vec2{1.5f, 1.5f}}) {
    EXPECT_TRUE(same(loaded.direction_at(p), built.direction_at(p)));
    EXPECT_EQ(loaded.distance_at(p), built.distance_at(p));
  }
  const std::vector<Vec2> path = built.path_from({5, 10}, 0.25f, 100), again = loaded.path_from({5, 10}, 0.25f, 100);
  ASSERT_EQ(again.size(), path.size());
  ASSERT_GT(path.size(), 30u);  // to the goal area, ~8.5 m away in 0.25 m steps
  for (std::size_t i = 0; i < path.size(); ++i) EXPECT_TRUE(same(again[i], path[i]));

  // What no build gives is refused.
  std::vector<Real> distances = built.distances(), directions = built.directions();
  std::vector<std::uint8_t> blocked = built.blocked();
  EXPECT_THROW(from({1, 2}, directions, blocked), std::invalid_argument);  // sizes
  EXPECT_THROW(from(distances, directions, blocked, 0.5f, built.columns() + 1), std::invalid_argument);
  EXPECT_THROW(from(distances, directions, blocked, 0), std::invalid_argument);
  EXPECT_THROW(from(distances, directions, blocked, 1e9f), std::invalid_argument);  // past the bound
  distances[7] = std::nanf("");
  EXPECT_THROW(from(distances, directions, blocked), std::invalid_argument);
  distances[7] = -1;
  EXPECT_THROW(from(distances, directions, blocked), std::invalid_argument);
  distances[7] = kInfinity;  // a cell no goal reaches: allowed
  EXPECT_NO_THROW(from(distances, directions, blocked));
  directions[3] = 1.5f;
  EXPECT_THROW(from(distances, directions, blocked), std::invalid_argument);
  directions[3] = 0;
  blocked[2] = 2;
  EXPECT_THROW(from(distances, directions, blocked), std::invalid_argument);
}

TEST(FollowField, InterestAlongTheFieldArrivingAtTheGoal) {
  Obstacles walls;
  walls.add_segment({{10, 4}, {10, 20}});
  auto field =
      std::make_shared<const NavigationField>(walls, kAllLayers, kSquare, 0.25f, 0, std::vector<Vec2>{{15, 10}});
  const FollowField follow(field, with<FollowFieldParams>([](auto& p) { p.slowing_radius = 4; }));
  std::vector<Real> xy{5, 10, 15.2f, 10, 13, 10};
  SceneView scene;
  scene.agents = 3;
  scene.positions = xy.data();
  const SlotDirections dirs(16);
  std::vector<Real> rows(3 * 16, 0);
  const int agents[] = {0, 1, 2};
  follow.fill(scene, agents, 3, dirs, rows.data(), nullptr);
  // Agent 0: a cosine lobe of peak 1 along the field, round the wall's end.
  const Vec2 u = field->direction_at({5, 10});
  for (int i = 0; i < 16; ++i) EXPECT_NEAR(rows[i], std::max(Real(0), dot(u, dirs[i])), 1e-6);
  // Agent 1 has arrived: nothing. Agent 2, ~2 m away, slows: peak ~2 / 4.
  for (int i = 16; i < 32; ++i) EXPECT_EQ(rows[i], 0.0f);
  EXPECT_NEAR(*std::max_element(rows.begin() + 32, rows.end()), 0.5f, 0.03f);
  EXPECT_GT(rows[32], 0.48f);  // slot 0 points east, at the goal
  EXPECT_THROW(FollowField(nullptr, FollowFieldParams{}), std::invalid_argument);
  EXPECT_THROW(FollowField(field, with<FollowFieldParams>([](auto& p) { p.arrive_radius = -1; })),
               std::invalid_argument);
  EXPECT_THROW(FollowField(field, with<FollowFieldParams>([](auto& p) { p.slowing_radius = 0; })),
               std::invalid_argument);
}
