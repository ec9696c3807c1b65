#include "flee.hpp"

#include "../slot_sweep.hpp"

namespace contextsteer {

Flee::Flee(Targets threats, Real radius, Falloff falloff, Real weight)
    : Behavior(weight), threats_(std::move(threats)), radius_(radius), falloff_(falloff) {
  threats_.check("threats");
  check_positive_distance(radius, "radius");
}

void Flee::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                Real*) const {
  const int slots = dirs.slots();
  for (int k = 0; k < count; ++k) {
    Real* row = interest + static_cast<std::size_t>(k) * slots;
    const Vec2 p = scene.position(agents[k]);
    threats_.for_each(scene, agents[k], [&](Vec2 t) {
      const Vec2 away = p - t;
      const Real d = length(away);
      if (d > radius_ || d < Real(1e-6)) return;
      const Real g = falloff_value(falloff_, d, radius_) / d;
      cosine_lobe(row, dirs.x(), dirs.y(), slots, away.x * g, away.y * g, false);
    });
  }
}

}  // namespace contextsteer
