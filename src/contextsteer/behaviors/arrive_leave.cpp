#include "contextsteer/behaviors/arrive_leave.hpp"

#include <algorithm>

#include "contextsteer/base/parameter_checks.hpp"

namespace contextsteer {

Arrive::Arrive(Targets targets, Real target_radius, Real slowing_radius, Real weight, Real sideways)
    : InterestBehavior(weight),
      targets_(std::move(targets)),
      target_radius_(target_radius),
      slowing_radius_(slowing_radius),
      sideways_(sideways) {
  targets_.check("targets");
  check_sideways(sideways);
  require_nonnegative(target_radius, "target_radius", "a distance", " in metres");
  require_positive(slowing_radius, "slowing_radius", "a distance", " in metres");
}

void Arrive::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                  Real*) const {
  auto strength = [this](Real d) { return d <= target_radius_ ? Real(0) : std::min(Real(1), d / slowing_radius_); };
  fill_target_lobes(targets_, false, false, sideways_, strength, scene, agents, count, dirs, interest);
}

Leave::Leave(Targets threats, Real escape_radius, Real danger_radius, Real weight, Real sideways)
    : InterestBehavior(weight),
      threats_(std::move(threats)),
      escape_radius_(escape_radius),
      danger_radius_(danger_radius),
      sideways_(sideways) {
  threats_.check("threats");
  check_sideways(sideways);
  require_nonnegative(escape_radius, "escape_radius", "a distance", " in metres");
  require_positive(danger_radius, "danger_radius", "a distance", " in metres");
}

void Leave::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                 Real*) const {
  auto strength = [this](Real d) {
    if (d > danger_radius_) return Real(0);
    return d < escape_radius_ ? Real(1) : 1 - d / danger_radius_;
  };
  fill_target_lobes(threats_, true, false, sideways_, strength, scene, agents, count, dirs, interest);
}

}  // namespace contextsteer
