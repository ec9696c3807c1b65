// A field marched again in pieces gives the whole march's field, and many goal points
// seed it as the same points do one by one; the widest way against passages measured by
// hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "contextsteer/navigation/navigation_field.hpp"
#include "contextsteer/navigation/widest_way.hpp"

using namespace contextsteer;

namespace {

// A room of 20 x 10 m with a wall across at x = 10, open between y = 4 and 6.
Obstacles door_room() {
  Obstacles o;
  o.add_segments({{{10, 0}, {10, 4}}, {{10, 6}, {10, 10}}});
  return o;
}

const Bounds kRoom{{0, 0}, {20, 10}};

}  // namespace

TEST(FieldRemarch, InPiecesOfAnySizeItIsTheWholeMarch) {
  const NavigationField built(door_room(), kAllLayers, kRoom, 0.25f, 0.3f, {{18, 5}});
  std::vector<Real> extra(built.distances().size());
  for (std::size_t i = 0; i < extra.size(); ++i) extra[i] = Real(i % 7) * Real(0.3);
  NavigationField whole = built;
  NavigationField::MarchBuffers buffers;
  whole.remarch(extra.data(), buffers);
  for (const std::size_t budget : {std::size_t(1), std::size_t(37), std::size_t(1000)}) {
    NavigationField pieces = built;
    NavigationField::MarchBuffers own;
    pieces.begin_remarch(extra.data(), own);
    int calls = 1;
    while (!pieces.advance_remarch(own, budget)) {
      ++calls;
      EXPECT_EQ(pieces.distances(), built.distances());  // unchanged until finished
    }
    pieces.finish_remarch(own);
    EXPECT_GT(calls, budget == 1000 ? 2 : 20);
    EXPECT_EQ(own.popped, buffers.popped);
    EXPECT_EQ(pieces.distances(), whole.distances());
    EXPECT_EQ(pieces.directions(), whole.directions());
  }
  EXPECT_NE(whole.distances(), built.distances());
}

TEST(FieldRemarch, ManyGoalPointsSeedAsEachOneDoes) {
  // Goal points on a line of the open room, some cells holding several: the field of
  // all of them at once is, cell for cell, the least of the fields of each.
  std::vector<Vec2> goals;
  for (int k = 0; k < 40; ++k) goals.push_back({Real(2 + 0.13 * k), Real(2 + 0.05 * k)});
  const Obstacles none;
  const Bounds area{{0, 0}, {12, 8}};
  const NavigationField all(none, kAllLayers, area, 0.25f, 0, goals);
  for (std::size_t i = 0; i < all.distances().size(); ++i) {
    Real nearest = kInfinity;
    for (const Vec2 g : goals) {
      const Vec2 c{Real(0.125) + Real(0.25) * Real(i % all.columns()),
                   Real(0.125) + Real(0.25) * Real(i / all.columns())};
      nearest = std::min(nearest, length(c - g));
    }
    EXPECT_NEAR(all.distances()[i], nearest, 0.02f + 0.008f * nearest) << "cell " << i;
  }
}

TEST(WidestWay, IsHalfTheNarrowestDoorOnTheWay) {
  const std::vector<Bounds> goal{{{17, 3}, {19, 7}}};
  const std::vector<Vec2> starts{{2, 5}, {3, 8}};
  // The door is 2 m wide: a way keeps 1 m from its jambs at most (less a cell).
  const Real w = widest_way(door_room(), kRoom, 0.05f, goal, starts, 3);
  EXPECT_NEAR(w, 1.0f, 0.05f);
  // Capped: a way that keeps the cap everywhere reports the cap.
  EXPECT_FLOAT_EQ(widest_way(door_room(), kRoom, 0.05f, goal, starts, 0.5f), 0.5f);
  // Starts beyond the goal, on its side of the wall: the door does not count.
  EXPECT_GT(widest_way(door_room(), kRoom, 0.05f, goal, {{15, 5}}, 3), 1.9f);
  // A closed wall: no way at all.
  Obstacles closed;
  closed.add_segments({{{10, 0}, {10, 10}}});
  EXPECT_EQ(widest_way(closed, kRoom, 0.05f, goal, starts, 3), 0);
  // No start: the cap.
  EXPECT_EQ(widest_way(door_room(), kRoom, 0.05f, goal, {}, 3), 3);
}

TEST(WidestWay, RejectsBadArgumentsByName) {
  const std::vector<Bounds> goal{{{17, 3}, {19, 7}}};
  auto message = [&](auto&& call) {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message([&] { widest_way(door_room(), kRoom, 0, goal, {{2, 5}}, 1); }).rfind("cell:", 0), 0u);
  EXPECT_EQ(message([&] { widest_way(door_room(), kRoom, 0.1f, {}, {{2, 5}}, 1); }).rfind("goal_areas:", 0), 0u);
  EXPECT_EQ(message([&] { widest_way(door_room(), kRoom, 0.1f, goal, {{2, 5}}, -1); }).rfind("cap:", 0), 0u);
  EXPECT_EQ(message([&] { widest_way(door_room(), {{0, 0}, {0, 10}}, 0.1f, goal, {{2, 5}}, 1); }).rfind("area:", 0),
            0u);
  EXPECT_EQ(
      message([&] { widest_way(door_room(), {{0, 0}, {1e6f, 1e6f}}, 1e-3f, goal, {{2, 5}}, 1); }).rfind("cell:", 0),
      0u);
}
