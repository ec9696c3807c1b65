#include "arrive_leave.hpp"

#include <algorithm>

#include "../slot_sweep.hpp"

namespace contextsteer {

Arrive::Arrive(Targets targets, Real target_radius, Real slowing_radius, Real weight)
    : Behavior(weight), targets_(std::move(targets)), target_radius_(target_radius), slowing_radius_(slowing_radius) {
  targets_.check("targets");
  if (!(target_radius >= 0) || std::isinf(target_radius)) {
    throw std::invalid_argument("target_radius: expected a finite distance >= 0, got " + std::to_string(target_radius));
  }
  check_positive_distance(slowing_radius, "slowing_radius");
}

void Arrive::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                  Real*) const {
  const int slots = dirs.slots();
  for (int k = 0; k < count; ++k) {
    Real* row = interest + static_cast<std::size_t>(k) * slots;
    const Vec2 p = scene.position(agents[k]);
    targets_.for_each(scene, agents[k], [&](Vec2 t) {
      const Vec2 to = t - p;
      const Real d = length(to);
      if (d <= target_radius_ || d < Real(1e-6)) return;
      const Real strength = std::min(Real(1), d / slowing_radius_);
      cosine_lobe(row, dirs.x(), dirs.y(), slots, to.x * strength / d, to.y * strength / d, false);
    });
  }
}

Leave::Leave(Targets threats, Real escape_radius, Real danger_radius, Real weight)
    : Behavior(weight), threats_(std::move(threats)), escape_radius_(escape_radius), danger_radius_(danger_radius) {
  threats_.check("threats");
  if (!(escape_radius >= 0) || std::isinf(escape_radius)) {
    throw std::invalid_argument("escape_radius: expected a finite distance >= 0, got " + std::to_string(escape_radius));
  }
  check_positive_distance(danger_radius, "danger_radius");
}

void Leave::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                 Real*) const {
  const int slots = dirs.slots();
  for (int k = 0; k < count; ++k) {
    Real* row = interest + static_cast<std::size_t>(k) * slots;
    const Vec2 p = scene.position(agents[k]);
    threats_.for_each(scene, agents[k], [&](Vec2 t) {
      const Vec2 away = p - t;
      const Real d = length(away);
      if (d > danger_radius_ || d < Real(1e-6)) return;
      const Real strength = d < escape_radius_ ? Real(1) : 1 - d / danger_radius_;
      cosine_lobe(row, dirs.x(), dirs.y(), slots, away.x * strength / d, away.y * strength / d, false);
    });
  }
}

}  // namespace contextsteer
