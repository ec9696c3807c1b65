#include "contextsteer/behaviors/chase.hpp"

#include <algorithm>
#include <cmath>

#include "contextsteer/base/parameter_checks.hpp"

namespace contextsteer {

TargetCombine parse_target_combine(const std::string& name, const char* argument) {
  return value_named<TargetCombine>(name, argument);
}

Chase::Chase(std::vector<Vec2> targets, const ChaseParams& params)
    : BehaviorWith(params), targets_{std::move(targets), params.agent_target} {
  targets_.check("targets");
}

void Chase::set_targets(std::vector<Vec2> targets) {
  Targets next{std::move(targets), params_.agent_target};
  next.check("targets");
  guard_.write("targets", [&] { targets_ = std::move(next); });
}

void Chase::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                 Real*) const {
  auto strength = [this](Real d) {
    return d > params_.max_distance ? Real(0) : falloff_value(params_.falloff, d, params_.max_distance);
  };
  // Max starts from the row's zeros, so max(row, lobe) never goes below 0.
  fill_target_lobes(targets_, false, params_.combine == TargetCombine::Sum, params_.sideways, strength, scene, agents,
                    count, dirs, interest);
}

}  // namespace contextsteer
