// The targets a behaviour steers an agent by: points shared by every agent, and/or the
// agent's own target (its target agent, else its target point).
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "../scene.hpp"

namespace contextsteer {

struct Targets {
  std::vector<Vec2> points;  // metres, shared by every agent
  bool agent_target = false;

  // Calls fn(t) for each target point of agent a.
  template <class F>
  void for_each(const SceneView& scene, int a, F&& fn) const {
    for (const Vec2& t : points) fn(t);
    if (agent_target) fn(scene.target_of(a));
  }

  void check(const char* argument) const {
    for (const Vec2& t : points) {
      if (!std::isfinite(t.x) || !std::isfinite(t.y)) {
        throw std::invalid_argument(std::string(argument) + ": expected finite positions");
      }
    }
  }
};

// Throws std::invalid_argument unless value is finite and > 0.
inline void check_positive_distance(Real value, const char* argument) {
  if (!(value > 0) || std::isinf(value)) {
    throw std::invalid_argument(std::string(argument) + ": expected a finite distance > 0 in metres, got " +
                                std::to_string(value));
  }
}

}  // namespace contextsteer
