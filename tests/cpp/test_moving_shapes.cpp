// TimeToCollision and Anticipate see moving walls and polygons as their shapes
// (behaviors/support/moving_shapes.hpp): the speeds and times of first contact agree with a
// sweep step by step; a long wall crossing an agent's way is seen along its whole length,
// a polygon likewise, where the disc round either would miss its ends or over-block;
// moving circles keep the disc law to the bit; and a world among moving shapes gives the
// same bits on one and two threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "contextsteer/behaviors/anticipate.hpp"
#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/behaviors/support/arc_coverage.hpp"
#include "contextsteer/behaviors/support/moving_shapes.hpp"
#include "contextsteer/behaviors/time_to_collision.hpp"
#include "contextsteer/world/world.hpp"
#include "params_with.hpp"

using namespace contextsteer;

namespace {

// The danger Anticipate gives along d (an agent of radius 0.3 m at the origin, top speed
// `top`) from walls relative to it, moving at v.
Real shape_danger(const std::vector<Segment>& walls, bool closed, Vec2 v, Vec2 d, Real horizon = 3, Real top = 1.3f) {
  const SeenShape shape{walls.data(), static_cast<int>(walls.size()), closed, {0, 0}};
  return anticipated_danger(anticipated_shape(shape, v, 0.3f, horizon, top), d);
}

std::vector<Segment> rectangle(Real x0, Real y0, Real x1, Real y1) {
  return {{{x0, y0}, {x1, y0}}, {{x1, y0}, {x1, y1}}, {{x1, y1}, {x0, y1}}, {{x0, y1}, {x0, y0}}};
}

// One agent at the origin moving at `velocity` (radius 0.3 m, top speed 1.3 m/s) among
// `add`'s bodies, steered by `behaviour` alone: its danger row after a step of 1 ms.
template <class Add>
std::vector<Real> danger_after_a_step(std::shared_ptr<const Behavior> behaviour, Vec2 velocity, Add add) {
  PipelineConfig config;
  config.slots = 16;
  World world(Steering{
      std::make_shared<Pipeline>(config, std::vector<std::shared_ptr<const Behavior>>{std::move(behaviour)}), nullptr});
  add(world.moving());
  const std::vector<Real> at{0, 0}, v{velocity.x, velocity.y}, top{1.3f}, r{0.3f};
  AgentSpawn spawn;
  spawn.positions = at.data();
  spawn.velocities = v.data();
  spawn.max_speed = top.data();
  spawn.radius = r.data();
  world.add_agents(1, spawn);
  world.step(0.001f);
  return {world.agents().danger.data(), world.agents().danger.data() + 16};
}

}  // namespace

TEST(MovingShapes, TheSpeedsThatMeetAnEdgeAreOneIntervalFoundExactly) {
  // Random edges, motions and ways: every speed on a fine grid meets the edge exactly
  // when it lies in the interval (give or take a step at its ends).
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> u(-1, 1);
  int met = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Segment e{{4 * u(rng), 4 * u(rng)}, {4 * u(rng), 4 * u(rng)}};
    const Real reach = 0.3f + 0.3f * u(rng);
    if (length(closest_point_on_segment(e, {0, 0})) <= reach) continue;  // touching: handled apart
    const Real horizon = 2 + u(rng);
    const Vec2 w0{u(rng), u(rng)};
    const Real angle = 3.14159265f * u(rng);
    const Vec2 d{std::cos(angle), std::sin(angle)};
    const SpeedInterval speeds = speeds_meeting_edge(e, reach, horizon, w0, d);
    constexpr Real kStep = 0.002f;
    for (Real s = 0; s < 6; s += kStep) {
      const bool meets = meets_edge(e, reach, horizon, w0 + d * s);
      const bool within = s >= speeds.enter && s < speeds.leave;
      const bool near_an_end = std::fabs(s - speeds.enter) < 2 * kStep || std::fabs(s - speeds.leave) < 2 * kStep;
      if (!near_an_end) ASSERT_EQ(meets, within) << "trial " << trial << ", speed " << s;
      met += meets;
    }
  }
  EXPECT_GT(met, 10000) << "the trials met their edges often";
}

TEST(MovingShapes, TheFirstContactIsTheSweepsFirstStepWithinReach) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<Real> u(-1, 1);
  int contacts = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::vector<Segment> walls = trial % 2
                                           ? rectangle(2 + u(rng), 2 * u(rng), 4 + u(rng), 3 + u(rng))
                                           : std::vector<Segment>{{{3 * u(rng), 3 * u(rng)}, {3 * u(rng), 3 * u(rng)}}};
    const SeenShape shape{walls.data(), static_cast<int>(walls.size()), trial % 2 == 1, {0, 0}};
    const Vec2 w{2 * u(rng), 2 * u(rng)};
    const Real t = first_contact_time(shape, 0.3f, w);
    // Step by step: the first time the agent's centre comes within 0.3 m of an edge.
    Real stepped = kInfinity;
    for (int k = 0; k <= 4000 && stepped == kInfinity; ++k) {
      const Vec2 at = w * (0.001f * static_cast<Real>(k));
      for (const Segment& e : walls) {
        if (length(closest_point_on_segment(e, at) - at) <= 0.3f) stepped = 0.001f * static_cast<Real>(k);
      }
    }
    if (stepped <= 3.9f) {
      EXPECT_NEAR(t, stepped, 0.0015f) << "trial " << trial;
      ++contacts;
    } else {
      EXPECT_GT(t, 3.9f) << "trial " << trial;
    }
  }
  EXPECT_GT(contacts, 50);
}

TEST(MovingShapes, AnticipateSeesALongWallCrossingTheWayAlongItsWholeLength) {
  // A wall 12 m long, 2 m to the agent's left, sweeping across its way at 1 m/s: it
  // reaches the agent in 1.7 s. Along the wall (either way) the agent cannot pass its ends
  // within the horizon: 1. Away from it, faster than it comes, it gets clear: a way out.
  // The disc round the wall (6 m) holds the agent already and would leave both ways along
  // the wall open.
  const std::vector<Segment> wall{{{-6, 2}, {6, 2}}};
  const Vec2 coming{0, -1};
  EXPECT_EQ(shape_danger(wall, false, coming, {1, 0}), 1);
  EXPECT_EQ(shape_danger(wall, false, coming, {-1, 0}), 1);
  EXPECT_EQ(shape_danger(wall, false, coming, {0, 1}), 1);
  EXPECT_LT(shape_danger(wall, false, coming, {0, -1}), kEscapeRank);
  EXPECT_EQ(anticipated_danger(anticipated_disc({0, 2}, coming, 6.3f, 3, 1.3f, false), {1, 0}), 0);
  // A wall 1 m long is passed by its end: the ways along it are nearly open.
  const std::vector<Segment> short_wall{{{-0.5f, 2}, {0.5f, 2}}};
  EXPECT_LT(shape_danger(short_wall, false, coming, {1, 0}), 0.1f);
  EXPECT_LT(shape_danger(short_wall, false, coming, {-1, 0}), 0.1f);
  // The same wall going by along its length never comes nearer: only the way into it
  // has danger, where the disc round it would touch the agent.
  const Vec2 passing{1, 0};
  EXPECT_EQ(shape_danger(wall, false, passing, {0, -1}), 0);
  EXPECT_EQ(shape_danger(wall, false, passing, {1, 0}), 0);
  EXPECT_EQ(shape_danger(wall, false, passing, {-1, 0}), 0);
  EXPECT_GT(shape_danger(wall, false, passing, {0, 1}), 0.5f);
  // Slanting up into it at 0.6 m/s across, it is met only from 0.71 m/s on; the disc
  // shuts that way.
  EXPECT_NEAR(shape_danger(wall, false, passing, {0.6f, 0.8f}), 1 - 1.7f / (3 * 0.8f) / 1.3f, 0.01f);
  EXPECT_EQ(anticipated_danger(anticipated_disc({0, 2}, passing, 6.3f, 3, 1.3f, false), {0.6f, 0.8f}), 1);
}

TEST(MovingShapes, AnticipateSeesAPolygonAsItsShape) {
  // A long bar (a rectangle 12 m by 1 m) sweeping across the way as the wall above, and
  // an agent inside a polygon, which is touching it.
  const std::vector<Segment> bar = rectangle(-6, 2, 6, 3);
  const Vec2 coming{0, -1};
  EXPECT_EQ(shape_danger(bar, true, coming, {1, 0}), 1);
  EXPECT_EQ(shape_danger(bar, true, coming, {-1, 0}), 1);
  EXPECT_LT(shape_danger(bar, true, coming, {0, -1}), kEscapeRank);
  // Beside a bar going by: no danger but into it.
  EXPECT_EQ(shape_danger(bar, true, {1, 0}, {1, 0}), 0);
  EXPECT_GT(shape_danger(bar, true, {1, 0}, {0, 1}), 0.5f);
  // Inside a standing square whose nearest edge is to the right: the way out is open,
  // the way deeper in is shut.
  const std::vector<Segment> square = rectangle(-3, -2, 1, 2);
  const SeenShape shape{square.data(), 4, true, {0, 0}};
  const AnticipatedShape inside = anticipated_shape(shape, {0, 0}, 0.3f, 3, 1.3f);
  EXPECT_TRUE(inside.touching);
  EXPECT_EQ(anticipated_danger(inside, {1, 0}), 0);
  EXPECT_EQ(anticipated_danger(inside, {-1, 0}), 1);
}

TEST(MovingShapes, TimeToCollisionSeesALongWallAlongItsWholeLength) {
  // The agent walks along +x at 1 m/s; a wall 12 m long, 2 m to its left, sweeps across
  // its way at 1 m/s. Walking on (or back) it is met in 1.7 s; walking away from it at
  // its speed, never. The disc round the wall would put its danger on the ways to the
  // wall's near end, leaving the agent's own way open.
  const auto ttc = std::make_shared<TimeToCollision>(with<TimeToCollisionParams>([](auto& p) { p.horizon = 3; }));
  const std::vector<Real> row = danger_after_a_step(
      ttc, {1, 0}, [](MovingObstacles& m) { m.add_segments({{{-6, 2}, {6, 2}}}, {{0, -1}}, kAllLayers); });
  EXPECT_NEAR(row[0], 1 - 1.7f / 3, 0.01f);   // +x
  EXPECT_NEAR(row[8], 1 - 1.7f / 3, 0.01f);   // -x
  EXPECT_NEAR(row[4], 1 - 0.85f / 3, 0.01f);  // +y, toward it at 1 m/s: met in 0.85 s
  EXPECT_EQ(row[12], 0);                      // -y
  // A bar (polygon) likewise.
  const std::vector<Real> bar = danger_after_a_step(ttc, {1, 0}, [](MovingObstacles& m) {
    m.add_polygon({{-6, 2}, {6, 2}, {6, 3}, {-6, 3}}, {0, -1}, 0, kAllLayers);
  });
  EXPECT_NEAR(bar[0], 1 - 1.7f / 3, 0.01f);
  EXPECT_EQ(bar[12], 0);
  // The disc round the wall, as a moving circle: the agent's own way stays open.
  const std::vector<Real> disc =
      danger_after_a_step(ttc, {1, 0}, [](MovingObstacles& m) { m.add_circles({{{0, 2}, 6}}, {{0, -1}}, kAllLayers); });
  EXPECT_EQ(disc[0], 0);
}

TEST(MovingShapes, MovingCirclesKeepTheDiscLawToTheBit) {
  // A moving circle is a disc of its own radius, as before: Anticipate's row is the disc
  // law's, TimeToCollision's its arc coverage at the closest approach.
  const Vec2 centre{2, 1.5f}, v{-0.8f, -0.6f};
  const auto add = [&](MovingObstacles& m) { m.add_circles({{centre, 0.5f}}, {v}, kAllLayers); };
  const std::vector<Real> anticipate = danger_after_a_step(
      std::make_shared<Anticipate>(with<AnticipateParams>([](auto& p) { p.radius = 6; })), {0.5f, 0}, add);
  const SlotDirections dirs(16);
  const Vec2 at = centre + v * 0.001f;  // where the step moved it
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(anticipate[i], anticipated_danger(at, v, 0.8f, 1.5f, dirs[i], 1.3f)) << "slot " << i;
  }
  const std::vector<Real> ttc = danger_after_a_step(std::make_shared<TimeToCollision>(), {0.5f, 0}, add);
  std::vector<Real> want(16, 0);
  const Vec2 dv = v - Vec2{0.5f, 0};
  const Real t = std::clamp(-dot(at, dv) / length_squared(dv), Real(0), Real(3));
  ASSERT_LT(length(at + dv * t), 0.8f) << "they meet";
  add_disc_danger(dirs, at + dv * t, 0.8f, falloff_value(Falloff::Linear, t, 3), want.data());
  for (int i = 0; i < 16; ++i) EXPECT_EQ(ttc[i], want[i]) << "slot " << i;
  EXPECT_GT(*std::max_element(ttc.begin(), ttc.end()), 0);
}

TEST(MovingShapes, AWorldAmongMovingShapesGivesTheSameBitsOnOneAndTwoThreads) {
  std::vector<Real> positions[2];
  for (int threads : {1, 2}) {
    PipelineConfig config;
    config.slots = 16;
    config.resolve.danger_mode = DangerMode::Multiply;
    ChaseParams chase;
    chase.agent_target = true;
    World world(Steering{
        std::make_shared<Pipeline>(
            config, std::vector<std::shared_ptr<const Behavior>>{std::make_shared<Chase>(std::vector<Vec2>{}, chase),
                                                                 std::make_shared<Anticipate>(with<AnticipateParams>(
                                                                     [](auto& p) { p.arc_edges = true; })),
                                                                 std::make_shared<TimeToCollision>()}),
        nullptr});
    world.set_threads(threads);
    std::mt19937 rng(9);
    std::uniform_real_distribution<Real> u(-15, 15), s(-1, 1);
    for (int b = 0; b < 30; ++b) {
      const Vec2 at{u(rng), u(rng)};
      world.moving().add_segments({{at, at + Vec2{3 * s(rng), 3 * s(rng)}}}, {{s(rng), s(rng)}}, kAllLayers);
      world.moving().add_polygon({at + Vec2{1, 0}, at + Vec2{2, 0}, at + Vec2{1.5f, 1}}, {s(rng), s(rng)}, s(rng),
                                 kAllLayers);
    }
    std::vector<Real> p, t;
    for (int k = 0; k < 400; ++k) {
      p.insert(p.end(), {u(rng), u(rng)});
      t.insert(t.end(), {-p[p.size() - 2], -p[p.size() - 1]});
    }
    AgentSpawn spawn;
    spawn.positions = p.data();
    spawn.targets = t.data();
    world.add_agents(400, spawn);
    for (int i = 0; i < 40; ++i) world.step(0.1f);
    positions[threads - 1].assign(world.agents().positions.data(), world.agents().positions.data() + 800);
  }
  EXPECT_EQ(0, std::memcmp(positions[0].data(), positions[1].data(), positions[0].size() * sizeof(Real)));
}
