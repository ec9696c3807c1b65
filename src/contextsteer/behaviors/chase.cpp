#include "contextsteer/behaviors/chase.hpp"

#include <algorithm>
#include <cmath>

#include "contextsteer/base/parameter_checks.hpp"

namespace contextsteer {

TargetCombine parse_target_combine(const std::string& name, const char* argument) {
  if (name == "max") return TargetCombine::Max;
  if (name == "sum") return TargetCombine::Sum;
  throw std::invalid_argument(std::string(argument) + ": expected one of 'max', 'sum', got '" + name + "'");
}

Chase::Chase(std::vector<Vec2> targets, const ChaseParams& params)
    : InterestBehavior(params.weight), targets_{std::move(targets), params.agent_target}, params_(params) {
  // Infinite (the default) ignores no target.
  if (params.max_distance != kInfinity)
    require_positive(params.max_distance, "max_distance", "a distance", " in metres");
  targets_.check("targets");
  check_sideways(params.sideways);
}

void Chase::set_targets(std::vector<Vec2> targets) {
  Targets next{std::move(targets), params_.agent_target};
  next.check("targets");
  targets_ = std::move(next);
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
