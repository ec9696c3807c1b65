// Flee: interest away from threats within a radius.
//
// For a threat t at distance d = |p - t| <= radius, slot i gets
// max(0, dot(u, d_i)) * falloff(d / radius), u = (p - t) / d: the nearer the threat, the
// stronger the wish to leave. Threats combine by max.
#pragma once

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/behaviors/support/falloff.hpp"
#include "contextsteer/behaviors/support/targets.hpp"

namespace contextsteer {

class Flee : public InterestBehavior {
 public:
  // sideways in [0, 1): the lobe's share of its peak at right angles (add_lobe).
  Flee(Targets threats, Real radius, Falloff falloff, Real weight, Real sideways = 0);
  Real sideways() const { return sideways_; }

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  Targets threats_;
  Real radius_;
  Falloff falloff_;
  Real sideways_;
};

}  // namespace contextsteer
