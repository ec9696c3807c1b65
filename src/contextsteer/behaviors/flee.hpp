// Flee: interest away from threats within a radius.
//
// For a threat t at distance d = |p - t| <= radius, slot i gets
// max(0, dot(u, d_i)) * falloff(d / radius), u = (p - t) / d: the nearer the threat, the
// stronger the wish to leave. Threats combine by max.
#pragma once

#include "behavior.hpp"
#include "falloff.hpp"
#include "targets.hpp"

namespace contextsteer {

class Flee : public Behavior {
 public:
  Flee(Targets threats, Real radius, Falloff falloff, Real weight);

  bool fills_interest() const override { return true; }
  bool fills_danger() const override { return false; }
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  Targets threats_;
  Real radius_;
  Falloff falloff_;
};

}  // namespace contextsteer
