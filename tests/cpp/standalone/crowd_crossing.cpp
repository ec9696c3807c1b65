// Two crowds of 50 agents cross a square past a pillar, each agent to its own target,
// steered by context maps: Arrive (at the agent's own target) and Avoid (the pillar and
// the other agents), 16 slots. A game loop calls World::step once a frame.
//
// Exits with status 0 when every agent arrived without ever overlapping another by more
// than 10 cm, else 1; prints what it measured either way.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "contextsteer/behaviors/arrive_leave.hpp"
#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/world/world.hpp"

using namespace contextsteer;

int main() {
  // The steering: interest toward each agent's own target (slowing within 3 m, stopping
  // within 0.5 m, with half the interest at right angles, to go round a blocked way),
  // danger from obstacles and agents within 2 m of clearance; the decision blends the
  // best slot with its neighbors.
  ArriveParams arrive_own;
  arrive_own.agent_target = true;
  arrive_own.sideways = 0.5f;
  AvoidParams avoid;
  avoid.max_distance = 2;
  avoid.agents = true;
  PipelineConfig config;
  config.slots = 16;
  config.resolve.select = SelectMethod::Blend;
  const std::vector<std::shared_ptr<const Behavior>> behaviors{
      std::make_shared<Arrive>(std::vector<Vec2>{}, arrive_own), std::make_shared<Avoid>(std::vector<Circle>{}, avoid)};
  World world(Steering{std::make_shared<Pipeline>(config, behaviors), nullptr});
  world.obstacles().add_circle({{0, 0}, 2});

  // West crowd heading east, east crowd heading west, on grids 4 m apart (16 m^2 an agent;
  // at 2.5 m apart, head on, half of them jam round the pillar).
  const int per_crowd = 50;
  std::vector<Real> positions, targets, radius, max_speed;
  for (int side = -1; side <= 1; side += 2) {
    for (int k = 0; k < per_crowd; ++k) {
      const Real x = side * (12 + 4.0f * (k % 5)), y = 4.0f * (k / 5) - 18;
      positions.insert(positions.end(), {x, y});
      targets.insert(targets.end(), {-x, y});
      radius.push_back(0.4f);
      max_speed.push_back(1.5f);
    }
  }
  const int n = 2 * per_crowd;
  AgentSpawn spawn;
  spawn.positions = positions.data();
  spawn.targets = targets.data();
  spawn.radius = radius.data();
  spawn.max_speed = max_speed.data();
  world.add_agents(n, spawn);
  world.set_threads(2);

  // The game loop: 60 frames a second for at most five minutes (all arrive in about two).
  Real worst_overlap = 0;
  int frames = 0, arrived = 0;
  for (; frames < 300 * 60 && arrived < n; ++frames) {
    world.step(1.0f / 60);
    const AgentStore& agents = world.agents();
    worst_overlap = std::max(worst_overlap, *std::max_element(agents.overlap.data(), agents.overlap.data() + n));
    arrived = 0;
    for (int a = 0; a < n; ++a) {
      const Vec2 p = load(agents.positions.data(), a), t = load(agents.targets.data(), a);
      arrived += length(t - p) < 1;
    }
  }
  std::printf("%d of %d agents arrived after %.1f s; deepest overlap %.3f m\n", arrived, n, frames / 60.0,
              worst_overlap);
  return arrived == n && worst_overlap < 0.1f ? 0 : 1;
}
