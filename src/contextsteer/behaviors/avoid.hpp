// Avoid: danger toward circles and points.
//
// An obstacle (centre c, radius r) seen from an agent at p with radius a, at centre
// distance d = |c - p|, has clearance max(0, d - r - a) and angular half-width
// alpha = asin(min(1, (r + a) / d)) (pi/2 once the agent touches it). Slot i gets the
// danger falloff(clearance / max_distance) when its arc [phi_i - h, phi_i + h],
// h = half the slot spacing, overlaps [beta - alpha, beta + alpha], beta the bearing of
// the obstacle: the whole arc is tested, not the slot's centre, so a low slot count
// never misses an obstacle. Obstacles farther than max_distance (clearance) are
// ignored; danger from several obstacles combines by max.
#pragma once

#include <vector>

#include "behavior.hpp"
#include "falloff.hpp"

namespace contextsteer {

struct AvoidParams {
  Real max_distance = 5;  // metres of clearance beyond which an obstacle is ignored
  Falloff falloff = Falloff::Linear;
  bool world_obstacles = true;  // also avoid the scene's static obstacles
  Real weight = 1;
};

class Avoid : public Behavior {
 public:
  // Throws std::invalid_argument for a max_distance that is not > 0 or a circle that
  // is not finite with radius >= 0.
  Avoid(std::vector<Circle> circles, const AvoidParams& params);

  bool fills_interest() const override { return false; }
  bool fills_danger() const override { return true; }
  void fill(const SceneView& scene, int begin, int end, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

  const std::vector<Circle>& circles() const { return circles_; }
  const AvoidParams& params() const { return params_; }

 private:
  void add_danger(Vec2 p, Real agent_radius, const Circle& c, const SlotDirections& dirs, Real* row) const;

  std::vector<Circle> circles_;
  AvoidParams params_;
};

// Throws std::invalid_argument naming `argument` unless every circle is finite with radius >= 0.
void check_circles(const std::vector<Circle>& circles, const char* argument);

}  // namespace contextsteer
