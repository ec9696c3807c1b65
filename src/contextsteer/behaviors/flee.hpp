// Flee: interest away from threats within a radius.
//
// For a threat t at distance d = |p - t| <= radius, slot i gets
// max(0, dot(u, d_i)) * falloff(d / radius), u = (p - t) / d: the nearer the threat, the
// stronger the wish to leave. Threats combine by max.
#pragma once

#include <vector>

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/behaviors/support/falloff.hpp"
#include "contextsteer/behaviors/support/targets.hpp"

namespace contextsteer {

struct FleeParams {
  Real radius = 10;  // metres; farther threats are ignored
  Falloff falloff = Falloff::Linear;
  Real sideways = 0;  // in [0, 1): the lobe's share of its peak at right angles (add_lobe)
  Real weight = 1;
  // Not a field: each agent flees its own target (set by the threats given, see Targets).
  bool agent_target = false;

  static constexpr auto fields() {
    return std::make_tuple(field("radius", &FleeParams::radius, "m", "farther threats are ignored", above(0)),
                           field("falloff", &FleeParams::falloff, "", "how strength fades with distance / radius"),
                           sideways_field<FleeParams>(), weight_field<FleeParams>());
  }
};

class Flee : public BehaviorWith<FleeParams, InterestBehavior> {
 public:
  // Throws std::invalid_argument for a non-finite threat or a field out of its bounds.
  Flee(std::vector<Vec2> threats, const FleeParams& params);

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  Targets threats_;
};

}  // namespace contextsteer
