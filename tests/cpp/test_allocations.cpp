// A steady-state World::step allocates nothing, whatever its behaviours and stages: a world
// with every kind of behaviour and a classic steering, goals, contact with its events,
// moving obstacles and agents on two layers, on one and two threads; World::run records
// its steps without allocating per step; a worker that first takes a kind of block late
// in a run finds its scratch ready.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "contextsteer/behaviors/anticipate.hpp"
#include "contextsteer/behaviors/arrive_leave.hpp"
#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/behaviors/flee.hpp"
#include "contextsteer/behaviors/flocking.hpp"
#include "contextsteer/behaviors/follow_field.hpp"
#include "contextsteer/behaviors/follow_path.hpp"
#include "contextsteer/behaviors/forward.hpp"
#include "contextsteer/behaviors/pursue_evade.hpp"
#include "contextsteer/behaviors/racing_lanes.hpp"
#include "contextsteer/behaviors/rays.hpp"
#include "contextsteer/behaviors/time_to_collision.hpp"
#include "contextsteer/behaviors/wander.hpp"
#include "contextsteer/world/world.hpp"
#include "counting_new.hpp"
#include "params_with.hpp"

using namespace contextsteer;

namespace {

// 480 agents in a 60 m square round pillars and a wall, in four steerings: one pipeline
// of every context behaviour, one of a racing car's lanes, one classic steering, one of a
// crowd (a field per group marched again from the crowd, Anticipate, danger multiplying). Every
// stage is on: goals that give way, contact with events, moving circles, segments and
// a turning polygon (some on paths, drifting far enough for their index to be rebuilt),
// agents on layers 1 and 2 that sense one or both.
std::unique_ptr<World> every_kind_of_world(int threads) {
  Obstacles scene;
  for (int i = 0; i < 80; ++i) scene.add_circle({{7.0f * (i % 9) - 28, 7.0f * (i / 9) - 28}, 0.6f});
  scene.add_segment({{-20, 25}, {20, 25}});
  scene.add_polygon({{30, 30}, {34, 30}, {32, 34}});

  const std::vector<Vec2> goal{{25, 0}};
  ChaseParams chase;
  chase.agent_target = true;
  AvoidParams avoid;
  avoid.agents = true;
  avoid.max_distance = 3;
  const auto field = std::make_shared<NavigationField>(scene, kAllLayers, Bounds{{-40, -40}, {40, 40}}, 0.5f, 0.3f,
                                                       std::vector<Vec2>{{25, 0}});
  std::vector<std::shared_ptr<const Behavior>> everything{
      std::make_shared<Chase>(std::vector<Vec2>{}, chase),
      std::make_shared<Avoid>(std::vector<Circle>{{{5, 5}, 1}}, avoid),
      std::make_shared<Flee>(goal, with<FleeParams>([](auto& p) { p.radius = 5, p.weight = 0.2f; })),
      std::make_shared<Arrive>(std::vector<Vec2>{}, with<ArriveParams>([](auto& p) {
                                 p.agent_target = true, p.weight = 0.5f, p.sideways = 0.3f;
                               })),
      std::make_shared<Leave>(goal, with<LeaveParams>([](auto& p) { p.danger_radius = 4, p.weight = 0.2f; })),
      std::make_shared<Pursue>(with<PursueParams>([](auto& p) { p.weight = 0.3f; })),
      std::make_shared<Evade>(
          with<EvadeParams>([](auto& p) { p.radius = 5, p.falloff = Falloff::Smoothstep, p.weight = 0.3f; })),
      std::make_shared<Separation>(with<SeparationParams>([](auto& p) { p.radius = 2, p.weight = 0.5f; })),
      std::make_shared<Alignment>(with<AlignmentParams>([](auto& p) { p.radius = 4, p.weight = 0.2f; })),
      std::make_shared<Cohesion>(with<CohesionParams>([](auto& p) { p.radius = 4, p.weight = 0.2f; })),
      std::make_shared<Forward>(with<ForwardParams>([](auto& p) { p.strength = 0.5f, p.weight = 0.2f; })),
      std::make_shared<Wander>(with<WanderParams>([](auto& p) { p.seed = 7, p.strength = 0.5f, p.weight = 0.2f; })),
      std::make_shared<FollowPath>(
          std::vector<Vec2>{{-30, -30}, {30, -30}, {30, 20}},
          with<FollowPathParams>([](auto& p) { p.window = 8, p.loop = true, p.weight = 0.5f; })),
      // Its field marched again for the crowd at every step (crowd_every 0).
      std::make_shared<FollowField>(field, with<FollowFieldParams>([](auto& p) {
                                      p.weight = 0.5f, p.crowd_density = 0.5f, p.crowd_counterflow = 0.5f;
                                      p.crowd_every = 0;
                                    })),
      std::make_shared<Rays>(with<RaysParams>([](auto& p) { p.length = 4; })),
      std::make_shared<TimeToCollision>(with<TimeToCollisionParams>([](auto& p) { p.radius = 6, p.horizon = 2; }))};
  PipelineConfig config;
  config.slots = 16;
  config.resolve.select = SelectMethod::Blend;
  config.resolve.hysteresis = 0.3f;  // leaning toward the current way takes a biased copy of each final map
  config.smooth = 0.3f;
  config.blur_danger = 0.5f;

  std::vector<Vec2> oval;
  for (int k = 0; k < 40; ++k) oval.push_back({30 * std::cos(0.157f * k), 20 * std::sin(0.157f * k)});
  const auto track = std::make_shared<Track>(oval, 4, std::vector<Real>{}, true);
  const std::vector<std::shared_ptr<const Behavior>> lanes{
      std::make_shared<RacingLanes>(track, with<RacingLanesParams>([](auto& p) { p.line_width = 1; }))};

  ClassicBehavior arrive;
  arrive.kind = ClassicKind::Arrive;
  ClassicBehavior look;
  look.kind = ClassicKind::LookWhereYouGo;

  // A crowd's steering: a field per group marched again from the crowd at every step,
  // Anticipate, danger multiplying.
  const std::vector<std::shared_ptr<const NavigationField>> group_fields{
      field, std::make_shared<NavigationField>(scene, kAllLayers, Bounds{{-40, -40}, {40, 40}}, 0.5f, 0.3f,
                                               std::vector<Vec2>{{-25, 0}})};
  const std::vector<std::shared_ptr<const Behavior>> crowd{
      std::make_shared<FollowField>(group_fields, true, with<FollowFieldParams>([](auto& p) {
                                      p.crowd_density = 0.5f, p.crowd_counterflow = 1, p.crowd_every = 0;
                                    })),
      std::make_shared<Anticipate>(
          with<AnticipateParams>([](auto& p) { p.make_way = 0.2f, p.keep_right = 0.1f, p.responsibility = 0.9f; }))};
  PipelineConfig multiply = config;
  multiply.resolve.danger_mode = DangerMode::Multiply;

  auto made = std::make_unique<World>(Steering{std::make_shared<Pipeline>(config, everything), nullptr});
  World& world = *made;
  world.add_steering(Steering{std::make_shared<Pipeline>(config, lanes), nullptr});
  world.add_steering(Steering{
      nullptr, std::make_shared<ClassicSteering>(std::vector<ClassicBehavior>{arrive, look}, CombinerKind::Blend)});
  world.add_steering(Steering{std::make_shared<Pipeline>(multiply, crowd), nullptr});
  world.obstacles() = scene;
  world.set_threads(threads);
  GoalParams goals;
  goals.arrival = ArrivalMode::give_way;
  goals.patience = 0.5f;
  goals.stall_time = 0.2f;
  world.set_goals(goals);
  ContactParams contact;
  contact.events = true;
  world.set_contact(&contact);
  std::vector<Circle> bodies;
  std::vector<Vec2> velocities;
  for (int i = 0; i < 72; ++i) {  // enough to be indexed (Obstacles::kIndexFrom)
    bodies.push_back({{5.0f * (i % 9) - 20, 5.0f * (i / 9) - 20}, 0.5f});
    velocities.push_back({2.0f * std::cos(0.7f * i), 2.0f * std::sin(0.7f * i)});
  }
  world.moving().add_circles(bodies, velocities, 1);
  world.moving().add_segments({{{-10, -30}, {-6, -28}}, {{10, 30}, {12, 26}}}, {{0, 1.5f}, {0, -1.5f}}, 2);
  world.moving().add_polygon({{0, 0}, {3, 0}, {1.5f, 2}}, {1, 0}, 0.8f, kAllLayers);
  ObstaclePath path;
  path.waypoints = {{-20, -20}, {20, -20}, {20, 20}};
  path.speed = 3;
  path.back_and_forth = true;
  world.moving().set_path(0, path);

  std::mt19937 rng(1);
  std::uniform_real_distribution<Real> place(-35, 35);
  for (int steering = 0; steering < 4; ++steering) {
    const int n = steering == 1 ? 20 : steering == 3 ? 80 : 190;
    std::vector<Real> positions, targets, speed(n, 1.5f);
    std::vector<LayerMask> layers(n), senses(n);
    std::vector<std::int32_t> groups(n);
    for (int k = 0; k < n; ++k) {
      groups[k] = k % 2;
      layers[k] = k % 3 == 0 ? 2u : 1u;
      senses[k] = k % 5 == 0 ? 1u : 3u;
      if (steering == 1) {  // cars on the track
        positions.insert(positions.end(), {oval[2 * k].x, oval[2 * k].y});
      } else {
        positions.insert(positions.end(), {place(rng), place(rng)});
      }
      targets.insert(targets.end(), {place(rng), place(rng)});
    }
    AgentSpawn spawn;
    spawn.positions = positions.data();
    spawn.targets = targets.data();
    spawn.max_speed = speed.data();
    spawn.layers = layers.data();
    spawn.sense_masks = senses.data();
    spawn.groups = groups.data();
    world.add_agents(n, spawn, steering);
  }
  return made;
}

}  // namespace

TEST(Allocations, AStepOfAWorldWithEveryBehaviourAndStageAllocatesNothing) {
  for (int threads : {1, 2}) {
    const std::unique_ptr<World> made = every_kind_of_world(threads);
    World& world = *made;
    // Warm-up: scratch reaches its size. A worker's thread-local scratch grows the first
    // time the worker runs a block that needs more, and which blocks each worker runs
    // depends on scheduling: the warm-up lasts until ten steps in a row allocate nothing.
    for (int quiet = 0, i = 0; quiet < 10 && i < 400; ++i) {
      const long long at = heap_allocations();
      world.step(0.05f, 2);
      quiet = heap_allocations() == at ? quiet + 1 : 0;
    }
    const std::vector<Real> start(world.agents().positions.data(),
                                  world.agents().positions.data() + 2 * world.agent_count());
    const long long before = heap_allocations();
    int contacts = 0;
    for (int i = 0; i < 20; ++i) {
      world.step(0.05f, 2);
      contacts += static_cast<int>(std::count_if(world.events().begin(), world.events().end(), [](const StepEvent& e) {
        return e.kind == EventKind::agent_contact || e.kind == EventKind::obstacle_contact;
      }));
    }
    EXPECT_EQ(heap_allocations() - before, 0) << threads << " thread(s)";
    EXPECT_GT(contacts, 0) << "the contact stage reported contacts";
    EXPECT_GT(world.moving().positions()[0], -19.0f) << "the body on a path moved";
    // Recording: a run's own allocations (its lists of the recorded rows) do not grow
    // with its steps.
    const int rows = world.agent_count(), bodies = world.moving().count();
    std::vector<Real> positions(2 * 30 * static_cast<std::size_t>(rows)), speed_of(30 * static_cast<std::size_t>(rows));
    std::vector<std::int32_t> states(30 * static_cast<std::size_t>(rows));
    std::vector<Real> poses(2 * 30 * static_cast<std::size_t>(bodies));
    std::vector<double> times(30);
    RecordTargets record;
    record.positions = positions.data();
    record.penetration = speed_of.data();
    record.state = states.data();
    record.time = times.data();
    record.moving_positions = poses.data();
    long long per_run[2];
    for (int r = 0; r < 2; ++r) {
      const long long at = heap_allocations();
      world.run(r == 0 ? 5 : 30, 0.05f, 1, record);
      per_run[r] = heap_allocations() - at;
    }
    EXPECT_EQ(per_run[1], per_run[0]) << threads << " thread(s)";
    EXPECT_NE(positions[2 * 29 * static_cast<std::size_t>(rows)], 0.0f);
    int moved = 0;  // the steps did steer the agents
    for (int a = 0; a < world.agent_count(); ++a) {
      moved += length(load(world.agents().positions.data(), a) - load(start.data(), a)) > 0.2f;
    }
    EXPECT_GT(moved, world.agent_count() * 9 / 10);
  }
}

// Steps a world of Chase + Avoid of agents (reach 3 m, 16 slots), on one and two
// threads, from `positions` toward `targets` (n, 2): after a warm-up, 40 steps allocate
// nothing.
void expect_steps_allocate_nothing(const std::vector<Real>& positions, const std::vector<Real>& targets) {
  ChaseParams chase;
  chase.agent_target = true;
  AvoidParams avoid;
  avoid.agents = true;
  avoid.world_obstacles = false;
  avoid.max_distance = 3;
  PipelineConfig config;
  config.slots = 16;
  const std::vector<std::shared_ptr<const Behavior>> behaviours{std::make_shared<Chase>(std::vector<Vec2>{}, chase),
                                                                std::make_shared<Avoid>(std::vector<Circle>{}, avoid)};
  for (int threads : {1, 2}) {
    World world(Steering{std::make_shared<Pipeline>(config, behaviours), nullptr});
    world.set_threads(threads);
    AgentSpawn spawn;
    spawn.positions = positions.data();
    spawn.targets = targets.data();
    world.add_agents(static_cast<int>(positions.size() / 2), spawn, 0);
    for (int i = 0; i < 5; ++i) world.step(0.05f);  // warm-up: scratch reaches its size
    const long long before = heap_allocations();
    for (int i = 0; i < 40; ++i) world.step(0.1f);
    EXPECT_EQ(heap_allocations() - before, 0) << threads << " thread(s)";
  }
}

TEST(Allocations, AStepOfAWorldInGroupsFarApartAllocatesNothing) {
  // Four crowds 1e5 m apart, each heading through itself: the grid cuts the plane into
  // a region per crowd at every step, as the crowds spread and the regions change.
  std::mt19937 rng(2);
  std::uniform_real_distribution<Real> place(-10, 10);
  std::vector<Real> positions, targets;
  for (int k = 0; k < 600; ++k) {
    const Real x = 1e5f * static_cast<Real>(k % 4), y = 1e5f * static_cast<Real>(k % 3 == 0);
    const Real dx = place(rng), dy = place(rng);
    positions.insert(positions.end(), {x + dx, y + dy});
    targets.insert(targets.end(), {x - 3 * dx, y - 3 * dy});
  }
  expect_steps_allocate_nothing(positions, targets);
}

TEST(Allocations, AStepOfAWorldAlongADiagonalAllocatesNothing) {
  // 600 agents on a road 6 m wide at 45 degrees, heading both ways along it: 600 m long,
  // the grid fits its rows to the road at every step, as the agents move and the rows
  // change; 2 km long, gaps open along the road and the grid cuts it into regions at
  // some steps, after the warm-up.
  for (const Real length : {Real(600), Real(2000)}) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<Real> along(0, length), across(-3, 3);
    std::vector<Real> positions, targets;
    for (int k = 0; k < 600; ++k) {
      const Real s = along(rng), e = across(rng), goal = k % 2 ? s + 50 : s - 50;
      positions.insert(positions.end(), {(s - e) * Real(0.70710678), (s + e) * Real(0.70710678)});
      targets.insert(targets.end(), {(goal - e) * Real(0.70710678), (goal + e) * Real(0.70710678)});
    }
    expect_steps_allocate_nothing(positions, targets);
  }
}

TEST(Allocations, AStepOfACrowdThatPacksAfterTheWarmUpAllocatesNothing) {
  // 600 agents of radius 0.5 m spread over a 60 m square, with contact: warmed up while
  // they stand apart, then stepped as they all press toward the centre, where the
  // contact stage's lists of the agents near each agent grow with the crowd's density;
  // with events, so do its contacts.
  std::mt19937 rng(4);
  std::uniform_real_distribution<Real> place(-30, 30), goal(-1, 1);
  std::vector<Real> positions, targets;
  for (int k = 0; k < 600; ++k) {
    positions.insert(positions.end(), {place(rng), place(rng)});
    targets.insert(targets.end(), {goal(rng), goal(rng)});
  }
  ChaseParams chase;
  chase.agent_target = true;
  AvoidParams avoid;
  avoid.agents = true;
  avoid.world_obstacles = false;
  avoid.max_distance = 1.5f;
  avoid.weight = 0.2f;
  PipelineConfig config;
  config.slots = 16;
  const std::vector<std::shared_ptr<const Behavior>> behaviours{std::make_shared<Chase>(std::vector<Vec2>{}, chase),
                                                                std::make_shared<Avoid>(std::vector<Circle>{}, avoid)};
  for (const bool events : {false, true}) {
    ContactParams contact;
    contact.events = events;
    for (int threads : {1, 2}) {
      World world(Steering{std::make_shared<Pipeline>(config, behaviours), nullptr});
      world.set_threads(threads);
      world.set_contact(&contact);
      std::vector<Real> speed(600, 3);
      AgentSpawn spawn;
      spawn.positions = positions.data();
      spawn.targets = targets.data();
      spawn.max_speed = speed.data();
      world.add_agents(600, spawn, 0);
      for (int i = 0; i < 3; ++i) world.step(0.05f);  // warm-up, the agents still apart
      const long long before = heap_allocations();
      std::size_t most_events = 0;
      for (int i = 0; i < 300; ++i) {
        world.step(0.1f);
        most_events = std::max(most_events, world.events().size());
      }
      EXPECT_EQ(heap_allocations() - before, 0) << threads << " thread(s), events " << events;
      // With events, the packed crowd reports its contacts: many more than agents at times.
      if (events) EXPECT_GT(most_events, 600u);
      // The crowd did pack: most agents have at least four others within 1.2 m.
      int packed = 0;
      const Real* p = world.agents().positions.data();
      for (int a = 0; a < 600; ++a) {
        int close = 0;
        for (int b = 0; b < 600; ++b) close += b != a && length(load(p, a) - load(p, b)) < 1.2f;
        packed += close >= 4;
      }
      EXPECT_GT(packed, 400) << threads << " thread(s)";
    }
  }
}

namespace {

// Sleeps in fill at the steps from `from` on (by scene.time, seconds), so that the other
// worker mostly takes the blocks after its own meanwhile.
class Gate : public InterestBehavior {
 public:
  explicit Gate(double from) : InterestBehavior(1), from_(from) {}
  void fill(const SceneView& scene, const int*, int, const SlotDirections&, Real*, Real*) const override {
    if (scene.time >= from_) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }

 private:
  double from_;
};

}  // namespace

TEST(Allocations, AWorkerThatFirstTakesABlockLateAllocatesNothing) {
  // Two threads, two blocks: a gate's, then one of every behaviour that works in a
  // worker's scratch (Avoid with walls and agents, Rays, Anticipate with arc edges,
  // TimeToCollision, among static and moving obstacles; 272 slots, past what lives on the
  // stack, with hysteresis). Until step 40 Avoid measures walls along whole arcs and
  // Anticipate takes no arc edges; from step 40 on Avoid casts rays at each arc's edges and
  // Anticipate takes them, so whichever worker runs the block then needs that scratch for
  // the first time, and the gate's block sleeps, so that the other worker
  // takes the late block while it does. The scratch was sized with the world: no step
  // after the first allocates.
  constexpr Real dt = 0.05f;
  constexpr int kLateFrom = 40, kSteps = 60;
  PipelineConfig config;
  config.slots = 272;
  config.resolve.hysteresis = 0.3f;
  ChaseParams chase;
  chase.agent_target = true;
  AvoidParams avoid;
  avoid.agents = true;
  const auto avoiding = std::make_shared<Avoid>(std::vector<Circle>{}, avoid);
  const auto anticipating = std::make_shared<Anticipate>(with<AnticipateParams>([](auto& p) { p.radius = 6; }));
  const std::vector<std::shared_ptr<const Behavior>> gated{std::make_shared<Chase>(std::vector<Vec2>{}, chase),
                                                           std::make_shared<Gate>(kLateFrom * dt - dt / 2)};
  const std::vector<std::shared_ptr<const Behavior>> late{
      std::make_shared<Chase>(std::vector<Vec2>{}, chase), avoiding,
      std::make_shared<Rays>(with<RaysParams>([](auto& p) { p.length = 4; })), anticipating,
      std::make_shared<TimeToCollision>(with<TimeToCollisionParams>([](auto& p) { p.radius = 6; }))};
  World world(Steering{std::make_shared<Pipeline>(config, gated), nullptr});
  world.add_steering(Steering{std::make_shared<Pipeline>(config, late), nullptr});
  world.set_threads(2);
  for (int i = 0; i < 12; ++i) world.obstacles().add_circle({{2.0f * i - 10, 3}, 0.5f});
  world.obstacles().add_segment({{-10, -3}, {10, -3}});
  world.obstacles().add_polygon({{12, -2}, {14, -2}, {13, 2}});
  world.moving().add_circles({{{0, 6}, 0.5f}}, {{0, -0.5f}}, kAllLayers);
  world.moving().add_segments({{{-4, 5}, {4, 5}}}, {{0, -0.3f}}, kAllLayers);
  world.moving().add_polygon({{6, 4}, {8, 4}, {7, 6}}, {-0.2f, -0.2f}, 0.3f, kAllLayers);
  const std::vector<Real> gate_at{-20, -20}, gate_to{-20, -21};
  AgentSpawn spawn;
  spawn.positions = gate_at.data();
  spawn.targets = gate_to.data();
  world.add_agents(1, spawn, 0);
  std::vector<Real> positions, targets;
  for (int k = 0; k < 12; ++k) {
    positions.insert(positions.end(), {-9.0f + 1.5f * k, 0.5f * (k % 3) - 0.5f});
    targets.insert(targets.end(), {9.0f - 1.5f * k, 0.5f - 0.5f * (k % 3)});
  }
  spawn.positions = positions.data();
  spawn.targets = targets.data();
  world.add_agents(12, spawn, 1);

  world.step(dt);      // the first step
  long long made = 0;  // by the steps after it
  for (int i = 1; i < kSteps; ++i) {
    if (i == kLateFrom) {
      AvoidParams walls = avoiding->params();
      walls.wall_arc = 0.5f;
      avoiding->set_params(walls);
      AnticipateParams edges = anticipating->params();
      edges.arc_edges = true;
      anticipating->set_params(edges);
    }
    const long long at = heap_allocations();
    world.step(dt);
    made += heap_allocations() - at;
  }
  EXPECT_EQ(made, 0);
  EXPECT_GT(std::count_if(world.agents().danger.data() + 272, world.agents().danger.data() + 13 * 272,
                          [](Real d) { return d > 0; }),
            0)
      << "the late block saw danger";
}

TEST(Allocations, TheCounterCounts) {
  // The check above can fail: an allocation made in between shows.
  const long long before = heap_allocations();
  auto kept = std::make_unique<std::vector<int>>(1000);
  EXPECT_GE(heap_allocations() - before, 2);
}
