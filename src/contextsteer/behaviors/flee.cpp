#include "contextsteer/behaviors/flee.hpp"

namespace contextsteer {

Flee::Flee(std::vector<Vec2> threats, const FleeParams& params)
    : BehaviorWith(params), threats_{std::move(threats), params.agent_target} {
  threats_.check("threats");
}

void Flee::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                Real*) const {
  const FleeParams& p = params_;
  auto strength = [&p](Real d) { return d > p.radius ? Real(0) : falloff_value(p.falloff, d, p.radius); };
  fill_target_lobes(threats_, true, false, p.sideways, strength, scene, agents, count, dirs, interest);
}

}  // namespace contextsteer
