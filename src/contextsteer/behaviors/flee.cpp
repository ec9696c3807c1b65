#include "flee.hpp"


namespace contextsteer {

Flee::Flee(Targets threats, Real radius, Falloff falloff, Real weight)
    : Behavior(weight), threats_(std::move(threats)), radius_(radius), falloff_(falloff) {
  threats_.check("threats");
  check_positive_distance(radius, "radius");
}

void Flee::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                Real*) const {
  auto strength = [this](Real d) { return d > radius_ ? Real(0) : falloff_value(falloff_, d, radius_); };
  fill_target_lobes(threats_, true, false, 0, strength, scene, agents, count, dirs, interest);
}

}  // namespace contextsteer
