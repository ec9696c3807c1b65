#include "contextsteer/behaviors/flee.hpp"

#include "contextsteer/base/parameter_checks.hpp"

namespace contextsteer {

Flee::Flee(Targets threats, Real radius, Falloff falloff, Real weight, Real sideways)
    : InterestBehavior(weight), threats_(std::move(threats)), radius_(radius), falloff_(falloff), sideways_(sideways) {
  threats_.check("threats");
  check_sideways(sideways);
  require_positive(radius, "radius", "a distance", " in metres");
}

void Flee::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                Real*) const {
  auto strength = [this](Real d) { return d > radius_ ? Real(0) : falloff_value(falloff_, d, radius_); };
  fill_target_lobes(threats_, true, false, sideways_, strength, scene, agents, count, dirs, interest);
}

}  // namespace contextsteer
