// Arrive and Leave as context behaviours: a cosine lobe toward (or away from) the
// target whose strength follows the classic Arrive and Leave speed ramps, so that the
// decision's strength, and with it the agent's speed, ramps too.
//
// Arrive, at distance d from a target: strength 0 inside target_radius, d / slowing_radius
// inside slowing_radius, else 1; slot i gets strength * max(0, dot(u, d_i)) toward it
// (with sideways w > 0, strength * max(0, w + (1 - w) dot(u, d_i)): add_lobe).
// Leave: nothing beyond danger_radius, 1 inside escape_radius, else 1 - d / danger_radius;
// slot i gets strength * max(0, dot(u, d_i)) away from it. Targets combine by max.
#pragma once

#include <vector>

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/behaviors/support/targets.hpp"

namespace contextsteer {

struct ArriveParams {
  Real target_radius = 0.5;   // metres; no interest within it
  Real slowing_radius = 3.0;  // metres; strength d / slowing_radius within it
  Real sideways = 0;          // in [0, 1) (add_lobe)
  Real weight = 1;
  // Not a field: each agent arrives at its own target (set by the targets given, see Targets).
  bool agent_target = false;

  static constexpr auto fields() {
    return std::make_tuple(
        field("target_radius", &ArriveParams::target_radius, "m", "no interest within it: arrived", at_least(0)),
        field("slowing_radius", &ArriveParams::slowing_radius, "m", "strength distance / slowing_radius within it",
              above(0)),
        sideways_field<ArriveParams>(), weight_field<ArriveParams>());
  }
};

class Arrive : public BehaviorWith<ArriveParams, InterestBehavior> {
 public:
  // Throws std::invalid_argument for a non-finite target or a field out of its bounds.
  Arrive(std::vector<Vec2> targets, const ArriveParams& params);

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  Targets targets_;
};

struct LeaveParams {
  Real escape_radius = 1;  // metres; strength 1 within it
  Real danger_radius = 5;  // metres; nothing beyond it
  Real sideways = 0;       // in [0, 1) (add_lobe)
  Real weight = 1;
  // Not a field: each agent leaves its own target (set by the threats given, see Targets).
  bool agent_target = false;

  static constexpr auto fields() {
    return std::make_tuple(
        field("escape_radius", &LeaveParams::escape_radius, "m", "strength 1 within it", at_least(0)),
        field("danger_radius", &LeaveParams::danger_radius, "m",
              "nothing beyond it; strength 1 - distance / danger_radius within it", above(0)),
        sideways_field<LeaveParams>(), weight_field<LeaveParams>());
  }
};

class Leave : public BehaviorWith<LeaveParams, InterestBehavior> {
 public:
  // Throws std::invalid_argument for a non-finite threat or a field out of its bounds.
  Leave(std::vector<Vec2> threats, const LeaveParams& params);

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  Targets threats_;
};

}  // namespace contextsteer
