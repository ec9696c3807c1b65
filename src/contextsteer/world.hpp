// A world of agents steered by one context pipeline among static circle obstacles.
//
// Agent state is kept as flat arrays (structure of arrays). Every array lives in a
// shared buffer: when agents are added the world moves to new buffers and leaves the
// old ones to whoever still holds them, so a view handed out earlier never dangles.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "pipeline.hpp"
#include "scene.hpp"

namespace contextsteer {

template <class T>
using SharedBuffer = std::shared_ptr<std::vector<T>>;

struct AgentSpawn {
  const Real* positions = nullptr;         // (count, 2) metres
  const Real* velocities = nullptr;        // (count, 2) m/s, or null for rest
  const Real* max_speed = nullptr;         // (count,) m/s
  const Real* max_acceleration = nullptr;  // (count,) m/s^2, inf for none
  const Real* radius = nullptr;            // (count,) metres
};

class World {
 public:
  explicit World(std::shared_ptr<const Pipeline> pipeline);

  // Appends `count` agents; returns the id of the first. Throws std::invalid_argument
  // for non-finite state, a negative max speed, acceleration or radius.
  int add_agents(int count, const AgentSpawn& spawn);
  // Replaces the static obstacles.
  void set_obstacles(std::vector<Circle> obstacles);

  // Advances dt seconds (dt > 0, finite): every agent senses the scene, fills and
  // merges its maps and decides (stage evaluate), then moves (stage integrate).
  // Throws std::invalid_argument, before changing anything, when the state holds a
  // value add_agents would refuse (the Python views of the state are writable).
  void step(Real dt);

  int agent_count() const { return agents_; }
  int slots() const { return pipeline_->config().slots; }
  long long steps_taken() const { return steps_; }
  double time() const { return time_; }
  const Pipeline& pipeline() const { return *pipeline_; }
  const std::vector<Circle>& obstacles() const { return obstacles_; }

  // Buffers: state (agents, 2) or (agents,); maps (agents, slots).
  const SharedBuffer<Real>& positions() const { return positions_; }
  const SharedBuffer<Real>& velocities() const { return velocities_; }
  const SharedBuffer<Real>& max_speed() const { return max_speed_; }
  const SharedBuffer<Real>& max_acceleration() const { return max_acceleration_; }
  const SharedBuffer<Real>& radius() const { return radius_; }
  const SharedBuffer<Real>& interest() const { return interest_; }
  const SharedBuffer<Real>& danger() const { return danger_; }
  const SharedBuffer<Real>& final_map() const { return final_; }
  const SharedBuffer<Real>& direction() const { return direction_; }
  const SharedBuffer<Real>& strength() const { return strength_; }
  const SharedBuffer<Real>& slot() const { return slot_; }
  const SharedBuffer<std::uint8_t>& blocked() const { return blocked_; }

 private:
  SceneView scene() const;
  void check_state() const;
  void evaluate();
  void integrate(Real dt);

  std::shared_ptr<const Pipeline> pipeline_;
  Pipeline::Scratch scratch_;
  std::vector<Circle> obstacles_;
  int agents_ = 0;
  long long steps_ = 0;
  double time_ = 0;

  SharedBuffer<Real> positions_, velocities_, max_speed_, max_acceleration_, radius_;
  SharedBuffer<Real> interest_, danger_, final_, direction_, strength_, slot_;
  SharedBuffer<std::uint8_t> blocked_;
};

}  // namespace contextsteer
