// Pursue and Evade: chase, or flee, the position the agent's target agent
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

template <class P>
constexpr Field<P, Real> max_prediction_field() {
  return field("max_prediction", &P::max_prediction, "s", "the longest look ahead at the target's motion", above(0));
}

struct PursueParams {
  Real max_prediction = 1;  // seconds
  Real sideways = 0;        // in [0, 1) (add_lobe)
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(max_prediction_field<PursueParams>(), sideways_field<PursueParams>(),
                           weight_field<PursueParams>());
  }
};

class Pursue : public BehaviorWith<PursueParams, InterestBehavior> {
 public:
  explicit Pursue(const PursueParams& params = {});

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;
};

struct EvadeParams {
  Real max_prediction = 1;  // seconds
  Real radius = 10;         // metres; an aim point farther away is ignored
  Falloff falloff = Falloff::Linear;
  Real sideways = 0;  // in [0, 1) (add_lobe)
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(max_prediction_field<EvadeParams>(),
                           field("radius", &EvadeParams::radius, "m", "an aim point farther away is ignored", above(0)),
                           field("falloff", &EvadeParams::falloff, "", "how strength fades with distance / radius"),
                           sideways_field<EvadeParams>(), weight_field<EvadeParams>());
  }
};

class Evade : public BehaviorWith<EvadeParams, InterestBehavior> {
 public:
  explicit Evade(const EvadeParams& params = {});

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;
};

}  // namespace contextsteer
