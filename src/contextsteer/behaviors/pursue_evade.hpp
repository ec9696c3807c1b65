// Pursue and Evade (seed 004): chase, or flee, the position the agent's target agent
// will have, predicted from its velocity.
//
// With d the distance to the target t moving at w and s the agent's own speed, the
// prediction time is max_prediction when s <= d / max_prediction, else d / s; the aim
// point is t + w * prediction. Pursue fills interest max(0, dot(u, d_i)), u toward the
// aim point; Evade fills interest away from it, times falloff(d / radius) within radius.
// An agent without a target agent aims at its target point (which does not move).
#pragma once

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/behaviors/support/falloff.hpp"

namespace contextsteer {

// The aim point of agent a as above.
Vec2 predicted_target(const SceneView& scene, int a, Real max_prediction);

class Pursue : public InterestBehavior {
 public:
  // Throws std::invalid_argument for a max_prediction that is not > 0 or a sideways
  // outside [0, 1) (add_lobe).
  Pursue(Real max_prediction, Real weight, Real sideways = 0);
  Real sideways() const { return sideways_; }

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  Real max_prediction_;
  Real sideways_;
};

class Evade : public InterestBehavior {
 public:
  Evade(Real max_prediction, Real radius, Falloff falloff, Real weight, Real sideways = 0);
  Real sideways() const { return sideways_; }

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  Real max_prediction_;
  Real radius_;
  Falloff falloff_;
  Real sideways_;
};

}  // namespace contextsteer
