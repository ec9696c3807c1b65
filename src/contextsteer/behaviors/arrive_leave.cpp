#include "contextsteer/behaviors/arrive_leave.hpp"

#include <algorithm>

namespace contextsteer {

Arrive::Arrive(std::vector<Vec2> targets, const ArriveParams& params)
    : BehaviorWith(params), targets_{std::move(targets), params.agent_target} {
  targets_.check("targets");
}

void Arrive::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                  Real*) const {
  const ArriveParams& p = params_;
  auto strength = [&p](Real d) { return d <= p.target_radius ? Real(0) : std::min(Real(1), d / p.slowing_radius); };
  fill_target_lobes(targets_, false, false, p.sideways, strength, scene, agents, count, dirs, interest);
}

Leave::Leave(std::vector<Vec2> threats, const LeaveParams& params)
    : BehaviorWith(params), threats_{std::move(threats), params.agent_target} {
  threats_.check("threats");
}

void Leave::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                 Real*) const {
  const LeaveParams& p = params_;
  auto strength = [&p](Real d) {
    if (d > p.danger_radius) return Real(0);
    return d < p.escape_radius ? Real(1) : 1 - d / p.danger_radius;
  };
  fill_target_lobes(threats_, true, false, p.sideways, strength, scene, agents, count, dirs, interest);
}

}  // namespace contextsteer
