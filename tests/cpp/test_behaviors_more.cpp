// The behaviours beyond Chase and Avoid, on small hand-computed cases. The file is long
// because it holds a few cases for each of thirteen behaviours, read one after another.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include "contextsteer/behaviors/arrive_leave.hpp"
#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/behaviors/flee.hpp"
#include "contextsteer/behaviors/flocking.hpp"
#include "contextsteer/behaviors/follow_path.hpp"
#include "contextsteer/behaviors/forward.hpp"
#include "contextsteer/behaviors/racing_lanes.hpp"
#include "contextsteer/behaviors/rays.hpp"
#include "contextsteer/behaviors/support/falloff.hpp"
#include "contextsteer/behaviors/time_to_collision.hpp"
#include "contextsteer/behaviors/wander.hpp"
#include "contextsteer/geometry/geometry.hpp"
#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/runtime/thread_pool.hpp"
#include "contextsteer/scene/evaluation_cache.hpp"
#include "params_with.hpp"

using namespace contextsteer;

namespace {

// Agents at `xy` (interleaved) with velocities `v`, headings `h` and radius 0.5, among
// `obstacles`, with a grid over them.
struct Scene {
  std::vector<Real> xy, v, h, r;
  Obstacles obstacles;
  SpatialGrid grid;
  SceneView view;

  Scene(std::vector<Real> positions, std::vector<Real> velocities = {}, std::vector<Real> headings = {})
      : xy(std::move(positions)), v(std::move(velocities)), h(std::move(headings)) {
    const int n = static_cast<int>(xy.size() / 2);
    if (v.empty()) v.assign(xy.size(), 0);
    if (h.empty()) h.assign(n, 0);
    r.assign(n, 0.5f);
  }
  const SceneView& build() {
    const int n = static_cast<int>(xy.size() / 2);
    grid.build(xy.data(), n, 5.0f, r.data());
    view.agents = n;
    view.positions = xy.data();
    view.velocities = v.data();
    view.headings = h.data();
    view.radius = r.data();
    view.max_radius = 0.5f;
    view.obstacles = &obstacles;
    view.grid = &grid;
    return view;
  }
};

std::vector<Real> interest_of(const Behavior& b, Scene& s, int agent, int slots) {
  const SlotDirections dirs(slots);
  std::vector<Real> row(slots, 0);
  const int agents[] = {agent};
  b.fill(s.build(), agents, 1, dirs, row.data(), nullptr);
  return row;
}

std::vector<Real> danger_of(const Behavior& b, Scene& s, int agent, int slots) {
  const SlotDirections dirs(slots);
  std::vector<Real> row(slots, 0);
  const int agents[] = {agent};
  b.fill(s.build(), agents, 1, dirs, nullptr, row.data());
  return row;
}

}  // namespace

// An agent's own target or threat (a point, another agent, or where it stands) steers it
// to the bit as the same point given to it as a shared one.
TEST(TargetLobes, AnAgentsOwnTargetGivesTheBitsOfTheSamePointSharedByIt) {
  const int n = 150;
  const SlotDirections dirs(16);
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> u(-30, 30);
  std::vector<Real> positions(2 * n), targets(2 * n), velocities(2 * n, 0);
  std::vector<int> target_index(n, -1);
  for (int a = 0; a < n; ++a) {
    positions[2 * a] = u(rng), positions[2 * a + 1] = u(rng);
    targets[2 * a] = u(rng), targets[2 * a + 1] = u(rng);
    if (a % 7 == 3) target_index[a] = (a * 5) % n;                                                  // another agent
    if (a % 11 == 5) targets[2 * a] = positions[2 * a], targets[2 * a + 1] = positions[2 * a + 1];  // on it
  }
  SceneView scene;
  scene.agents = n;
  scene.positions = positions.data();
  scene.velocities = velocities.data();
  scene.targets = targets.data();
  scene.target_index = target_index.data();
  std::vector<int> agents(n);
  for (int a = 0; a < n; ++a) agents[a] = (a * 37) % n;  // not in index order
  // own(own_target) and shared(point) build the same behaviour either way.
  auto expect_same_bits = [&](auto own, auto shared, const char* what) {
    std::vector<Real> rows(static_cast<std::size_t>(n) * dirs.slots(), 0);
    own()->fill(scene, agents.data(), n, dirs, rows.data(), nullptr);
    for (int k = 0; k < n; ++k) {
      std::vector<Real> row(dirs.slots(), 0);
      shared(scene.target_of(agents[k]))->fill(scene, &agents[k], 1, dirs, row.data(), nullptr);
      for (int i = 0; i < dirs.slots(); ++i) {
        ASSERT_EQ(rows[static_cast<std::size_t>(k) * dirs.slots() + i], row[i]) << what << " agent " << agents[k];
      }
    }
  };
  for (Real sideways : {Real(0), Real(0.3)}) {
    for (Real max_distance : {kInfinity, Real(25)}) {
      ChaseParams p;
      p.max_distance = max_distance;
      p.sideways = sideways;
      p.falloff = Falloff::Smoothstep;
      ChaseParams own = p;
      own.agent_target = true;
      expect_same_bits([&] { return std::make_unique<Chase>(std::vector<Vec2>{}, own); },
                       [&](Vec2 t) { return std::make_unique<Chase>(std::vector<Vec2>{t}, p); }, "chase");
    }
    FleeParams flee;
    flee.radius = 20, flee.sideways = sideways;
    FleeParams own_flee = flee;
    own_flee.agent_target = true;
    expect_same_bits([&] { return std::make_unique<Flee>(std::vector<Vec2>{}, own_flee); },
                     [&](Vec2 t) { return std::make_unique<Flee>(std::vector<Vec2>{t}, flee); }, "flee");
    ArriveParams arrive;
    arrive.target_radius = 1, arrive.slowing_radius = 10, arrive.sideways = sideways;
    ArriveParams own_arrive = arrive;
    own_arrive.agent_target = true;
    expect_same_bits([&] { return std::make_unique<Arrive>(std::vector<Vec2>{}, own_arrive); },
                     [&](Vec2 t) { return std::make_unique<Arrive>(std::vector<Vec2>{t}, arrive); }, "arrive");
  }
}

TEST(Flee, LobeAwayScaledByFalloff) {
  Scene s({0, 0});
  const auto row = interest_of(Flee({{2, 0}}, with<FleeParams>([](auto& p) { p.radius = 8; })), s, 0, 4);
  EXPECT_NEAR(row[2], 0.75, 1e-6);  // west, away from the threat; 1 - 2/8
  EXPECT_EQ(row[0], 0.0f);
}

TEST(Forward, FollowsTheHeading) {
  Scene s({0, 0}, {}, {static_cast<Real>(M_PI / 2)});
  const auto row = interest_of(Forward(with<ForwardParams>([](auto& p) { p.strength = 0.8f; })), s, 0, 4);
  EXPECT_NEAR(row[1], 0.8, 1e-6);
  EXPECT_NEAR(row[0], 0.0, 1e-6);
}

TEST(ArriveLeave, StrengthRamps) {
  Scene s({0, 0});
  const auto arrive = with<ArriveParams>([](auto& p) { p.target_radius = 0.5f, p.slowing_radius = 4; });
  const auto leave = with<LeaveParams>([](auto& p) { p.escape_radius = 1, p.danger_radius = 4; });
  EXPECT_NEAR(interest_of(Arrive({{2, 0}}, arrive), s, 0, 4)[0], 0.5, 1e-6);
  EXPECT_EQ(interest_of(Arrive({{0.3f, 0}}, arrive), s, 0, 4)[0], 0.0f);
  EXPECT_NEAR(interest_of(Leave({{2, 0}}, leave), s, 0, 4)[2], 0.5, 1e-6);
  EXPECT_NEAR(interest_of(Leave({{0.5f, 0}}, leave), s, 0, 4)[2], 1.0, 1e-6);
}

TEST(Flocking, SeparationAlignmentCohesion) {
  Scene s({0, 0, 1, 0, 0, 2}, {0, 0, 1, 0, 0, 3});
  const auto sep = interest_of(Separation(with<SeparationParams>([](auto& p) { p.radius = 4; })), s, 0, 4);
  EXPECT_NEAR(sep[2], 0.75, 1e-6);  // away from the neighbor 1 m east
  EXPECT_NEAR(sep[3], 0.5, 1e-6);   // away from the one 2 m north
  const auto ali = interest_of(Alignment(with<AlignmentParams>([](auto& p) { p.radius = 4; })), s, 0, 4);
  EXPECT_NEAR(ali[0], 0.5, 1e-6);  // mean of (1, 0) and (0, 1)
  EXPECT_NEAR(ali[1], 0.5, 1e-6);
  const auto coh = interest_of(Cohesion(with<CohesionParams>([](auto& p) { p.radius = 4; })), s, 0, 4);
  EXPECT_NEAR(coh[1], 1.0 / 4, 1e-6);  // toward (0.5, 1): dot with north is 1 / |c|, times |c| / 4
}

TEST(Wander, SameSeedSameOffsetsDifferentSeedsDiffer) {
  const auto seeded = [](std::uint64_t seed) {
    return with<WanderParams>([seed](auto& p) { p.seed = seed, p.rate = 1; });
  };
  const Wander a(seeded(5)), b(seeded(5)), c(seeded(6));
  bool differs = false;
  for (double t = 0; t < 10; t += 0.37) {
    EXPECT_EQ(a.offset(3, t), b.offset(3, t));
    EXPECT_LE(std::fabs(a.offset(3, t)), 1.0f);
    differs |= a.offset(3, t) != c.offset(3, t);
  }
  EXPECT_TRUE(differs);
  EXPECT_NE(a.offset(3, 2.5), a.offset(4, 2.5));  // agents wander apart
}

TEST(FollowPath, AimsAheadOfTheClosestPoint) {
  const auto params = with<FollowPathParams>([](auto& p) { p.slowing_radius = 4, p.window = 3; });
  const FollowPath path({{0, 0}, {10, 0}, {10, 10}}, params);
  const Real anywhere = std::numeric_limits<Real>::quiet_NaN();
  bool end = false;
  EXPECT_NEAR(path.progress({3, 1}, anywhere), 3, 1e-5);
  const Vec2 aim = path.aim(path.progress({3, 1}, anywhere), end);
  EXPECT_NEAR(aim.x, 5, 1e-5);
  EXPECT_NEAR(aim.y, 0, 1e-5);
  EXPECT_FALSE(end);
  const Vec2 corner = path.aim(path.progress({9.5f, -1}, anywhere), end);  // past the corner along the path
  EXPECT_NEAR(corner.x, 10, 1e-5);
  EXPECT_NEAR(corner.y, 1.5f, 1e-5);
  path.aim(path.progress({10, 9}, anywhere), end);
  EXPECT_TRUE(end);
}

TEST(FollowPath, ProgressOnlyMovesForwardWithinItsWindow) {
  // A hairpin: out along y = 0, back along y = 1. From (5, 0.6) the return leg is the
  // closer, 13 m further along the path.
  const auto params = with<FollowPathParams>([](auto& p) { p.slowing_radius = 4, p.window = 3; });
  const FollowPath path({{0, 0}, {10, 0}, {10, 1}, {0, 1}}, params);
  const Real anywhere = std::numeric_limits<Real>::quiet_NaN();
  EXPECT_NEAR(path.progress({5, 0.6f}, anywhere), 16, 1e-5);
  EXPECT_NEAR(path.progress({5, 0.6f}, 4), 5, 1e-5);  // on the way out: stays on the first leg
  EXPECT_NEAR(path.progress({5, 0.6f}, 4.5f), 5, 1e-5);
  EXPECT_NEAR(path.progress({9, 0.6f}, 4), 7, 1e-5);    // as far as the window reaches, 4 + 3
  EXPECT_NEAR(path.progress({1, 0.4f}, 4), 4, 1e-5);    // pushed back: progress stays
  EXPECT_NEAR(path.progress({5, 0.6f}, 14), 16, 1e-5);  // on the way back: the return leg
  EXPECT_NEAR(path.progress({5, -3}, 30), 21, 1e-5);    // past the end: the end
  EXPECT_THROW(FollowPath({{0, 0}, {1, 0}}, with<FollowPathParams>([](auto& p) { p.window = 0; })),
               std::invalid_argument);
}

TEST(FollowPath, ALoopWrapsAroundAndNeverEnds) {
  // A 10 m square, 40 m round; the closing leg runs from (0, 10) down to (0, 0).
  const auto params = with<FollowPathParams>([](auto& p) { p.slowing_radius = 4, p.window = 3, p.loop = true; });
  const FollowPath loop({{0, 0}, {10, 0}, {10, 10}, {0, 10}}, params);
  EXPECT_NEAR(loop.length(), 40, 1e-5);
  EXPECT_NEAR(loop.progress({-0.5f, 5}, std::numeric_limits<Real>::quiet_NaN()), 35, 1e-5);
  EXPECT_NEAR(loop.progress({1, -0.5f}, 39), 1, 1e-5);     // on into the next lap, wrapped
  EXPECT_NEAR(loop.progress({5, 0.5f}, 79), 2, 1e-4);      // 79 is 39 a lap on; the window ends at 42
  EXPECT_NEAR(loop.progress({0.2f, 1}, 38.5f), 39, 1e-5);  // still before the corner
  bool end = true;
  const Vec2 aim = loop.aim(39, end);  // 2 m on: past the first waypoint
  EXPECT_FALSE(end);
  EXPECT_NEAR(aim.x, 1, 1e-5);
  EXPECT_NEAR(aim.y, 0, 1e-5);
  EXPECT_THROW(FollowPath({{1, 1}}, params), std::invalid_argument);
}

TEST(Rays, BinaryAndDistance) {
  Scene s({0, 0});
  s.r = {0};
  s.obstacles.add_circle({{4, 0}, 1});
  EXPECT_EQ(danger_of(Rays(with<RaysParams>([](auto& p) { p.mode = RayMode::Binary; })), s, 0, 8),
            (std::vector<Real>{1, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_NEAR(danger_of(Rays(with<RaysParams>([](auto& p) { p.mode = RayMode::Distance; })), s, 0, 8)[0], 1 - 3.0 / 5,
              1e-6);
}

TEST(Rays, EqualCastingEveryRayAtEveryObstacle) {
  // Rays casts 8 or 4 rays at a time where the slot count allows (skipping those of which
  // none may meet the disc round a wall), else one by one, skipping the rays that miss
  // the disc round an obstacle; it tests once per obstacle whether the agent is inside.
  // The rows must still be those of casting each slot's ray at every obstacle, at every
  // width. Walls of every length and circles about the
  // agent; then, alone, walls each met by one ray barely (a capsule side parallel to the
  // ray, one radius off it; a wall across the ray ending just short of it, whose tip's
  // cap the ray meets near the edge of the disc round the wall); circles and walls whose
  // nearest hit lies a hair short of or past the rays' end (Rays leaves out the obstacles
  // out of reach); then a wall under the agent, and a circle it overlaps.
  std::mt19937 rng(23);
  std::uniform_real_distribution<Real> place(-8, 8), unit(0, 1);
  const SlotDirections dirs16(16);
  const Real length = 6, radius = 0.4f;
  Scene scattered({0, 0}), sides({0, 0}), tips({0, 0}), rim({0, 0}), under({0, 0}), overlapped({0, 0});
  for (int i = 0; i < 40; ++i) {
    const Vec2 a{place(rng), place(rng)};
    scattered.obstacles.add_segment({a, a + Vec2{place(rng), place(rng)} * unit(rng)});
    scattered.obstacles.add_circle({{place(rng), place(rng)}, unit(rng)});
  }
  for (int i = 0; i < 16; i += 2) {  // each wall met by its ray alone
    const Vec2 d = dirs16[i], n{-d.y, d.x};
    if (i % 4 == 0) sides.obstacles.add_segment({n * radius + d * 2, n * radius + d * 5});
    // The ray passes 1% of the radius inside the tip's cap; or 0.01%, of a wall so short
    // that no other ray comes near it (the rays are cast 8 or 4 at a time, and skipped
    // together only where none may meet the disc round the wall).
    const Real inside = i % 4 == 0 ? Real(0.99) : Real(0.9999), across = i % 4 == 0 ? 2 : Real(0.2);
    tips.obstacles.add_segment({d * 3 - n * (inside * radius + across), d * 3 - n * (inside * radius)});
  }
  for (int i = 0; i < 16; i += 2) {
    const Vec2 d = dirs16[i], n{-d.y, d.x};
    const Real end = length + (i % 4 == 0 ? -1 : 1) * Real(2e-5) * length;  // the nearest hit along ray i
    if (i % 8 < 4) {
      rim.obstacles.add_circle({d * (end + radius + Real(0.5)), 0.5f});
    } else {
      rim.obstacles.add_segment({d * (end + radius) - n * Real(0.2), d * (end + radius) + n * Real(0.2)});
    }
  }
  under.obstacles.add_segment({{-1, 0.2f}, {1, 0.2f}});
  under.obstacles.add_circle({{5, 0}, 1});
  overlapped.obstacles.add_circle({{4, 1}, 1});
  overlapped.obstacles.add_circle({{0.5f, 0}, 0.3f});
  overlapped.obstacles.add_segment({{-3, -3}, {3, -3}});
  const int previous = simd_width_limit.load();
  for (const int width : {8, 4, 1}) {
    simd_width_limit = width;
    for (const int slots : {16, 12, 10}) {  // 8 or 4 at a time, 4 at a time, one by one
      const SlotDirections dirs(slots);
      for (Scene* s : {&scattered, &sides, &tips, &rim, &under, &overlapped}) {
        s->r = {radius};
        for (const Vec2 at : {Vec2{0, 0}, Vec2{3, -2}, Vec2{-5, 4}}) {
          if (s != &scattered && at.x != 0) continue;  // the walls are placed for the origin
          s->xy = {at.x, at.y};
          for (RayMode mode : {RayMode::Binary, RayMode::Distance}) {
            std::vector<Real> want(slots, 0);
            for (int i = 0; i < slots; ++i) {
              Real t = kInfinity;
              for (const Circle& c : s->obstacles.circles()) {
                t = std::min(t, ray_circle_distance(at, dirs[i], c.centre, c.radius + radius));
              }
              for (const Segment& w : s->obstacles.walls())
                t = std::min(t, ray_capsule_distance(at, dirs[i], w, radius));
              if (t <= length) want[i] = mode == RayMode::Binary ? Real(1) : 1 - t / length;
            }
            if (slots == 16 && (s == &sides || s == &tips)) {
              for (int i = 0; i < slots; i += s == &tips ? 2 : 4) EXPECT_GT(want[i], 0) << i;
            }
            if (slots == 16 && s == &rim) {
              for (int i = 0; i < slots; i += 2) EXPECT_EQ(want[i] > 0, i % 4 == 0) << i;
            }
            if (s == &under || s == &overlapped) EXPECT_EQ(want, std::vector<Real>(slots, 1)) << slots;
            const auto rays = with<RaysParams>([&](auto& p) { p.length = length, p.mode = mode; });
            EXPECT_EQ(danger_of(Rays(rays), *s, 0, slots), want)
                << "width " << width << ", " << slots << " slots, at " << at.x << " " << at.y;
          }
        }
      }
    }
  }
  simd_width_limit = previous;
}

TEST(Avoid, WallDangerIsThatOfItsEdgeRaysAtEveryWidth) {
  // Avoid casts the edge rays of every slot at a wall near the agent 8 or 4 at a time
  // where the slot count allows: a slot gets the nearest hit of its two edge rays (the
  // clearance on the slot of the wall's bearing), through the falloff. The rows must be
  // those of casting each edge ray alone with ray_capsule_distance, at every width. Walls
  // of every length and slant round the agent (none touching it), and walls along a slot
  // edge one radius off it.
  std::mt19937 rng(29);
  std::uniform_real_distribution<Real> place(-4, 4), unit(0, 1);
  const Real radius = 0.4f, max_distance = 3;
  Scene scene({0, 0});
  scene.r = {radius};
  const Vec2 places[] = {{0, 0}, {1.5f, -0.5f}, {-2, 2.5f}, {0.3f, 3}};
  auto add_if_clear = [&](const Segment& wall) {  // of an agent at any of the places
    bool clear = true;
    for (const Vec2 at : places) clear &= length(closest_point_on_segment(wall, at) - at) > radius + 0.05f;
    if (clear) scene.obstacles.add_segment(wall);
  };
  const SlotDirections dirs16(16);
  for (int i = 0; i < 16; i += 5) {
    const Vec2 d = dirs16.edge(i), n{-d.y, d.x};
    add_if_clear({n * radius + d * 1, n * radius + d * 2.5f});
  }
  ASSERT_GE(scene.obstacles.walls().size(), 3u);
  while (scene.obstacles.walls().size() < 30) {
    const Vec2 a{place(rng), place(rng)};
    add_if_clear({a, a + Vec2{place(rng), place(rng)} * unit(rng)});
  }
  const Falloff falloff = Falloff::Linear;
  const int previous = simd_width_limit.load();
  for (const int width : {8, 4, 1}) {
    simd_width_limit = width;
    for (const int slots : {16, 12, 10}) {
      const SlotDirections dirs(slots);
      for (const Vec2 at : places) {
        scene.xy = {at.x, at.y};
        std::vector<Real> want(slots, 0);
        for (const Segment& wall : scene.obstacles.walls()) {
          const Vec2 to = closest_point_on_segment(wall, at) - at;
          const Real d = length(to), clearance = std::max(Real(0), d - radius);
          if (clearance > max_distance) continue;
          const int bearing = static_cast<int>(std::lround(dirs.slot_of_angle(std::atan2(to.y, to.x)))) % slots;
          for (int i = 0; i < slots; ++i) {
            const Real left = ray_capsule_distance(at, dirs.edge(i), wall, radius);
            const Real right = ray_capsule_distance(at, dirs.edge((i + 1) % slots), wall, radius);
            const Real t = i == bearing ? clearance : std::min(left, right);
            if (t <= max_distance) want[i] = std::max(want[i], falloff_value(falloff, t, max_distance));
          }
        }
        AvoidParams params;
        params.max_distance = max_distance;
        params.falloff = falloff;
        EXPECT_EQ(danger_of(Avoid({}, params), scene, 0, slots), want)
            << "width " << width << ", " << slots << " slots, at " << at.x << " " << at.y;
      }
    }
  }
  simd_width_limit = previous;
}

TEST(TimeToCollision, DangerWhereTheNeighborWillBe) {
  // Head-on along x, 10 m apart, closing at 5 m/s: contact in 2 s, from the east.
  Scene s({0, 0, 10, 0}, {2.5f, 0, -2.5f, 0});
  const auto params = with<TimeToCollisionParams>([](auto& p) { p.radius = 20, p.horizon = 4; });
  const auto row = danger_of(TimeToCollision(params), s, 0, 8);
  // At t* = 2 the neighbor is on top of the agent: no bearing, every slot gets 1 - 2/4.
  for (Real d : row) EXPECT_NEAR(d, 0.5, 1e-6);
  Scene apart({0, 0, 10, 0}, {-1, 0, 1, 0});
  EXPECT_EQ(danger_of(TimeToCollision(params), apart, 0, 8), std::vector<Real>(8, 0.0f));
}

TEST(Track, RefusesACentrelineBeyondTheCoresBound) {
  EXPECT_THROW(Track(std::vector<Vec2>{{0, 0}, {2e9f, 0}}, 5, std::vector<Real>{}, false), std::invalid_argument);
  EXPECT_THROW(Track(std::vector<Vec2>{{0, NAN}, {1, 0}}, 5, std::vector<Real>{}, false), std::invalid_argument);
}

TEST(RacingLanes, DangerComesFromEveryCarAheadWithinTheLookahead) {
  // Each car's lane danger, against the rule as the header states it, over every other
  // car: falloff(ds / lookahead) on the lanes a car 0 < ds <= lookahead ahead spans.
  // Cars spread across a wide oval and off it, ahead across the seam of the closed track:
  // a car on the far side, or on the outside of a bend, lies farther than the lookahead
  // in a straight line though within it along the track.
  std::vector<Vec2> oval;
  for (int i = 0; i < 200; ++i) {
    const Real t = Real(6.2831853) * static_cast<Real>(i) / 200;
    oval.push_back({40 * std::cos(t), 25 * std::sin(t)});
  }
  const Real half_width = 8, lookahead = 12;
  auto track = std::make_shared<Track>(oval, half_width, std::vector<Real>(oval.size(), 0), true);
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> along(0, 60), across(-10, 10), radius(0.4f, 1.2f);
  std::vector<Real> xy, radii;
  for (int k = 0; k < 150; ++k) {
    const Vec2 at = track->point_at(along(rng), across(rng));
    xy.push_back(at.x), xy.push_back(at.y), radii.push_back(radius(rng));
  }
  Scene scene(xy);
  scene.r = radii;
  const SceneView& view = scene.build();
  const int lanes_count = 9;
  const RacingLanes lanes(track, with<RacingLanesParams>([&](auto& p) {
                            p.lanes = lanes_count, p.lookahead = lookahead, p.line_width = 2 * half_width;
                          }));
  const Real lane_width = 2 * half_width / lanes_count;
  int far = 0;
  for (int a = 0; a < view.agents; ++a) {
    std::vector<Real> maps(3 * lanes_count);
    lanes.decide(view, a, &maps[0], &maps[lanes_count], &maps[2 * lanes_count]);
    Real s = 0, e = 0;
    track->locate(view.position(a), s, e);
    std::vector<Real> want(lanes_count, 0);
    for (int b = 0; b < view.agents; ++b) {
      Real s_b = 0, e_b = 0;
      track->locate(view.position(b), s_b, e_b);
      const Real ds = track->ahead(s, s_b);
      if (b == a || !(ds > 0) || ds > lookahead) continue;
      const Real reach = radii[a] + radii[b];
      const Real value = falloff_value(Falloff::Linear, ds, lookahead);
      bool spans = false;
      for (int j = 0; j < lanes_count; ++j) {
        const Real lo = -half_width + j * lane_width;
        if (e_b + reach >= lo && e_b - reach <= lo + lane_width) want[j] = std::max(want[j], value), spans = true;
      }
      far += spans && value > 0 && length(view.position(b) - view.position(a)) > lookahead + reach;
    }
    for (int j = 0; j < lanes_count; ++j) EXPECT_NEAR(maps[lanes_count + j], want[j], 1e-5f) << a << " lane " << j;
  }
  EXPECT_GT(far, 10);  // cars that a query of the lookahead alone would miss
}

TEST(RacingLanes, PlacesFoundOnceGiveTheLanesOfLocatingEachNeighbor) {
  // Where most agents are cars, prepare() locates every car on the track once, and each
  // car's lanes read its neighbors' places from there. The lane maps, decisions and
  // interest rows must be those of locating each neighbor in decide(), on one thread
  // and two. A start grid of pairs 4 m apart on an oval, and a few cars off the track.
  std::vector<Vec2> oval;
  for (int i = 0; i < 400; ++i) {
    const Real t = Real(6.2831853) * static_cast<Real>(i) / 400;
    oval.push_back({100 * std::cos(t), 50 * std::sin(t)});
  }
  auto track = std::make_shared<Track>(oval, 6, std::vector<Real>(oval.size(), 1), true);
  std::vector<Real> xy;
  for (int k = 0; k < 60; ++k) {
    const Vec2 at = track->point_at(4 * static_cast<Real>(k / 2), k % 2 ? 2 : -2);
    xy.push_back(at.x), xy.push_back(at.y);
  }
  for (const Vec2 off : {Vec2{0, 0}, Vec2{130, 10}, Vec2{-20, 70}}) xy.push_back(off.x), xy.push_back(off.y);
  Scene scene(xy);
  const int n = static_cast<int>(xy.size() / 2);
  scene.r.assign(n, 0.8f);
  const SceneView& view = scene.build();
  const RacingLanes lanes(track, with<RacingLanesParams>([](auto& p) { p.lookahead = 15, p.line_width = 6; }));
  const SlotDirections dirs(16);
  std::vector<int> agents(n);
  std::iota(agents.begin(), agents.end(), 0);
  std::vector<Real> rows_alone(static_cast<std::size_t>(n) * 16, 0);
  lanes.fill(view, agents.data(), n, dirs, rows_alone.data(), nullptr);
  for (const int threads : {1, 2}) {
    ThreadPool pool(threads);
    EvaluationCache cache;
    cache.begin(pool);
    SceneView with_cache = view;
    with_cache.cache = &cache;
    lanes.prepare(with_cache, agents.data(), n / 3, dirs);  // most agents not cars: nothing found
    EXPECT_EQ(cache.find(&lanes, &dirs), nullptr);
    lanes.prepare(with_cache, agents.data(), n, dirs);
    const Real* placed = cache.find(&lanes, &dirs);
    ASSERT_NE(placed, nullptr);
    for (int a = 0; a < n; ++a) {
      std::vector<Real> maps_alone(21), maps_placed(21);
      const LaneDecision alone = lanes.decide(view, a, &maps_alone[0], &maps_alone[7], &maps_alone[14]);
      const LaneDecision read = lanes.decide(with_cache, a, &maps_placed[0], &maps_placed[7], &maps_placed[14], placed);
      EXPECT_EQ(maps_alone, maps_placed) << a;
      EXPECT_EQ(alone.lateral, read.lateral) << a;
      EXPECT_EQ(alone.strength, read.strength) << a;
      EXPECT_EQ(alone.blocked, read.blocked) << a;
    }
    std::vector<Real> rows(static_cast<std::size_t>(n) * 16, 0);
    lanes.fill(with_cache, agents.data(), n, dirs, rows.data(), nullptr);
    EXPECT_EQ(rows, rows_alone) << threads;
  }
  // The grid start is crowded: cars ahead put danger on their lanes.
  Real most = 0;
  for (int a = 0; a < 60; ++a) {
    std::vector<Real> maps(21);
    lanes.decide(view, a, &maps[0], &maps[7], &maps[14]);
    most = std::max(most, *std::max_element(maps.begin() + 7, maps.begin() + 14));
  }
  EXPECT_GT(most, 0.5f);
}

TEST(RacingLanes, LaneMapsAndDecision) {
  auto track = std::make_shared<Track>(std::vector<Vec2>{{0, 0}, {100, 0}}, 5, std::vector<Real>{2, 2}, false);
  const RacingLanes lanes(track, with<RacingLanesParams>([](auto& p) { p.lanes = 5, p.line_width = 5; }));
  Scene s({0, 0, 6, 2});
  s.r = {1, 1};
  std::vector<Real> interest(5), danger(5), final_map(5);
  const SceneView& view = s.build();
  const LaneDecision d = lanes.decide(view, 0, interest.data(), danger.data(), final_map.data());
  const std::vector<Real> expected_interest{0, 0.2f, 0.6f, 1, 0.6f};
  for (int j = 0; j < 5; ++j) EXPECT_NEAR(interest[j], expected_interest[j], 1e-6);
  EXPECT_EQ(danger[1], 0.0f);
  EXPECT_NEAR(danger[3], 0.4f, 1e-6);
  EXPECT_NEAR(d.lateral, 2, 1e-5);
  EXPECT_NEAR(d.target.x, 10, 1e-4);
  Real s_along = 0, e = 0;
  track->locate({30, -1.5f}, s_along, e);
  EXPECT_NEAR(s_along, 30, 1e-5);
  EXPECT_NEAR(e, -1.5f, 1e-5);
}

TEST(Track, LocatesWithinAWindowAcrossACrossing) {
  // A closed figure of eight through the origin: out along y = x, round the right lobe,
  // back through the origin along y = -x, round the left lobe. 8 legs of 10 * sqrt(2) m.
  const Real leg = 10 * std::sqrt(Real(2));
  const Track eight({{0, 0}, {10, 10}, {20, 0}, {10, -10}, {0, 0}, {-10, 10}, {-20, 0}, {-10, -10}}, 3, {}, true);
  EXPECT_NEAR(eight.length(), 8 * leg, 1e-3);
  Real s = 0, e = 0;
  // Just past the crossing on the way out, a little closer to the other branch.
  const Vec2 p{0.5f, -0.3f};
  eight.locate(p, s, e);
  EXPECT_NEAR(s, 4 * leg - std::sqrt(Real(0.32)), 1e-3);  // the whole track: the way back in
  eight.locate_after(p, 8 * leg - 1, 5, s, e);            // came round the left lobe
  EXPECT_NEAR(s, std::sqrt(Real(0.02)), 1e-3);            // on the way out, wrapped
  EXPECT_NEAR(e, -std::sqrt(Real(0.32)), 1e-3);           // right of y = x
  // Polylines measure the same: a point and its tangent at any arc length.
  Vec2 t;
  const Vec2 q = eight.point_at(8 * leg + leg / 2, 0, &t);  // half a leg into the next lap
  EXPECT_NEAR(q.x, 5, 1e-4);
  EXPECT_NEAR(q.y, 5, 1e-4);
  EXPECT_NEAR(t.x, std::sqrt(Real(0.5)), 1e-5);
}
