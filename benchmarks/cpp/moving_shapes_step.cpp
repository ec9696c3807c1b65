// TimeToCollision and Anticipate among moving obstacles, in C++ alone: the step's
// evaluate stage among moving discs, and among moving walls and polygons, the worlds
// stepped in turn so that both see the same machine load.
//
//   cmake -S . -B build/bench -DCONTEXTSTEER_BUILD_BENCHMARKS=ON && cmake --build build/bench
//   build/bench/moving_shapes_step [agents=4000] [bodies=200] [steps=30] [threads=1]
//
// The scene: n agents spread over a square (25 m^2 per agent), each heading for the point
// opposite the centre; Chase, Anticipate (radius 4 m, horizon 1.5 s, arc edges) and
// TimeToCollision (radius 6 m, horizon 3 s); 16 slots. The bodies, spread over the same
// square at up to 1 m/s: discs of radius 1 m in one world; in the other, walls 2 m long
// and squares 1.4 m wide (half each), turning at up to 0.3 rad/s.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "contextsteer/behaviors/anticipate.hpp"
#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/behaviors/time_to_collision.hpp"
#include "contextsteer/world/world.hpp"

using namespace contextsteer;

namespace {

std::unique_ptr<World> make_world(int agents, int bodies, int threads, bool shapes) {
  std::mt19937 rng(0);
  const Real half = static_cast<Real>(std::sqrt(25.0 * agents) / 2);
  std::uniform_real_distribution<Real> place(-half, half), speed(-0.7f, 0.7f), turn(-0.3f, 0.3f);
  ChaseParams chase;
  chase.agent_target = true;
  AnticipateParams anticipate;
  anticipate.radius = 4;
  anticipate.arc_edges = true;
  TimeToCollisionParams ttc;
  ttc.radius = 6;
  PipelineConfig config;
  config.slots = 16;
  const std::vector<std::shared_ptr<const Behavior>> behaviors{std::make_shared<Chase>(std::vector<Vec2>{}, chase),
                                                               std::make_shared<Anticipate>(anticipate),
                                                               std::make_shared<TimeToCollision>(ttc)};
  auto world = std::make_unique<World>(Steering{std::make_shared<Pipeline>(config, behaviors), nullptr});
  world->set_threads(threads);
  std::vector<Real> positions, targets, top(agents, 1.5f), radius(agents, 0.3f);
  for (int a = 0; a < agents; ++a) {
    const Real x = place(rng), y = place(rng);
    positions.insert(positions.end(), {x, y});
    targets.insert(targets.end(), {-x, -y});
  }
  AgentSpawn spawn;
  spawn.positions = positions.data();
  spawn.targets = targets.data();
  spawn.max_speed = top.data();
  spawn.radius = radius.data();
  world->add_agents(agents, spawn);
  for (int b = 0; b < bodies; ++b) {
    const Vec2 at{place(rng), place(rng)}, v{speed(rng), speed(rng)};
    if (!shapes) {
      world->moving().add_circles({{at, 1}}, {v}, kAllLayers);
    } else if (b % 2 == 0) {
      world->moving().add_segments({{at - Vec2{1, 0}, at + Vec2{1, 0}}}, {v}, kAllLayers);
    } else {
      world->moving().add_polygon(
          {at + Vec2{-0.7f, -0.7f}, at + Vec2{0.7f, -0.7f}, at + Vec2{0.7f, 0.7f}, at + Vec2{-0.7f, 0.7f}}, v,
          turn(rng), kAllLayers);
    }
  }
  return world;
}

}  // namespace

int main(int argc, char** argv) {
  const int agents = argc > 1 ? std::atoi(argv[1]) : 4000;
  const int bodies = argc > 2 ? std::atoi(argv[2]) : 200;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 30;
  const int threads = argc > 4 ? std::atoi(argv[4]) : 1;
  std::unique_ptr<World> worlds[2] = {make_world(agents, bodies, threads, false),
                                      make_world(agents, bodies, threads, true)};
  for (auto& w : worlds) {
    for (int i = 0; i < 3; ++i) w->step(0.1f);  // warm-up
  }
  std::vector<double> evaluate[2];
  for (int i = 0; i < steps; ++i) {
    for (int k = 0; k < 2; ++k) {
      worlds[k]->step(0.1f);
      evaluate[k].push_back(worlds[k]->stage_times().evaluate);
    }
  }
  std::printf(
      "moving shapes: %d agents, %d bodies, 16 slots, Chase + Anticipate + TimeToCollision, %d thread(s), "
      "%d steps\n",
      agents, bodies, threads, steps);
  const char* names[2] = {"discs", "walls and polygons"};
  for (int k = 0; k < 2; ++k) {
    std::sort(evaluate[k].begin(), evaluate[k].end());
    std::printf("evaluate stage among %-18s: median %.3f ms, min %.3f ms\n", names[k], evaluate[k][steps / 2] * 1e3,
                evaluate[k].front() * 1e3);
  }
  return 0;
}
