// The view of a scene that behaviours fill their maps from: read-only, but for the
// values behaviours keep per agent between steps (memory_out).
#pragma once

#include <cstdint>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/scene/close_agents.hpp"
#include "contextsteer/scene/obstacles.hpp"
#include "contextsteer/scene/spatial_grid.hpp"

namespace contextsteer {

class EvaluationCache;
class MovingObstacles;
struct WorkerScratch;

// The largest group number an agent may have (SceneView::groups).
constexpr std::int32_t kMaxGroup = 65535;

// Every array is borrowed for the duration of one evaluation; optional ones may be null.
struct SceneView {
  int agents = 0;
  const Real* positions = nullptr;           // (agents, 2) metres
  const Real* velocities = nullptr;          // (agents, 2) m/s
  const Real* headings = nullptr;            // (agents,) radians, optional
  const Real* radius = nullptr;              // (agents,) metres, optional (0)
  const Real* angular_velocities = nullptr;  // (agents,) rad/s, optional
  const Real* max_speed = nullptr;           // (agents,) m/s, optional (1)
  const Real* max_acceleration = nullptr;    // (agents,) m/s^2, optional (unlimited)
  const Real* max_turn_rate = nullptr;       // (agents,) rad/s, optional (unlimited)
  const Real* targets = nullptr;             // (agents, 2) each agent's own target point, optional
  const int* target_index = nullptr;         // (agents,) index of each agent's target agent or -1, optional
  const std::int64_t* ids = nullptr;         // (agents,) stable agent ids, optional (the index)
  const LayerMask* layer = nullptr;          // (agents,) optional (layer 1)
  const LayerMask* sense_mask = nullptr;     // (agents,) optional (senses everything)
  const std::int32_t* states = nullptr;      // (agents,) AgentState of the last step (world/goals.hpp), optional
  const Real* give_way = nullptr;            // (agents, 2) unit direction of an agent giving way, optional
  const Real* waiting_time = nullptr;        // (agents,) seconds since it last progressed (world/goals.hpp), optional
  const std::int32_t* groups = nullptr;      // (agents,) each agent's group, optional (0)
  Real max_radius = 0;                       // largest agent radius, metres
  const Obstacles* obstacles = nullptr;      // optional
  // Optional: the moving obstacles, where they stand at the end of the step being
  // decided, with their velocities (scene/moving_obstacles.hpp); null when there are none.
  const MovingObstacles* moving = nullptr;
  const SpatialGrid* grid = nullptr;  // built over positions; needed by neighbor behaviours
  // Where behaviours keep scene-wide results from prepare() for fill() (and the threads
  // to compute them on); only a world's evaluation has one, so it is optional.
  EvaluationCache* cache = nullptr;
  // Where Avoid's pass by pairs notes the agents that may overlap after the step: the
  // evaluate stage's product of a world's step (world/stage_products.hpp); only a
  // world's step has it, so it is optional.
  CloseAgents* close_agents = nullptr;
  double time = 0;  // seconds since the world began
  Real dt = 0;      // seconds the decisions act for (a world's step), 0 if unknown
  // What behaviours keep per agent from one step to the next (Behavior::memory_width),
  // memory_width values per agent, NaN until first written; only a world's steps have
  // it. The pipeline points `memory` at each behaviour's own values; `memory_out` is
  // the same place to write to, or null when an evaluation must leave them as they are
  // (World::explain).
  const Real* memory = nullptr;  // (agents, memory_width)
  Real* memory_out = nullptr;    // (agents, memory_width) or null
  int memory_width = 0;
  // The scratch of the workers of the pool that runs the evaluation (cache->pool()), one
  // each (scene/worker_scratch.hpp), and which of them calls: null outside an evaluation
  // that has them (a behaviour then grows scratch of its own).
  WorkerScratch* workers = nullptr;  // (worker_count,)
  int worker_count = 0;
  int worker = 0;

  // The calling worker's scratch, or null (defined in scene/worker_scratch.hpp).
  inline WorkerScratch* scratch() const;
  Vec2 position(int a) const { return load(positions, a); }
  Vec2 velocity(int a) const { return load(velocities, a); }
  Real heading(int a) const { return headings ? headings[a] : Real(0); }
  std::int64_t id_of(int a) const { return ids ? ids[a] : a; }
  Real angular_velocity(int a) const { return angular_velocities ? angular_velocities[a] : Real(0); }
  Real radius_of(int a) const { return radius ? radius[a] : Real(0); }
  Real max_speed_of(int a) const { return max_speed ? max_speed[a] : Real(1); }
  Real max_acceleration_of(int a) const { return max_acceleration ? max_acceleration[a] : kInfinity; }
  Real max_turn_rate_of(int a) const { return max_turn_rate ? max_turn_rate[a] : kInfinity; }
  // The point agent a steers for, and that point's velocity: its target agent when it
  // has one, else its own target point (at rest).
  Vec2 target_of(int a) const {
    if (target_index && target_index[a] >= 0) return position(target_index[a]);
    return targets ? load(targets, a) : Vec2{};
  }
  Vec2 target_velocity_of(int a) const {
    if (target_index && target_index[a] >= 0) return velocity(target_index[a]);
    return {};
  }
  LayerMask layer_of(int a) const { return layer ? layer[a] : LayerMask(1); }
  LayerMask senses(int a) const { return sense_mask ? sense_mask[a] : kAllLayers; }
  std::int32_t group_of(int a) const { return groups ? groups[a] : 0; }
  // Agent a's kept values for the behaviour at hand (null outside a world), and where to
  // write them (null too when they must stay as they are).
  const Real* memory_of(int a) const { return memory ? memory + static_cast<std::size_t>(a) * memory_width : nullptr; }
  Real* memory_out_of(int a) const {
    return memory_out ? memory_out + static_cast<std::size_t>(a) * memory_width : nullptr;
  }
};

}  // namespace contextsteer
