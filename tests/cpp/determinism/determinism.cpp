// The determinism program: a fixed set of scenes stepped a few hundred times, one hash per
// scene (FNV-1a 64 over the bytes of the agents' positions, velocities and headings, in row
// order, after the last step). Every CPU, compiler, operating system, lane width and thread
// count must print the same hashes (docs/determinism.md); tests/cpp/determinism/hashes.txt
// holds them, and tests/python/test_determinism.py builds the same scenes through the
// Python API and gets the same values.
//
//   determinism [--width 16|8|4|1] [--threads n] [--check hashes.txt]
//
// --width caps the kernels' lanes (simd_width_limit: 16 takes the AVX-512 sweeps where the
// CPU has them, 8 AVX2, 4 SSE or NEON, 1 the scalar paths); --check compares each hash
// with the file's and exits 1 on any difference.
//
// Every input is a small multiple of a power of two, exact in float, so that the Python
// scenes start from the very same bits.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "contextsteer/behaviors/anticipate.hpp"
#include "contextsteer/behaviors/arrive_leave.hpp"
#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/behaviors/follow_field.hpp"
#include "contextsteer/navigation/navigation_field.hpp"
#include "contextsteer/steering/steering.hpp"
#include "contextsteer/world/world.hpp"

using namespace contextsteer;

namespace {

// FNV-1a, 64 bits.
struct Fnv1a {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void add(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  }
};

std::uint64_t hash_of(const World& world) {
  const AgentStore& agents = world.agents();
  const std::size_t n = static_cast<std::size_t>(world.agent_count());
  Fnv1a f;
  f.add(agents.positions.data(), 2 * n * sizeof(Real));
  f.add(agents.velocities.data(), 2 * n * sizeof(Real));
  f.add(agents.heading.data(), n * sizeof(Real));
  return f.h;
}

// Agents to add: columns of equal length.
struct Spawn {
  std::vector<Real> positions, targets, radius, max_speed, max_acceleration;
  std::vector<std::int32_t> groups;
  void add(Real x, Real y, Real tx, Real ty, Real r, Real speed, Real accel, int group = 0) {
    positions.insert(positions.end(), {x, y});
    targets.insert(targets.end(), {tx, ty});
    radius.push_back(r);
    max_speed.push_back(speed);
    max_acceleration.push_back(accel);
    groups.push_back(group);
  }
  void into(World& world, int steering = 0) const {
    AgentSpawn s;
    s.positions = positions.data();
    s.targets = targets.data();
    s.radius = radius.data();
    s.max_speed = max_speed.data();
    s.max_acceleration = max_acceleration.data();
    s.groups = groups.data();
    world.add_agents(static_cast<int>(radius.size()), s, steering);
  }
};

using Behaviors = std::vector<std::shared_ptr<const Behavior>>;

// The disc scene: agents on a 2 m grid within 20 m of the centre, each for its antipode;
// Chase of its own target and Avoid of the agents within 15 m, 16 slots. 200 steps of 0.1 s.
std::uint64_t disc(int threads) {
  ChaseParams chase;
  chase.agent_target = true;
  AvoidParams avoid;
  avoid.agents = true;
  avoid.world_obstacles = false;
  avoid.max_distance = 15;
  PipelineConfig config;
  config.slots = 16;
  World world({std::make_shared<Pipeline>(config, Behaviors{std::make_shared<Chase>(std::vector<Vec2>{}, chase),
                                                            std::make_shared<Avoid>(std::vector<Circle>{}, avoid)}),
               nullptr});
  world.set_threads(threads);
  Spawn spawn;
  for (int j = -10; j <= 10; ++j) {
    for (int i = -10; i <= 10; ++i) {
      if (i * i + j * j > 100) continue;
      spawn.add(Real(2 * i), Real(2 * j), Real(-2 * i), Real(-2 * j), 0.5f, 1.5f, 3.0f);
    }
  }
  spawn.into(world);
  for (int s = 0; s < 200; ++s) world.step(0.1f);
  return hash_of(world);
}

// The crowd recipe (python/contextsteer/demo.py's _group_pipelines) for one group:
// FollowField along its field and on to each agent's target, Avoid of the walls, Anticipate
// of the agents; danger multiplies interest, blended choice with hysteresis.
std::shared_ptr<Pipeline> crowd_pipeline(const World& world, Bounds goal, Real crowd) {
  auto field = std::make_shared<NavigationField>(world.obstacles(), kAllLayers, world.obstacles().bounds(), 0.25f, 0.3f,
                                                 std::vector<Vec2>{}, std::vector<Bounds>{goal}, 2.0f);
  FollowFieldParams follow;
  follow.sideways = 0.5f;
  follow.to_target = true;
  follow.slowing_radius = 1;
  follow.crowd_density = 0.5f * crowd;
  follow.crowd_counterflow = crowd;
  AvoidParams avoid;
  avoid.max_distance = 0.5f;
  avoid.wall_arc = 1;
  AnticipateParams anticipate;
  anticipate.radius = 3;
  anticipate.horizon = 0.5f;
  anticipate.keep_right = 0.3f;
  anticipate.make_way = 0.6f;
  anticipate.responsibility = 0.9f;
  PipelineConfig config;
  config.slots = 16;
  config.resolve.select = SelectMethod::Blend;
  config.resolve.danger_mode = DangerMode::Multiply;
  config.resolve.hysteresis = 1;
  const std::vector<std::shared_ptr<const NavigationField>> fields{field};
  return std::make_shared<Pipeline>(config, Behaviors{std::make_shared<FollowField>(fields, false, follow),
                                                      std::make_shared<Avoid>(std::vector<Circle>{}, avoid),
                                                      std::make_shared<Anticipate>(anticipate)});
}

// A crowd world: the groups' pipelines, goals (give way on arrival, patience 2 s) and contact
// (slop 10 um, no events); stepped 300 times by 0.05 s.
std::uint64_t crowd(World& world, const Spawn (&groups)[2], const Bounds (&goals)[2], Real crowd_costs, int threads) {
  const int first = world.add_steering({crowd_pipeline(world, goals[0], crowd_costs), nullptr});
  world.add_steering({crowd_pipeline(world, goals[1], crowd_costs), nullptr});
  GoalParams goal_params;
  goal_params.arrival = ArrivalMode::give_way;
  goal_params.patience = 2;
  world.set_goals(goal_params);
  ContactParams contact;
  contact.slop = 1e-5f;
  contact.events = false;
  world.set_contact(&contact);
  world.set_threads(threads);
  groups[0].into(world, first);
  groups[1].into(world, first + 1);
  for (int s = 0; s < 300; ++s) world.step(0.05f);
  return hash_of(world);
}

// A world for crowd() to add its steerings to, once the obstacles are in (its first
// steering, which no agent takes, stands for the one a Python World is made with).
std::unique_ptr<World> empty_world() {
  PipelineConfig config;
  return std::make_unique<World>(
      Steering{std::make_shared<Pipeline>(config, Behaviors{std::make_shared<Anticipate>()}), nullptr});
}

// Two rooms of 10 m by 10 m, a wall between them with a door 1.5 m wide; 24 agents a room,
// each for the mirror of its place in the other room; the fields re-marched from the crowd.
std::uint64_t door(int threads) {
  const std::unique_ptr<World> world = empty_world();
  world->obstacles().set_bounds({{-10, -5}, {10, 5}});
  world->obstacles().add_segment({{0, -5}, {0, -0.75f}});
  world->obstacles().add_segment({{0, 0.75f}, {0, 5}});
  Spawn groups[2];
  for (int k = 0; k < 24; ++k) {
    const Real x = Real(-8.5) + Real(k % 6), y = Real(-3) + Real(2 * (k / 6));
    groups[0].add(x, y, -x, y, 0.3f, 1.4f, 4.0f, 0);
    groups[1].add(-x, -y, x, -y, 0.3f, 1.4f, 4.0f, 1);
  }
  const Bounds goals[2] = {{{3, -4}, {9, 4}}, {{-9, -4}, {-3, 4}}};
  return crowd(*world, groups, goals, 1, threads);
}

// Two groups of 16 cross at right angles round a pillar in a square of 20 m.
std::uint64_t crossing(int threads) {
  const std::unique_ptr<World> world = empty_world();
  world->obstacles().set_bounds({{-10, -10}, {10, 10}});
  world->obstacles().add_circle({{0, 0}, 1});
  Spawn groups[2];
  for (int k = 0; k < 16; ++k) {
    const Real along = Real(-8.5) + Real(k % 4), across = Real(-1.5) + Real(k / 4);
    groups[0].add(along, across, -along, across, 0.3f, 1.4f, 4.0f, 0);
    groups[1].add(across, along, across, -along, 0.3f, 1.4f, 4.0f, 1);
  }
  const Bounds goals[2] = {{{5, -3}, {9, 3}}, {{-3, 5}, {3, 9}}};
  return crowd(*world, groups, goals, 0, threads);
}

// Moving obstacles with contact: a bar 6 m long turning at 0.5 rad/s and a disc going back
// and forth; 40 agents on a grid, each for its antipode, Arrive and Avoid.
std::uint64_t moving(int threads) {
  ArriveParams arrive;
  arrive.agent_target = true;
  arrive.sideways = 0.5f;
  AvoidParams avoid;
  avoid.agents = true;
  avoid.max_distance = 2;
  avoid.keep_right = 0.3f;
  PipelineConfig config;
  config.slots = 16;
  config.resolve.select = SelectMethod::Blend;
  World world({std::make_shared<Pipeline>(config, Behaviors{std::make_shared<Arrive>(std::vector<Vec2>{}, arrive),
                                                            std::make_shared<Avoid>(std::vector<Circle>{}, avoid)}),
               nullptr});
  world.obstacles().set_bounds({{-8, -8}, {8, 8}});
  world.moving().add_polygon({{-3, -0.25f}, {3, -0.25f}, {3, 0.25f}, {-3, 0.25f}}, {0, 0}, 0.5f, 1);
  const int disc = world.moving().add_circles({{{-5, 5}, 0.75f}}, {}, 1);
  ObstaclePath path;
  path.waypoints = {{5, 5}, {-5, 5}};
  path.speed = 1;
  path.back_and_forth = true;
  world.moving().set_path(disc, path);
  ContactParams contact;
  world.set_contact(&contact);
  world.set_threads(threads);
  Spawn spawn;
  for (int k = 0; k < 40; ++k) {
    const Real x = Real(-5.25) + Real(1.5) * Real(k % 8), y = Real(-6.5) + Real(k / 8);
    spawn.add(x, y, -x, -y, 0.3f, 1.5f, 3.0f);
  }
  spawn.into(world);
  for (int s = 0; s < 300; ++s) world.step(0.05f);
  return hash_of(world);
}

// Classic steering: Arrive, wall and obstacle avoidance, separation and LookWhereYouGo,
// blended, among circles and a wall; 40 agents each for its antipode.
std::uint64_t classic(int threads) {
  auto behavior = [](ClassicKind kind, Real weight) {
    ClassicBehavior b;
    b.kind = kind;
    b.weight = weight;
    return b;
  };
  ClassicBehavior walls = behavior(ClassicKind::WallAvoidance, 3),
                  obstacles = behavior(ClassicKind::ObstacleAvoidance, 2);
  walls.horizon = 0.5f;
  walls.margin = 0.1f;
  obstacles.horizon = 1;
  obstacles.margin = 0.1f;
  ClassicBehavior separation = behavior(ClassicKind::Separation, 1);
  separation.radius = 0.3f;
  auto steering = std::make_shared<ClassicSteering>(
      std::vector<ClassicBehavior>{behavior(ClassicKind::Arrive, 1), walls, obstacles, separation,
                                   behavior(ClassicKind::LookWhereYouGo, 1)},
      CombinerKind::Blend);
  World world({nullptr, steering});
  world.obstacles().set_bounds({{-10, -10}, {10, 10}});
  world.obstacles().add_circle({{0, 0}, 1.5f});
  world.obstacles().add_circle({{3, -2}, 1});
  world.obstacles().add_segment({{-5, 4}, {5, 4}});
  world.set_threads(threads);
  Spawn spawn;
  for (int k = 0; k < 40; ++k) {
    const Real x = Real(-7) + Real(2 * (k % 8)), y = Real(-8.5) + Real(k / 8);
    spawn.add(x, y, -x, -y, 0.3f, 1.5f, 3.0f);
  }
  spawn.into(world);
  for (int s = 0; s < 300; ++s) world.step(0.05f);
  return hash_of(world);
}

const std::vector<std::pair<std::string, std::function<std::uint64_t(int)>>> kScenes{
    {"disc", disc}, {"door", door}, {"crossing", crossing}, {"moving", moving}, {"classic", classic}};

std::map<std::string, std::string> read_hashes(const char* path) {
  std::map<std::string, std::string> hashes;
  std::ifstream in(path);
  std::string name, hash;
  while (in >> name >> hash) hashes[name] = hash;
  return hashes;
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 1;
  const char* check = nullptr;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--width")) {
      simd_width_limit = std::atoi(argv[i + 1]);
    } else if (!std::strcmp(argv[i], "--threads")) {
      threads = std::atoi(argv[i + 1]);
    } else if (!std::strcmp(argv[i], "--check")) {
      check = argv[i + 1];
    } else {
      std::fprintf(stderr, "usage: determinism [--width 16|8|4|1] [--threads n] [--check hashes.txt]\n");
      return 2;
    }
  }
  const std::map<std::string, std::string> expected = check ? read_hashes(check) : std::map<std::string, std::string>{};
  if (check && expected.size() != kScenes.size()) {
    std::fprintf(stderr, "determinism: %s holds %zu hashes, expected %zu\n", check, expected.size(), kScenes.size());
    return 1;
  }
  std::fprintf(stderr, "%d-lane kernels%s, %d thread(s)\n", kernel_width(),
               wide_kernels_allowed() ? " (AVX-512 sweeps)" : "", threads);
  int differ = 0;
  for (const auto& [name, run] : kScenes) {
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(run(threads)));
    const auto want = expected.find(name);
    const bool same = !check || (want != expected.end() && want->second == hash);
    differ += !same;
    if (same) {
      std::printf("%s %s\n", name.c_str(), hash);
    } else {
      std::printf("%s %s  (expected %s)\n", name.c_str(), hash, want == expected.end() ? "none" : want->second.c_str());
    }
  }
  return differ ? 1 : 0;
}
