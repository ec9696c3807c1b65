#include "arrive_leave.hpp"

#include <algorithm>

#include "../format_real.hpp"

namespace contextsteer {

Arrive::Arrive(Targets targets, Real target_radius, Real slowing_radius, Real weight, Real sideways)
    : Behavior(weight),
      targets_(std::move(targets)),
      target_radius_(target_radius),
      slowing_radius_(slowing_radius),
      sideways_(sideways) {
  targets_.check("targets");
  check_sideways(sideways);
  if (!(target_radius >= 0) || !within_bound(target_radius)) {
    throw std::invalid_argument("target_radius: expected a distance from 0 to 1e9, got " + format_real(target_radius));
  }
  check_positive_distance(slowing_radius, "slowing_radius");
}

void Arrive::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                  Real*) const {
  auto strength = [this](Real d) { return d <= target_radius_ ? Real(0) : std::min(Real(1), d / slowing_radius_); };
  fill_target_lobes(targets_, false, false, sideways_, strength, scene, agents, count, dirs, interest);
}

Leave::Leave(Targets threats, Real escape_radius, Real danger_radius, Real weight, Real sideways)
    : Behavior(weight),
      threats_(std::move(threats)),
      escape_radius_(escape_radius),
      danger_radius_(danger_radius),
      sideways_(sideways) {
  threats_.check("threats");
  check_sideways(sideways);
  if (!(escape_radius >= 0) || !within_bound(escape_radius)) {
    throw std::invalid_argument("escape_radius: expected a distance from 0 to 1e9, got " + format_real(escape_radius));
  }
  check_positive_distance(danger_radius, "danger_radius");
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
