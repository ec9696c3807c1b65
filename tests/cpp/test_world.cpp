// The world: agents added and removed, the step's stages, threads giving the same bits,
// copies and recordings. The file is long because it follows the world's whole API.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/behaviors/support/agent_danger.hpp"
#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/world/world.hpp"

using namespace contextsteer;

namespace {

Steering chase_and_avoid(Vec2 target, int slots = 16, bool agents = false) {
  AvoidParams avoid;
  avoid.agents = agents;
  std::vector<std::shared_ptr<const Behavior>> behaviors{
      std::make_shared<Chase>(std::vector<Vec2>{target}, ChaseParams{}),
      std::make_shared<Avoid>(std::vector<Circle>{}, avoid)};
  PipelineConfig c;
  c.slots = slots;
  c.resolve.select = SelectMethod::Blend;
  return {std::make_shared<Pipeline>(c, behaviors), nullptr};
}

Steering classic(ClassicKind kind, Vec2 target) {
  ClassicBehavior b;
  b.kind = kind;
  b.fixed_target = true;
  b.target = target;
  return {nullptr, std::make_shared<ClassicSteering>(std::vector<ClassicBehavior>{b}, CombinerKind::Blend)};
}

std::int64_t add(World& w, std::vector<Real> pos, Real max_speed, Real max_accel = kInfinity, int steering = 0) {
  const int n = static_cast<int>(pos.size() / 2);
  std::vector<Real> speed(n, max_speed), accel(n, max_accel);
  AgentSpawn spawn;
  spawn.positions = pos.data();
  spawn.max_speed = speed.data();
  spawn.max_acceleration = accel.data();
  return w.add_agents(n, spawn, steering);
}

Vec2 position_of(const World& w, std::int64_t id) { return load(w.agents().positions.data(), w.index_of(id)); }

// `n` agents at random in the box from `low` to `high` (metres), at max_speed `speed`, of
// radii drawn from [radii.x, radii.y) (one radius when they are equal, on one layer,
// sensing everything; else every 7th agent on layer 2, every 5th sensing layer 1 only).
void add_crowd(World& w, std::mt19937& rng, int n, Vec2 low, Vec2 high, Real speed, Vec2 radii, int steering = 0) {
  std::uniform_real_distribution<Real> x(low.x, high.x), y(low.y, high.y), size(radii.x, radii.y);
  const bool varied = radii.x != radii.y;
  std::vector<Real> pos(2 * n), radius(n, radii.x), speeds(n, speed);
  std::vector<LayerMask> layers(n, 1), senses(n, kAllLayers);
  for (int a = 0; a < n; ++a) {
    pos[2 * a] = x(rng), pos[2 * a + 1] = y(rng);
    if (varied) {
      radius[a] = size(rng);
      layers[a] = a % 7 == 0 ? 2 : 1;
      senses[a] = a % 5 == 0 ? LayerMask(1) : kAllLayers;
    }
  }
  AgentSpawn spawn;
  spawn.positions = pos.data();
  spawn.radius = radius.data();
  spawn.max_speed = speeds.data();
  spawn.layers = layers.data();
  spawn.sense_masks = senses.data();
  w.add_agents(n, spawn, steering);
}

// Into a world of a context steering and a classic one: `count` context agents at
// random places within 10 m of the origin, then two classic ones. Returns the first
// ones' positions (x0, y0, x1, ...).
std::vector<Real> add_mixed_crowd(World& w, unsigned seed, int count) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> place(-10, 10);
  std::vector<Real> pos;
  for (int i = 0; i < 2 * count; ++i) pos.push_back(place(rng));
  add(w, pos, 2.0f, 3.0f);
  add(w, {0, 15, 3, 15}, 2.0f, 3.0f, 1);
  return pos;
}

}  // namespace

TEST(World, AgentsReachATargetAroundAnObstacle) {
  World w(chase_and_avoid({20, 0}));
  w.obstacles().add_circle({{10, 0}, 1.5f});
  add(w, {0, 0, 0, 1, 0, -1}, 2.0f);
  for (int i = 0; i < 400; ++i) w.step(0.05f);
  for (int id = 0; id < 3; ++id) {
    const Vec2 p = position_of(w, id);
    EXPECT_LT(std::hypot(p.x - 20, p.y), 1.0) << "agent " << id;
  }
  EXPECT_EQ(w.steps_taken(), 400);
  EXPECT_NEAR(w.time(), 20.0, 1e-3);
}

TEST(World, KinematicLimitsHoldForContextAndClassicAgents) {
  World w(chase_and_avoid({100, 30}));
  const int seek = w.add_steering(classic(ClassicKind::Seek, {-100, 40}));
  add(w, {0, 0}, 3.0f, 2.0f);
  add(w, {0, 0}, 3.0f, 2.0f, seek);
  auto& s = w.agents();
  for (int a = 0; a < 2; ++a) s.max_turn_rate[a] = 0.5f;
  std::vector<Real> speed(2, 0), heading(2, 0);
  for (int i = 0; i < 80; ++i) {
    w.step(0.1f);
    for (int a = 0; a < 2; ++a) {
      const Vec2 v = load(s.velocities.data(), a);
      EXPECT_LE(length(v), 3.0f + 1e-5f);
      EXPECT_LE(std::fabs(length(v) - speed[a]), 2.0f * 0.1f + 1e-5f);
      EXPECT_LE(std::fabs(wrap_angle(s.heading[a] - heading[a])), 0.5f * 0.1f + 1e-5f);
      speed[a] = length(v);
      heading[a] = s.heading[a];
    }
  }
  EXPECT_GT(speed[0], 2.9f);  // blend: strength is the final map interpolated between slots
  EXPECT_NEAR(speed[1], 3.0f, 1e-3);
}

TEST(World, IdsSurviveRemovalAndRemovedIdsFail) {
  World w(chase_and_avoid({5, 0}));
  EXPECT_EQ(add(w, {0, 0, 1, 1, 2, 2}, 1.0f), 0);
  EXPECT_EQ(add(w, {3, 3}, 1.0f), 3);
  const std::int64_t gone[] = {1};
  w.remove_agents(gone, 1);
  EXPECT_EQ(w.agent_count(), 3);
  EXPECT_THROW(w.index_of(1), std::out_of_range);
  EXPECT_THROW(w.index_of(7), std::out_of_range);
  EXPECT_EQ(w.index_of(2), 1);
  EXPECT_EQ(position_of(w, 3).x, 3.0f);
  const std::int64_t unknown[] = {2, 99};
  EXPECT_THROW(w.remove_agents(unknown, 2), std::out_of_range);
  EXPECT_EQ(w.agent_count(), 3);  // nothing removed
  w.step(0.1f);
}

TEST(World, GrowingKeepsOldBuffersAlive) {
  World w(chase_and_avoid({5, 0}));
  add(w, {1, 2}, 1.0f);
  const SharedBuffer<Real> old = w.agents().positions.buffer;
  add(w, {3, 4, 5, 6}, 1.0f);
  EXPECT_NE(old.get(), w.agents().positions.buffer.get());
  EXPECT_EQ(old->size(), 2u);
  EXPECT_EQ(w.agents().positions[5], 6.0f);
  EXPECT_EQ(w.agents().interest.buffer->size(), 3u * 16);
}

TEST(World, ResetRestoresTheSpawnState) {
  World w(chase_and_avoid({5, 0}));
  add(w, {1, 2, -3, 0}, 1.0f);
  for (int i = 0; i < 10; ++i) w.step(0.1f);
  EXPECT_NE(position_of(w, 0).x, 1.0f);
  w.reset();
  EXPECT_EQ(position_of(w, 0).x, 1.0f);
  EXPECT_EQ(position_of(w, 1).x, -3.0f);
  EXPECT_EQ(w.steps_taken(), 0);
  EXPECT_EQ(w.time(), 0.0);
  EXPECT_EQ(w.agents().velocities[0], 0.0f);
}

TEST(World, ACopyStepsAsTheOriginalAndOwnsItsState) {
  World w(chase_and_avoid({30, 0}, 16, true));
  w.add_steering(classic(ClassicKind::Arrive, {-30, 5}));
  const std::vector<Real> pos = add_mixed_crowd(w, 4, 40);
  w.obstacles().add_circle({{5, 0}, 1.5f});
  w.set_threads(2);
  for (int i = 0; i < 10; ++i) w.step(0.05f);
  const std::unique_ptr<World> twin = w.copy();
  EXPECT_EQ(twin->threads(), 2);
  EXPECT_EQ(twin->steps_taken(), 10);
  for (int i = 0; i < 30; ++i) w.step(0.05f), twin->step(0.05f);
  auto same = [&](const auto& a, const auto& b, const char* what) {
    ASSERT_EQ(a.buffer->size(), b.buffer->size()) << what;
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.buffer->size() * sizeof(*a.data())), 0) << what;
    EXPECT_NE(a.data(), b.data()) << what;  // its own memory
  };
  same(w.agents().positions, twin->agents().positions, "position");
  same(w.agents().velocities, twin->agents().velocities, "velocity");
  same(w.agents().heading, twin->agents().heading, "heading");
  same(w.agents().final, twin->agents().final, "final maps");
  same(w.agents().overlap, twin->agents().overlap, "overlap");
  EXPECT_EQ(w.time(), twin->time());
  // Changes to one leave the other as it was.
  twin->obstacles().add_circle({{-5, 0}, 1});
  EXPECT_EQ(w.obstacles().circles().size(), 1u);
  const std::int64_t first[] = {0};
  twin->remove_agents(first, 1);
  EXPECT_EQ(w.agent_count(), 42);
  EXPECT_EQ(w.index_of(0), 0);
  w.reset();
  EXPECT_EQ(position_of(w, 0).x, pos[0]);
  EXPECT_NE(position_of(*twin, 1).x, pos[2]);  // the twin was not reset
}

TEST(World, ASavedStateRestoredIntoAWorldOfTheSameSteeringsStepsAlike) {
  const Steering context = chase_and_avoid({30, 0}, 16, true), arrive = classic(ClassicKind::Arrive, {-30, 5});
  World w(context);
  w.add_steering(arrive);
  const std::vector<Real> pos = add_mixed_crowd(w, 6, 30);
  for (int i = 0; i < 10; ++i) w.step(0.05f);
  const std::int64_t gone[] = {4, 31};
  w.remove_agents(gone, 2);
  w.step(0.05f);

  World loaded(context);
  loaded.add_steering(arrive);
  loaded.restore(w.state());
  EXPECT_EQ(loaded.agent_count(), 30);
  EXPECT_EQ(loaded.steps_taken(), 11);
  EXPECT_EQ(loaded.time(), w.time());
  EXPECT_THROW(loaded.index_of(4), std::out_of_range);  // still removed
  EXPECT_EQ(loaded.index_of(5), w.index_of(5));
  for (int i = 0; i < 20; ++i) w.step(0.05f), loaded.step(0.05f);
  for (const auto column : {&AgentStore::positions, &AgentStore::velocities, &AgentStore::heading, &AgentStore::final,
                            &AgentStore::overlap}) {
    const Column<Real>&a = w.agents().*column, &b = loaded.agents().*column;
    ASSERT_EQ(a.buffer->size(), b.buffer->size());
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.buffer->size() * sizeof(Real)), 0);
  }
  loaded.reset();
  EXPECT_EQ(position_of(loaded, 0).x, pos[0]);

  // What no world's state() gives is refused, and the world keeps its own.
  auto refused = [&](auto&& spoil) {
    World::State saved = w.state();
    spoil(saved);
    EXPECT_THROW(loaded.restore(saved), std::invalid_argument);
    EXPECT_EQ(loaded.agent_count(), 30);
    EXPECT_EQ(position_of(loaded, 0).x, pos[0]);
  };
  refused([](World::State& s) { s.columns[0].pop_back(); });  // a column's size
  refused([](World::State& s) { s.columns.pop_back(); });     // a column missing
  refused([](World::State& s) { s.index_of_id[5] = 3; });     // ids and rows disagree
  refused([](World::State& s) { s.next_id += 1; });           // next_id and index_of_id disagree
  refused([](World::State& s) { s.time = -1; });
  refused([](World::State& s) {  // a steering that is not there
    const std::int32_t third = 2;
    std::memcpy(s.columns[14].data(), &third, sizeof third);
  });
  // A state a step would refuse is taken as it is, and refused where the saved world's
  // next step refuses it.
  World::State far = w.state();
  const Real past_the_bound = 2e9f;
  std::memcpy(far.columns[0].data(), &past_the_bound, sizeof past_the_bound);
  loaded.restore(far);
  EXPECT_EQ(position_of(loaded, 0).x, past_the_bound);
  EXPECT_THROW(loaded.step(0.05f), std::invalid_argument);
  EXPECT_EQ(position_of(loaded, 0).x, past_the_bound);   // nothing moved
  World other_slots(chase_and_avoid({30, 0}, 8, true));  // maps of another width
  other_slots.add_steering(arrive);
  EXPECT_THROW(other_slots.restore(w.state()), std::invalid_argument);
}

// The state check runs 8 or 4 values at a time, or one by one: a bad value in any lane
// of any column, or in the tail past the last whole vector, must be found and named.
TEST(World, FindsABadValueInAnyLaneOfEveryColumn) {
  World w(chase_and_avoid({5, 0}));
  const int n = 21;  // 21 values of a column one wide, 42 of one two wide: both leave a tail
  std::vector<Real> pos;
  for (int a = 0; a < n; ++a) pos.insert(pos.end(), {Real(a), 0});
  add(w, pos, 1.0f);
  AgentStore& s = w.agents();
  struct Bad {
    Column<Real>* column;
    Real value;
  };
  const std::vector<Bad> bad{{&s.positions, NAN},        {&s.velocities, kInfinity}, {&s.heading, -2e9f},
                             {&s.angular_velocity, NAN}, {&s.targets, -kInfinity},   {&s.radius, -0.5f},
                             {&s.max_speed, kInfinity},  {&s.max_acceleration, NAN}, {&s.max_turn_rate, -1},
                             {&s.max_force, -kInfinity}, {&s.mass, kMinMass / 2},    {&s.mass, kInfinity}};
  for (const int width : {8, 4, 1}) {
    const int previous = simd_width_limit.exchange(width);
    for (const Bad& b : bad) {
      const int values = n * b.column->width;
      for (int i = 0; i < values; ++i) {
        const Real kept = (*b.column)[i];
        (*b.column)[i] = b.value;
        try {
          w.step(0.01f);
          ADD_FAILURE() << "width " << width << ": value " << i << " of a column taken";
        } catch (const std::invalid_argument& e) {
          const std::string agent = "for agent " + std::to_string(i / b.column->width);
          EXPECT_NE(std::string(e.what()).find(agent), std::string::npos) << e.what() << " (" << agent << ")";
        }
        (*b.column)[i] = kept;
      }
    }
    simd_width_limit.store(previous);
  }
  EXPECT_EQ(0, w.steps_taken());
  w.step(0.01f);  // every value is back as it was
  EXPECT_EQ(1, w.steps_taken());
}

TEST(World, RefusesBadStateAndBadSteps) {
  World w(chase_and_avoid({5, 0}));
  EXPECT_THROW(add(w, {NAN, 0}, 1.0f), std::invalid_argument);
  EXPECT_THROW(add(w, {0, 0}, -1.0f), std::invalid_argument);
  add(w, {0, 0}, 1.0f);
  EXPECT_THROW(w.step(0), std::invalid_argument);
  EXPECT_THROW(w.step(NAN), std::invalid_argument);
  EXPECT_THROW(w.step(0.1f, 0), std::invalid_argument);
  w.agents().velocities[0] = INFINITY;
  EXPECT_THROW(w.step(0.1f), std::invalid_argument);
  w.agents().velocities[0] = 0;
  // Forces are divided by masses: a subnormal mass would make 1 / mass inf.
  for (const Real mass : {Real(0), Real(1e-44f), kMinMass / 2, Real(2e9f), kInfinity}) {
    w.agents().mass[0] = mass;
    EXPECT_THROW(w.step(0.1f), std::invalid_argument) << mass;
  }
  w.agents().mass[0] = kMinMass;
  // Explaining and querying neighbors read the state too, and refuse it as a step does
  // (an unknown target id once read past the end of the id table).
  std::vector<int> found;
  w.agents().target_ids[0] = 1'000'000'000'000;
  EXPECT_THROW(w.explain(0), std::out_of_range);
  w.agents().target_ids[0] = -1;
  w.agents().positions[0] = NAN;
  EXPECT_THROW(w.neighbors({0, 0}, 1, kAllLayers, -1, found), std::invalid_argument);
  EXPECT_THROW(w.explain(0), std::invalid_argument);
  w.agents().positions[0] = 0;
  EXPECT_EQ(w.steps_taken(), 0);
  w.step(0.1f);  // the lightest agent accepted moves like any other
  EXPECT_TRUE(std::isfinite(w.agents().velocities[0]) && std::isfinite(w.agents().positions[0]));
  EXPECT_THROW(w.add_steering(chase_and_avoid({0, 0}, 8)), std::invalid_argument);  // another resolution
  EXPECT_THROW(w.steering(3), std::out_of_range);
  EXPECT_THROW(w.set_threads(0), std::invalid_argument);
  EXPECT_THROW(w.set_threads(World::kMaxThreads + 1), std::invalid_argument);
  EXPECT_EQ(w.threads(), 1);
}

TEST(World, ChangingResolutionResamplesTheMaps) {
  World w(chase_and_avoid({10, 0}, 16));
  add(w, {0, 0}, 1.0f);
  w.step(0.1f);
  const Real east = w.agents().interest[0];
  w.set_steering(0, chase_and_avoid({10, 0}, 8));
  EXPECT_EQ(w.slots(), 8);
  EXPECT_EQ(w.agents().interest.buffer->size(), 8u);
  EXPECT_EQ(w.agents().interest[0], east);  // slot 0 keeps its angle
  w.step(0.1f);
  EXPECT_NEAR(w.agents().direction[0], 1.0f, 1e-5);
}

TEST(World, BlockedAgentsBrake) {
  std::vector<std::shared_ptr<const Behavior>> behaviors{
      std::make_shared<Chase>(std::vector<Vec2>{{10, 0}}, ChaseParams{}),
      std::make_shared<Avoid>(std::vector<Circle>{{{0, 0}, 3}}, AvoidParams{})};  // the agent stands inside it
  PipelineConfig c;
  c.slots = 15;  // no slot at right angles to east: each is plainly toward or away from it
  c.resolve.danger_mode = DangerMode::Threshold;
  c.resolve.threshold = 0.5f;
  World w({std::make_shared<Pipeline>(c, behaviors), nullptr});
  // West of the centre: the danger covers the east half-plane, where all the interest is.
  std::vector<Real> pos{-0.1f, 0}, vel{1, 0}, speed{2}, accel{1};
  AgentSpawn spawn;
  spawn.positions = pos.data();
  spawn.velocities = vel.data();
  spawn.max_speed = speed.data();
  spawn.max_acceleration = accel.data();
  w.add_agents(1, spawn);
  w.step(0.1f);
  EXPECT_EQ(w.agents().blocked[0], 1);
  EXPECT_NEAR(w.agents().velocities[0], 0.9f, 1e-6);  // braking at the acceleration limit
}

TEST(World, PenetrationAndOverlapAreMeasured) {
  World w(chase_and_avoid({0, 0}));
  w.obstacles().add_segment({{5, -5}, {5, 5}});
  std::vector<Real> pos{4.8f, 0, 0, 0, 0.6f, 0}, speed{0, 0, 0};
  AgentSpawn spawn;
  spawn.positions = pos.data();
  spawn.max_speed = speed.data();
  w.add_agents(3, spawn);  // radius 0.5 each
  w.step(0.1f);
  EXPECT_NEAR(w.agents().penetration[0], 0.3f, 1e-5);
  EXPECT_EQ(w.agents().penetration[1], 0.0f);
  EXPECT_NEAR(w.agents().overlap[1], 0.4f, 1e-5);
  EXPECT_NEAR(w.agents().overlap[2], 0.4f, 1e-5);
  EXPECT_EQ(w.agents().overlap[0], 0.0f);
  // On another layer, agent 2 is no longer sensed by agent 1.
  w.agents().layers[2] = 2u;
  w.agents().sense_masks[1] = 1u;
  w.step(0.1f);
  EXPECT_EQ(w.agents().overlap[1], 0.0f);
  EXPECT_NEAR(w.agents().overlap[2], 0.4f, 1e-5);
}

TEST(World, AgentMovedBetweenStepsIsSeenWhereItWasPut) {
  // The grid built when measuring one step serves the next only if nothing moved since.
  World w(chase_and_avoid({0, 100}, 16, true));
  std::vector<Real> pos{0, 0, 200, 0}, speed{0, 0};
  AgentSpawn spawn;
  spawn.positions = pos.data();
  spawn.max_speed = speed.data();
  w.add_agents(2, spawn);
  w.step(0.1f);
  const Real* danger = w.agents().danger.data();
  EXPECT_EQ(*std::max_element(danger, danger + 16), 0.0f);
  w.agents().positions[2] = 2;  // agent 1 now 2 m east of agent 0
  w.step(0.1f);
  EXPECT_GT(danger[0], 0.5f);  // slot 0 points east
  EXPECT_NEAR(w.agents().overlap[0], 0.0f, 1e-6);
  w.agents().positions[2] = 0.5f;
  w.step(0.1f);
  EXPECT_NEAR(w.agents().overlap[0], 0.5f, 1e-5);
}

TEST(World, ArriveStopsInsideTheTargetRadiusWithoutOvershoot) {
  ClassicBehavior arrive;
  arrive.kind = ClassicKind::Arrive;
  arrive.fixed_target = true;
  arrive.target = {10, 0};
  arrive.target_radius = 0.3f;
  arrive.slowing_radius = 3;
  arrive.time_to_target = 0.25f;
  World w({nullptr, std::make_shared<ClassicSteering>(std::vector<ClassicBehavior>{arrive}, CombinerKind::Blend)});
  add(w, {0, 0}, 2.0f, 4.0f);
  Real furthest = 0;
  for (int i = 0; i < 600; ++i) {
    w.step(0.02f);
    furthest = std::max(furthest, position_of(w, 0).x);
  }
  EXPECT_LT(std::fabs(position_of(w, 0).x - 10), 0.3f);
  EXPECT_LE(furthest, 10.0f);  // never passed the target
  EXPECT_LT(length(load(w.agents().velocities.data(), 0)), 0.05f);
}

TEST(World, PursueCatchesATargetMovingInAStraightLine) {
  ClassicBehavior runner;
  runner.kind = ClassicKind::Seek;
  runner.fixed_target = true;
  runner.target = {1000, 0};
  World w({nullptr, std::make_shared<ClassicSteering>(std::vector<ClassicBehavior>{runner}, CombinerKind::Blend)});
  ClassicBehavior pursue;
  pursue.kind = ClassicKind::Pursue;
  pursue.max_prediction = 2;
  const int chaser = w.add_steering(
      {nullptr, std::make_shared<ClassicSteering>(std::vector<ClassicBehavior>{pursue}, CombinerKind::Blend)});
  std::vector<Real> p0{0, 10}, v0{1, 0}, s0{1}, a0{1};
  AgentSpawn target;
  target.positions = p0.data();
  target.velocities = v0.data();
  target.max_speed = s0.data();
  target.max_acceleration = a0.data();
  const std::int64_t prey = w.add_agents(1, target);
  std::vector<Real> p1{0, 0}, s1{2}, a1{4};
  const std::int64_t hunter_target = prey;
  AgentSpawn hunter;
  hunter.positions = p1.data();
  hunter.max_speed = s1.data();
  hunter.max_acceleration = a1.data();
  hunter.target_ids = &hunter_target;
  const std::int64_t hunter_id = w.add_agents(1, hunter, chaser);
  Real closest = kInfinity;
  for (int i = 0; i < 1000 && closest > 0.5f; ++i) {
    w.step(0.02f);
    closest = std::min(closest, length(position_of(w, prey) - position_of(w, hunter_id)));
  }
  EXPECT_LE(closest, 0.5f);
}

TEST(World, ResultsAreBitIdenticalForOneAndTwoThreads) {
  auto run = [](int threads) {
    World w(chase_and_avoid({0, 0}, 16, true));
    w.obstacles().add_circle({{5, 5}, 2});
    w.obstacles().add_segment({{-20, -15}, {20, -15}});
    w.set_threads(threads);
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> u(-30, 30);
    std::vector<Real> pos(2 * 700);
    for (Real& v : pos) v = u(rng);
    add(w, pos, 2.0f, 3.0f);
    const int seek = w.add_steering(classic(ClassicKind::Arrive, {3, 3}));
    add(w, std::vector<Real>(pos.begin(), pos.begin() + 300), 1.5f, 2.0f, seek);
    for (int i = 0; i < 150; ++i) w.step(0.05f);
    const auto& p = *w.agents().positions.buffer;
    const auto& f = *w.agents().final.buffer;
    std::string bytes(reinterpret_cast<const char*>(p.data()), p.size() * sizeof(Real));
    bytes.append(reinterpret_cast<const char*>(f.data()), f.size() * sizeof(Real));
    return std::hash<std::string>{}(bytes);
  };
  EXPECT_EQ(run(1), run(2));
}

namespace {

// A behaviour that, the first time it is prepared, says so and waits to be let go: it
// holds a step open while the test calls the world from another thread.
class HoldsTheStep : public InterestBehavior {
 public:
  HoldsTheStep() : InterestBehavior(1) {}
  void prepare(const SceneView&, const int*, int, const SlotDirections&) const override {
    std::unique_lock<std::mutex> lock(mutex_);
    if (held_) return;
    held_ = inside_ = true;
    changed_.notify_all();
    changed_.wait(lock, [this] { return released_; });
  }
  void fill(const SceneView&, const int*, int, const SlotDirections&, Real*, Real*) const override {}
  void wait_inside() const {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return inside_; });
  }
  void release() const {
    std::lock_guard<std::mutex> lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  mutable bool held_ = false, inside_ = false, released_ = false;
};

}  // namespace

TEST(World, CallsThatChangeTheWorldDuringAStepThrowInsteadOfRacing) {
  auto holder = std::make_shared<HoldsTheStep>();
  World w(
      {std::make_shared<Pipeline>(PipelineConfig{}, std::vector<std::shared_ptr<const Behavior>>{holder}), nullptr});
  add(w, {0, 0, 5, 0}, 1.0f);
  std::thread stepping([&w] { w.step(0.1f); });
  holder->wait_inside();
  auto expect_busy = [](const std::function<void()>& call, const std::string& name) {
    try {
      call();
      ADD_FAILURE() << name << " did not throw while the world was stepping";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(name + ": the world is busy with step() in another thread", 0), 0u)
          << e.what();
    }
  };
  expect_busy([&] { w.step(0.1f); }, "step");
  expect_busy([&] { w.run(2, 0.1f, 1, RecordTargets{}); }, "run");
  expect_busy([&] { add(w, {1, 1}, 1.0f); }, "add_agents");
  const std::int64_t first = 0;
  expect_busy([&] { w.remove_agents(&first, 1); }, "remove_agents");
  expect_busy([&] { w.reset(); }, "reset");
  expect_busy([&] { w.set_threads(2); }, "threads");
  expect_busy([&] { w.set_keep_maps(false); }, "keep_maps");
  expect_busy([&] { w.obstacles(); }, "obstacles");
  expect_busy([&] { w.explain(0); }, "explain");
  std::vector<int> found;
  expect_busy([&] { w.neighbors({0, 0}, 1, kAllLayers, -1, found); }, "neighbors");
  expect_busy([&] { w.add_steering(chase_and_avoid({0, 0})); }, "add_steering");
  expect_busy([&] { w.set_steering(0, chase_and_avoid({0, 0})); }, "set_steering");
  // Reading stays allowed.
  EXPECT_EQ(w.agent_count(), 2);
  EXPECT_EQ(w.steps_taken(), 0);
  holder->release();
  stepping.join();
  // The step finished untouched, and the world takes calls again.
  EXPECT_EQ(w.steps_taken(), 1);
  EXPECT_EQ(w.agent_count(), 2);
  add(w, {1, 1}, 1.0f);
  w.step(0.1f);
  EXPECT_EQ(w.agent_count(), 3);
  EXPECT_EQ(w.steps_taken(), 2);
}

namespace {

// A behaviour that, in prepare(), runs `call` on the world it is evaluated in, as a
// Python behaviour's code may: on the stepping (or explaining) thread, inside the call.
class CallsTheWorld : public InterestBehavior {
 public:
  explicit CallsTheWorld(std::function<void()> call) : InterestBehavior(1), call_(std::move(call)) {}
  void prepare(const SceneView&, const int*, int, const SlotDirections&) const override { call_(); }
  void fill(const SceneView&, const int*, int, const SlotDirections&, Real*, Real*) const override {}

 private:
  std::function<void()> call_;
};

Steering calling_steering(std::function<void()> call) {
  Steering s{std::make_shared<Pipeline>(
                 PipelineConfig{},
                 std::vector<std::shared_ptr<const Behavior>>{std::make_shared<CallsTheWorld>(std::move(call))}),
             nullptr};
  s.runs_foreign_code = true;
  return s;
}

}  // namespace

TEST(World, ACallFromInsideTheStepOnItsOwnThreadIsToldSo) {
  World* world = nullptr;
  std::string message;
  World w(calling_steering([&] {
    try {
      world->reset();
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
  }));
  world = &w;
  add(w, {0, 0, 5, 0}, 1.0f);
  w.step(0.1f);
  EXPECT_EQ(message.rfind("reset: the world is busy with step(), and this call came from inside it, on the same "
                          "thread",
                          0),
            0u)
      << message;
  EXPECT_EQ(message.find("another thread"), std::string::npos) << message;
  message.clear();
  w.explain(0);
  EXPECT_EQ(message.rfind("reset: the world is busy with explain(), and this call came from inside it", 0), 0u)
      << message;
  EXPECT_EQ(w.steps_taken(), 1);
}

TEST(World, ExplainChecksTheStateAForeignBehaviourWroteInPrepare) {
  World* world = nullptr;
  World w(calling_steering([&] {
    (*world->agents().positions.buffer)[2] = std::numeric_limits<Real>::quiet_NaN();  // agent 1's x
  }));
  world = &w;
  add(w, {0, 0, 5, 0}, 1.0f);
  try {
    w.explain(0);
    ADD_FAILURE() << "explain took a NaN position written during it";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("positions:", 0), 0u) << what;
    EXPECT_NE(what.find("agent 1 (written during explain"), std::string::npos) << what;
  }
  // A step refuses the same state, before anything moves.
  EXPECT_THROW(w.step(0.1f), std::invalid_argument);
  EXPECT_EQ(w.steps_taken(), 0);
}

TEST(World, AvoidByPairsGivesEachAgentTheDangerOfItsOwnQuery) {
  // In a world, most agents using one Avoid of agents take their danger from a pass over
  // pairs; explain() queries each agent's neighbors itself. Agents that cannot move
  // (max_speed 0) keep the state the step saw, so both must agree to the bit, on 1 and 2
  // threads: for two pipelines that share the Avoid with different slot directions
  // (each agent's row copied from the pairs), and for one (whole blocks of agents
  // consecutive in the grid's order, whose rows the pipeline reads where the pairs left
  // them: Avoid::ready_rows).
  AvoidParams params;
  params.agents = true;
  params.max_distance = 4;
  auto avoid = std::make_shared<Avoid>(std::vector<Circle>{}, params);
  auto pipeline = [&](Real offset) {
    PipelineConfig c;
    c.slots = 16;
    c.offset = offset;
    std::vector<std::shared_ptr<const Behavior>> behaviors{
        std::make_shared<Chase>(std::vector<Vec2>{{0, 0}}, ChaseParams{}), avoid};
    return Steering{std::make_shared<Pipeline>(c, behaviors), nullptr};
  };
  for (int steerings : {1, 2}) {
    World w(pipeline(0));
    const int second = steerings == 2 ? w.add_steering(pipeline(0.2f)) : 0;
    std::mt19937 rng(4);
    for (int half : {0, second}) add_crowd(w, rng, 200, {0, 0}, {30, 90}, 0, {Real(0.2), Real(0.8)}, half);
    for (int threads : {1, 2}) {
      w.set_threads(threads);
      w.step(0.1f);
      int in_danger = 0;
      for (int a = 0; a < w.agent_count(); ++a) {
        const Pipeline::Explanation e = w.explain(a);
        const Real* row = w.agents().danger.data() + static_cast<std::size_t>(a) * 16;
        ASSERT_EQ(0, std::memcmp(e.danger.data(), row, 16 * sizeof(Real)))
            << "agent " << a << ", " << steerings << " steerings, " << threads << " threads";
        in_danger += *std::max_element(e.danger.begin(), e.danger.end()) > 0;
      }
      EXPECT_GT(in_danger, w.agent_count() / 2);
    }
  }
}

namespace {

// Each agent's overlap by brute force, as overlap.hpp defines it: max(0, r_a + r_b -
// |p_b - p_a|) over the agents b that a senses, with the kernels' float operations.
std::vector<Real> brute_force_overlap(const World& w) {
  const AgentStore& s = w.agents();
  std::vector<Real> overlap(w.agent_count(), 0);
  for (int a = 0; a < w.agent_count(); ++a) {
    for (int b = 0; b < w.agent_count(); ++b) {
      if (b == a || !(s.sense_masks[a] & s.layers[b])) continue;
      const Real dx = s.positions[2 * b] - s.positions[2 * a], dy = s.positions[2 * b + 1] - s.positions[2 * a + 1];
      overlap[a] = std::max(overlap[a], (s.radius[a] + s.radius[b]) - std::sqrt(dx * dx + dy * dy));
    }
  }
  return overlap;
}

}  // namespace

TEST(World, OverlapOfOnlyTheAgentsAvoidFoundCloseIsEveryAgentsOverlap) {
  // A crowd rushing to one point, Avoid sensing only 1.5 m around each agent: pairs meet
  // and overlap in the steps. After each step only the agents Avoid's pass found close
  // to another are queried for overlap (close_agents.hpp); all must have the overlap of
  // a query of every agent, for one radius or several, with layers or not, on 1 or 2
  // threads. An agent sent faster than its max_speed may go past the slack: that step
  // queries every agent.
  for (bool varied : {false, true}) {
    for (int threads : {1, 2}) {
      AvoidParams params;
      params.agents = true;
      params.max_distance = Real(1.5);  // twice the slack and more: 2 * 1.05 * 3 m/s * 0.1 s + 1 mm
      std::vector<std::shared_ptr<const Behavior>> behaviors{
          std::make_shared<Chase>(std::vector<Vec2>{{0, 0}}, ChaseParams{}),
          std::make_shared<Avoid>(std::vector<Circle>{}, params)};
      PipelineConfig c;
      c.slots = 16;
      World w({std::make_shared<Pipeline>(c, behaviors), nullptr});
      w.set_threads(threads);
      const int n = 300;
      std::mt19937 rng(varied ? 8 : 3);
      const Vec2 radii = varied ? Vec2{Real(0.3), Real(0.7)} : Vec2{Real(0.5), Real(0.5)};
      add_crowd(w, rng, n, {-30, -30}, {30, 30}, 3, radii);
      int close_only = 0, overlapping = 0;
      for (int step = 0; step < 60; ++step) {
        if (step == 40) {  // agent 0 sent onto an agent 10 m away or more, at max_speed 3
          Real* p = w.agents().positions.data();
          int b = 1;
          while (std::hypot(p[2 * b] - p[0], p[2 * b + 1] - p[1]) < 10) ++b;
          w.agents().velocities[0] = (p[2 * b] - p[0]) / Real(0.1);
          w.agents().velocities[1] = (p[2 * b + 1] - p[1]) / Real(0.1);
          w.agents().max_acceleration[0] = Real(0.1);
        }
        if (step == 41) {  // and back to its max_speed
          w.agents().velocities[0] = w.agents().velocities[1] = 0;
          w.agents().max_acceleration[0] = kInfinity;
        }
        w.step(0.1f);
        const std::vector<Real> want = brute_force_overlap(w);
        ASSERT_EQ(0, std::memcmp(want.data(), w.agents().overlap.data(), n * sizeof(Real)))
            << "step " << step << ", radii varied " << varied << ", " << threads << " threads";
        if (step == 40) {
          EXPECT_GT(want[0], 0);  // it landed on the agent, which Avoid's pass saw 10 m away
          EXPECT_EQ(w.overlap_queries(), n);
        } else {
          close_only += w.overlap_queries() < n;
        }
        overlapping += std::count_if(want.begin(), want.end(), [](Real o) { return o > 0; });
      }
      // Every step but the one with the fast agent; none in a build without the vector
      // kernels, which has no pass by pairs.
      EXPECT_EQ(close_only, agent_pair_danger_available(16) ? 59 : 0);
      EXPECT_GT(overlapping, 100);
    }
  }
}

namespace {

// Counts its evaluations of each agent in the values the world keeps for it, and shows
// the count in slot `slot` of the agent's interest map.
class CountingBehavior : public InterestBehavior {
 public:
  explicit CountingBehavior(int slot) : InterestBehavior(1), slot_(slot) {}
  int memory_width() const override { return 1; }
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real*) const override {
    for (int k = 0; k < count; ++k) {
      const Real* kept = scene.memory_of(agents[k]);
      const Real evaluations = !kept || std::isnan(kept[0]) ? 1 : kept[0] + 1;
      if (Real* out = scene.memory_out_of(agents[k])) out[0] = evaluations;
      interest[static_cast<std::size_t>(k) * dirs.slots() + slot_] = evaluations;
    }
  }

 private:
  int slot_;
};

Steering counting_pipeline() {
  std::vector<std::shared_ptr<const Behavior>> behaviors{
      std::make_shared<CountingBehavior>(0), std::make_shared<Chase>(std::vector<Vec2>{{5, 0}}, ChaseParams{}),
      std::make_shared<CountingBehavior>(1)};
  PipelineConfig c;
  c.slots = 8;
  return {std::make_shared<Pipeline>(c, behaviors), nullptr};
}

// Slot `slot` of agent id's interest map after the last step: its count of evaluations.
Real count_of(const World& w, std::int64_t id, int slot = 0) {
  return w.agents().interest[static_cast<std::size_t>(w.index_of(id)) * w.slots() + slot];
}

}  // namespace

TEST(World, BehavioursKeepValuesPerAgentFromStepToStep) {
  for (int threads : {1, 2}) {
    World w(counting_pipeline());
    w.set_threads(threads);
    const std::int64_t first = add(w, {0, 0, 1, 0, 2, 0, 3, 0}, 1);
    for (int s = 0; s < 3; ++s) w.step(0.1f);
    for (std::int64_t id = first; id < first + 4; ++id) {
      EXPECT_EQ(count_of(w, id, 0), 3);
      EXPECT_EQ(count_of(w, id, 1), 3);  // a second behaviour keeps its own values
    }
    // Explaining evaluates once more but keeps nothing.
    EXPECT_EQ(w.explain(w.index_of(first + 1)).interest[0], 4);
    try {
      w.explain(4);
      ADD_FAILURE() << "a row past the agents was explained";
    } catch (const std::out_of_range& e) {
      EXPECT_STREQ(e.what(), "agent: expected a row from 0 to 3, got 4");
    }
    w.step(0.1f);
    EXPECT_EQ(count_of(w, first + 1), 4);
    // Removing agents keeps the others' values with them; new agents start afresh.
    const std::int64_t removed[] = {first, first + 2};
    w.remove_agents(removed, 2);
    const std::int64_t late = add(w, {5, 5}, 1);
    w.step(0.1f);
    EXPECT_EQ(count_of(w, first + 1), 5);
    EXPECT_EQ(count_of(w, first + 3), 5);
    EXPECT_EQ(count_of(w, late), 1);
    // Reset forgets them, and so does a new steering for its agents only.
    w.reset();
    w.step(0.1f);
    EXPECT_EQ(count_of(w, first + 3), 1);
    EXPECT_EQ(count_of(w, late), 1);
    const int other = w.add_steering(counting_pipeline());
    const std::int64_t elsewhere = add(w, {9, 9}, 1, kInfinity, other);
    w.step(0.1f);
    w.set_steering(other, counting_pipeline());
    w.step(0.1f);
    EXPECT_EQ(count_of(w, first + 3), 3);
    EXPECT_EQ(count_of(w, elsewhere), 1);
  }
}
