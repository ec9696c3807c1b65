// The read-only view of a scene that behaviours fill their maps from.
#pragma once

#include "real.hpp"
#include "vec2.hpp"

namespace contextsteer {

struct Circle {
  Vec2 centre;
  Real radius = 0;  // metres; 0 for a point
};

// Every array is borrowed for the duration of one evaluation.
struct SceneView {
  int agents = 0;
  const Real* positions = nullptr;   // (agents, 2) metres
  const Real* velocities = nullptr;  // (agents, 2) metres per second
  const Real* radius = nullptr;      // (agents,) metres
  const Circle* obstacles = nullptr;  // static circles shared by every agent
  int obstacle_count = 0;

  Vec2 position(int agent) const { return load(positions, agent); }
  Vec2 velocity(int agent) const { return load(velocities, agent); }
};

}  // namespace contextsteer
