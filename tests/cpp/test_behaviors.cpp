#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/chase.hpp"

using namespace contextsteer;

namespace {

// One agent at `p` with radius `radius`, optionally among scene obstacles.
struct OneAgent {
  std::vector<Real> pos;
  std::vector<Real> vel{0, 0};
  std::vector<Real> rad;
  std::vector<Circle> circles;
  std::vector<Segment> walls = {};
  SceneView scene(Obstacles& storage) const {
    for (const Circle& c : circles) storage.add_circle(c);
    for (const Segment& w : walls) storage.add_segment(w);
    SceneView s;
    s.agents = 1;
    s.positions = pos.data();
    s.velocities = vel.data();
    s.radius = rad.data();
    s.obstacles = &storage;
    return s;
  }
};

const int kFirstAgent[] = {0};

std::vector<Real> fill_interest(const Behavior& b, const OneAgent& agent, int slots) {
  const SlotDirections dirs(slots);
  std::vector<Real> row(slots, 0);
  Obstacles obstacles;
  b.fill(agent.scene(obstacles), kFirstAgent, 1, dirs, row.data(), nullptr);
  return row;
}

std::vector<Real> fill_danger(const Behavior& b, const OneAgent& agent, int slots) {
  const SlotDirections dirs(slots);
  std::vector<Real> row(slots, 0);
  Obstacles obstacles;
  b.fill(agent.scene(obstacles), kFirstAgent, 1, dirs, nullptr, row.data());
  return row;
}

}  // namespace

TEST(Falloff, CurvesAtTheirDefiningPoints) {
  EXPECT_FLOAT_EQ(falloff_value(Falloff::Linear, 2, 8), 0.75f);
  EXPECT_FLOAT_EQ(falloff_value(Falloff::Step, 7.9f, 8), 1.0f);
  EXPECT_FLOAT_EQ(falloff_value(Falloff::Smoothstep, 4, 8), 0.5f);
  EXPECT_FLOAT_EQ(falloff_value(Falloff::InverseSquare, 8, 8), 1.0f / 17);
  EXPECT_FLOAT_EQ(falloff_value(Falloff::Exponential, 0, 8), 1.0f);
  EXPECT_FLOAT_EQ(falloff_value(Falloff::Linear, 100, kInfinity), 1.0f);
  EXPECT_THROW(parse_falloff("cubic", "falloff"), std::invalid_argument);
}

TEST(Chase, InterestIsTheClippedCosineTimesTheFalloff) {
  ChaseParams p;
  p.max_distance = 10;
  const Chase chase({{3, 4}}, p);  // distance 5: linear falloff 0.5
  const OneAgent agent{{0, 0}, {0, 0}, {0}, {}};
  const auto row = fill_interest(chase, agent, 4);
  EXPECT_NEAR(row[0], 0.6 * 0.5, 1e-6);  // cos to +x is 3/5
  EXPECT_NEAR(row[1], 0.8 * 0.5, 1e-6);
  EXPECT_EQ(row[2], 0.0f);
  EXPECT_EQ(row[3], 0.0f);
}

TEST(Chase, FarTargetsAreIgnoredAndSumHeadsBetweenTargets) {
  ChaseParams p;
  p.max_distance = 4;
  const OneAgent agent{{0, 0}, {0, 0}, {0}, {}};
  EXPECT_EQ(fill_interest(Chase({{5, 0}}, p), agent, 4), std::vector<Real>(4, 0.0f));

  ChaseParams step;
  step.falloff = Falloff::Step;
  const Chase by_max({{1, 0}, {0, 1}}, step);
  step.combine = TargetCombine::Sum;
  const Chase by_sum({{1, 0}, {0, 1}}, step);
  const auto mx = fill_interest(by_max, agent, 8);
  const auto sm = fill_interest(by_sum, agent, 8);
  EXPECT_NEAR(mx[0], 1.0, 1e-6);
  EXPECT_NEAR(mx[1], std::sqrt(0.5), 1e-6);
  EXPECT_NEAR(sm[1], 2 * std::sqrt(0.5), 1e-6);  // the diagonal between both targets wins
  EXPECT_GT(sm[1], sm[0]);
}

TEST(Chase, SidewaysKeepsItsShareOfThePeakAtRightAngles) {
  ChaseParams p;
  p.max_distance = 10;
  p.sideways = 0.25f;
  const OneAgent agent{{0, 0}, {0, 0}, {0}, {}};
  const auto row = fill_interest(Chase({{5, 0}}, p), agent, 8);  // peak 0.5 toward +x
  EXPECT_NEAR(row[0], 0.5, 1e-6);
  EXPECT_NEAR(row[1], 0.5 * (0.25 + 0.75 * std::sqrt(0.5)), 1e-6);
  EXPECT_NEAR(row[2], 0.5 * 0.25, 1e-6);  // at right angles: the share asked for
  EXPECT_NEAR(row[6], 0.5 * 0.25, 1e-6);
  EXPECT_EQ(row[4], 0.0f);  // straight away: 0.25 - 0.75 < 0
  EXPECT_EQ(row[3], 0.0f);
  p.sideways = 0.75f;  // above one half even straight away gets some
  EXPECT_NEAR(fill_interest(Chase({{5, 0}}, p), agent, 8)[4], 0.5 * (0.75 - 0.25), 1e-6);
  p.sideways = 1;
  EXPECT_THROW(Chase({{1, 0}}, p), std::invalid_argument);
  p.sideways = -0.1f;
  EXPECT_THROW(Chase({{1, 0}}, p), std::invalid_argument);
}

TEST(Chase, RefusesNonPositiveDistanceAndNonFiniteTargets) {
  ChaseParams p;
  p.max_distance = 0;
  EXPECT_THROW(Chase({{1, 0}}, p), std::invalid_argument);
  EXPECT_THROW(Chase({{NAN, 0}}, ChaseParams{}), std::invalid_argument);
}

TEST(Avoid, RefusesAKeepRightBeyondAQuarterTurn) {
  AvoidParams p;
  for (Real angle : {-kMaxKeepRight, Real(0), Real(0.3), kMaxKeepRight}) {
    p.keep_right = angle;
    EXPECT_NO_THROW(Avoid({}, p)) << angle;
  }
  for (Real angle : {Real(0.8), Real(-0.8), Real(NAN), Real(INFINITY)}) {
    p.keep_right = angle;
    try {
      Avoid({}, p);
      ADD_FAILURE() << angle;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("keep_right: expected an angle from -0.7853982 to 0.7853982 in radians"),
                std::string::npos);
    }
  }
}

TEST(Avoid, ObstacleBetweenTwoSlotCentresMarksBoth) {
  AvoidParams p;
  p.max_distance = 10;
  p.falloff = Falloff::Step;
  // A point obstacle at 45 degrees with 4 slots: it lies on the edge of slots 0 and 1.
  const Avoid avoid({{{3, 3}, 0}}, p);
  const OneAgent agent{{0, 0}, {0, 0}, {0}, {}};
  EXPECT_EQ(fill_danger(avoid, agent, 4), (std::vector<Real>{1, 1, 0, 0}));
  // Slightly off 45 degrees, a small circle still reaches into both arcs.
  const Avoid off({{{3, 2.9f}, 0.2f}}, p);
  EXPECT_EQ(fill_danger(off, agent, 4), (std::vector<Real>{1, 1, 0, 0}));
}

TEST(Avoid, AngularWidthGrowsWithRadiusAndClearanceShapesDanger) {
  AvoidParams p;
  p.max_distance = 4;
  const Avoid avoid({{{4, 0}, 1}}, p);
  const OneAgent agent{{0, 0}, {0, 0}, {1}, {}};
  // reach = 2, d = 4: half-width 30 deg; with 12 slots (30 deg apart, arcs of +-15 deg)
  // slots -1, 0 and 1 overlap [-30, 30] (slot 1 spans [15, 45]); slot 2 spans [45, 75].
  // Clearance 2 of 4: linear danger 0.5.
  const auto row = fill_danger(avoid, agent, 12);
  EXPECT_NEAR(row[0], 0.5, 1e-6);
  EXPECT_NEAR(row[1], 0.5, 1e-6);
  EXPECT_NEAR(row[11], 0.5, 1e-6);
  EXPECT_EQ(row[2], 0.0f);
  EXPECT_EQ(row[10], 0.0f);
}

TEST(Avoid, TouchingCoversTheOpenHalfPlaneTowardItAndFarObstaclesAreIgnored) {
  AvoidParams p;
  p.max_distance = 1;
  const OneAgent touching{{0, 0}, {0, 0}, {0.5f}, {{{1, 0}, 0.6f}}};
  const Avoid avoid({}, p);
  // Scene obstacle, overlapping: its arc reaches past 90 degrees, but north and south lead
  // along its tangent, not into it, and stay open.
  EXPECT_EQ(fill_danger(avoid, touching, 8), (std::vector<Real>{1, 1, 0, 0, 0, 0, 0, 1}));
  // Just clear of it (gap 1 cm): the arc is as wide, the open slots the same.
  const OneAgent almost{{0, 0}, {0, 0}, {0.5f}, {{{1.11f, 0}, 0.6f}}};
  EXPECT_EQ(fill_danger(avoid, almost, 8)[2], 0);
  EXPECT_GT(fill_danger(avoid, almost, 8)[1], 0.98f);
  // Touching neighbors on opposite sides (east and west) leave north and south open.
  const OneAgent between{{0, 0}, {0, 0}, {0.5f}, {{{1, 0}, 0.5f}, {{-1, 0}, 0.5f}}};
  EXPECT_EQ(fill_danger(avoid, between, 16), (std::vector<Real>{1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1}));
  const OneAgent far{{0, 0}, {0, 0}, {0.5f}, {{{5, 0}, 0.6f}}};
  EXPECT_EQ(fill_danger(avoid, far, 8), std::vector<Real>(8, 0.0f));
  AvoidParams own_only = p;
  own_only.world_obstacles = false;
  EXPECT_EQ(fill_danger(Avoid({}, own_only), touching, 8), std::vector<Real>(8, 0.0f));
  EXPECT_THROW(Avoid({{{0, 2e9f}, 1}}, p), std::invalid_argument);  // beyond the core's bound of +-1e9
}

TEST(Avoid, AWallAlongsideLeavesTheParallelSlotsOpen) {
  AvoidParams p;
  p.max_distance = 3;
  // A long wall 1.5 m north of the agent, running east-west.
  const OneAgent agent{{0, 0}, {0, 0}, {0.5f}, {}, {{{-50, 1.5f}, {50, 1.5f}}}};
  const auto row = fill_danger(Avoid({}, p), agent, 8);
  EXPECT_NEAR(row[2], 1 - 1.0 / 3, 1e-5);  // north: clearance 1 of 3
  // East and west run along the wall: only their arcs' upper edges (22.5 degrees above
  // the wall's direction) reach it, at 1 / sin(22.5), far more than the clearance.
  EXPECT_NEAR(row[0], 1 - (1 / std::sin(22.5 * M_PI / 180)) / 3, 1e-4);
  EXPECT_NEAR(row[4], row[0], 1e-6);
  EXPECT_LT(row[0], 0.15f);
  EXPECT_EQ(row[6], 0.0f);  // south, away from it
  EXPECT_EQ(row[5], 0.0f);
  // North-east: the wall's closest point (due north) lies outside that slot's arc
  // [22.5, 67.5] degrees, so the least distance is along the 67.5-degree edge ray:
  // 1 / sin(67.5) to the wall inflated by the agent's radius.
  EXPECT_NEAR(row[1], 1 - (1 / std::sin(67.5 * M_PI / 180)) / 3, 1e-4);
}

TEST(Avoid, ShortWallInsideOneArcIsNotMissed) {
  AvoidParams p;
  p.max_distance = 20;
  p.falloff = Falloff::Step;
  // A 0.4 m wall 10 m east subtends about 2.3 degrees, far inside slot 0's 90-degree arc.
  const OneAgent agent{{0, 0}, {0, 0}, {0}, {}, {{{10, -0.2f}, {10, 0.2f}}}};
  EXPECT_EQ(fill_danger(Avoid({}, p), agent, 4), (std::vector<Real>{1, 0, 0, 0}));
}

TEST(Avoid, SensesOnlyTheLayersOfItsMask) {
  AvoidParams p;
  Obstacles obstacles;
  obstacles.add_circle({{2, 0}, 0.5f}, 2u);  // on layer 2 only
  std::vector<Real> pos{0, 0}, vel{0, 0}, rad{0.5f};
  LayerMask mask = 1u;
  SceneView s;
  s.agents = 1;
  s.positions = pos.data();
  s.velocities = vel.data();
  s.radius = rad.data();
  s.sense_mask = &mask;
  s.obstacles = &obstacles;
  const SlotDirections dirs(8);
  std::vector<Real> row(8, 0);
  Avoid({}, p).fill(s, kFirstAgent, 1, dirs, nullptr, row.data());
  EXPECT_EQ(row, std::vector<Real>(8, 0.0f));
  mask = 3u;
  Avoid({}, p).fill(s, kFirstAgent, 1, dirs, nullptr, row.data());
  EXPECT_GT(row[0], 0.0f);
}
