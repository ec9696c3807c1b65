#include "chase.hpp"

#include <algorithm>
#include <cmath>

#include "../slot_sweep.hpp"

namespace contextsteer {

TargetCombine parse_target_combine(const std::string& name, const char* argument) {
  if (name == "max") return TargetCombine::Max;
  if (name == "sum") return TargetCombine::Sum;
  throw std::invalid_argument(std::string(argument) + ": expected one of 'max', 'sum', got '" + name + "'");
}

namespace {
void check_targets(const std::vector<Vec2>& targets) {
  for (const Vec2& t : targets) {
    if (!std::isfinite(t.x) || !std::isfinite(t.y)) throw std::invalid_argument("targets: expected finite positions");
  }
}
}  // namespace

Chase::Chase(std::vector<Vec2> targets, const ChaseParams& params)
    : Behavior(params.weight), targets_(std::move(targets)), params_(params) {
  if (!(params.max_distance > 0)) {
    throw std::invalid_argument("max_distance: expected a distance > 0 in metres, got " +
                                std::to_string(params.max_distance));
  }
  check_targets(targets_);
}

void Chase::set_targets(std::vector<Vec2> targets) {
  check_targets(targets);
  targets_ = std::move(targets);
}

void Chase::add_target(Vec2 p, Vec2 t, const Real* dx, const Real* dy, int slots, Real* row) const {
  const Vec2 to = t - p;
  const Real d = length(to);
  if (d > params_.max_distance || d < Real(1e-6)) return;
  const Real g = falloff_value(params_.falloff, d, params_.max_distance) / d;
  // Max starts from the row's zeros, so max(row, c) never goes below 0.
  cosine_lobe(row, dx, dy, slots, to.x * g, to.y * g, params_.combine == TargetCombine::Sum);
}

void Chase::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                 Real*) const {
  const int slots = dirs.slots();
  for (int k = 0; k < count; ++k) {
    Real* row = interest + static_cast<std::size_t>(k) * slots;
    const int a = agents[k];
    const Vec2 p = scene.position(a);
    for (const Vec2& t : targets_) add_target(p, t, dirs.x(), dirs.y(), slots, row);
    if (params_.agent_target) add_target(p, scene.target_of(a), dirs.x(), dirs.y(), slots, row);
  }
}

}  // namespace contextsteer
