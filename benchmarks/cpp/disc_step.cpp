// The disc scene in C++ alone: times each stage of World::step and counts the heap
// allocations made while stepping (tests/cpp/counting_new.cpp replaces operator new).
//
//   cmake -S . -B build/bench -DCONTEXTSTEER_BUILD_BENCHMARKS=ON && cmake --build build/bench
//   build/bench/disc_step [agents=100000] [steps=20] [threads=1] [sense=15] [spatial=1] [keep_maps=1] [width=16]
//
// sense is the radius (metres) within which agents avoid each other; 0 leaves Avoid out.
// spatial=0 spawns agents in random memory order; keep_maps=0 turns World::keep_maps off.
// width caps the kernels' lanes (simd_width_limit): 16 (AVX-512 sweeps of the pass by pairs where
// the CPU has it, else as 8), 8 (AVX2 where the CPU has it), 4 or 1.
//
// The scene: n agents filling a disc (70 m^2 per agent), each heading for its antipodal
// point; Chase of its own target plus Avoid of the agents within 15 m; 16 slots.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/world/world.hpp"
#include "counting_new.hpp"

using namespace contextsteer;

int main(int argc, char** argv) {
  const int agents = argc > 1 ? std::atoi(argv[1]) : 100000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 20;
  const int threads = argc > 3 ? std::atoi(argv[3]) : 1;
  const Real sense = argc > 4 ? static_cast<Real>(std::atof(argv[4])) : Real(15);
  const bool spatial = argc > 5 ? std::atoi(argv[5]) != 0 : true;
  const bool keep_maps = argc > 6 ? std::atoi(argv[6]) != 0 : true;
  if (argc > 7) simd_width_limit = std::atoi(argv[7]);

  std::mt19937 rng(0);
  std::uniform_real_distribution<double> u(0, 1);
  const double disc_radius = std::sqrt(70.0 * agents / M_PI);
  std::vector<Real> positions(2 * agents), targets(2 * agents);
  for (int a = 0; a < agents; ++a) {
    const double r = disc_radius * std::sqrt(u(rng)), angle = 2 * M_PI * u(rng);
    positions[2 * a] = static_cast<Real>(r * std::cos(angle));
    positions[2 * a + 1] = static_cast<Real>(r * std::sin(angle));
    targets[2 * a] = -positions[2 * a];
    targets[2 * a + 1] = -positions[2 * a + 1];
  }
  if (spatial) {
    // Spawn in rows of 10 m, as a game spawns crowds region by region, so that agents
    // close in space are close in memory.
    std::vector<int> order(agents);
    for (int a = 0; a < agents; ++a) order[a] = a;
    auto key = [&](int a) { return std::make_pair(std::floor(positions[2 * a + 1] / 10), positions[2 * a]); };
    std::sort(order.begin(), order.end(), [&](int x, int y) { return key(x) < key(y); });
    std::vector<Real> p(2 * agents);
    for (int k = 0; k < agents; ++k) p[2 * k] = positions[2 * order[k]], p[2 * k + 1] = positions[2 * order[k] + 1];
    positions = p;
    for (int a = 0; a < 2 * agents; ++a) targets[a] = -positions[a];
  }
  ChaseParams chase;
  chase.agent_target = true;
  AvoidParams avoid;
  avoid.agents = true;
  avoid.world_obstacles = false;
  avoid.max_distance = sense > 0 ? sense : 1;
  PipelineConfig config;
  config.slots = 16;
  std::vector<std::shared_ptr<const Behavior>> behaviors{std::make_shared<Chase>(std::vector<Vec2>{}, chase)};
  if (sense > 0) behaviors.push_back(std::make_shared<Avoid>(std::vector<Circle>{}, avoid));
  World world({std::make_shared<Pipeline>(config, behaviors), nullptr});
  world.set_threads(threads);
  world.set_keep_maps(keep_maps);
  std::vector<Real> speed(agents, 1.5f), accel(agents, 3.0f);
  AgentSpawn spawn;
  spawn.positions = positions.data();
  spawn.targets = targets.data();
  spawn.max_speed = speed.data();
  spawn.max_acceleration = accel.data();
  world.add_agents(agents, spawn);

  for (int i = 0; i < 3; ++i) world.step(0.1f);  // warm-up: scratch reaches its size

  StageTimes total;
  long long overlap_queries = 0;
  std::vector<double> step_times;
  step_times.reserve(steps);  // so that the count below is the world's alone
  const long long before = heap_allocations();
  for (int i = 0; i < steps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    world.step(0.1f);
    step_times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    const StageTimes& s = world.stage_times();
    total.check += s.check, total.index += s.index, total.evaluate += s.evaluate;
    total.integrate += s.integrate, total.measure += s.measure;
    overlap_queries += world.overlap_queries();
  }
  const long long made = heap_allocations() - before;
  std::sort(step_times.begin(), step_times.end());
  const double ms = 1e3 / steps;
  std::printf("disc scene: %d agents, 16 slots, sense radius %.1f m, %d thread(s), %d steps, %d-lane kernels%s%s\n",
              agents, sense, threads, steps, kernel_width(), wide_kernels_allowed() ? " (AVX-512 sweeps)" : "",
              keep_maps ? "" : ", maps not kept");
  std::printf("step: median %.3f ms, min %.3f ms\n", step_times[steps / 2] * 1e3, step_times.front() * 1e3);
  std::printf("stages (mean ms): check %.3f, index %.3f, evaluate %.3f, integrate %.3f, measure %.3f\n",
              total.check * ms, total.index * ms, total.evaluate * ms, total.integrate * ms, total.measure * ms);
  std::printf("agents queried for overlap: %.1f%% (the others are far from every agent: close_agents.hpp)\n",
              100.0 * static_cast<double>(overlap_queries) / (static_cast<double>(steps) * agents));
  std::printf("heap allocations during %d steps: %lld\n", steps, made);
  return 0;
}
