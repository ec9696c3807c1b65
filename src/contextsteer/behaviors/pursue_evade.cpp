#include "contextsteer/behaviors/pursue_evade.hpp"

#include <cmath>

#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/behaviors/support/targets.hpp"
#include "contextsteer/maps/cosine_lobes.hpp"

namespace contextsteer {

namespace {
void check_prediction(Real max_prediction) {
  require_positive(max_prediction, "max_prediction", "a time", " in seconds");
}
}  // namespace

Vec2 predicted_target(const SceneView& scene, int a, Real max_prediction) {
  const Vec2 t = scene.target_of(a);
  const Real distance = length(t - scene.position(a));
  const Real speed = length(scene.velocity(a));
  const Real prediction = speed <= distance / max_prediction ? max_prediction : distance / speed;
  return t + scene.target_velocity_of(a) * prediction;
}

Pursue::Pursue(Real max_prediction, Real weight, Real sideways)
    : InterestBehavior(weight), max_prediction_(max_prediction), sideways_(sideways) {
  check_prediction(max_prediction);
  check_sideways(sideways);
}

void Pursue::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                  Real*) const {
  add_block_lobes(interest, dirs, count, false, [&](int k, auto&& add) {
    const int a = agents[k];
    const Vec2 to = predicted_target(scene, a, max_prediction_) - scene.position(a);
    const Real d = length(to);
    if (d < Real(1e-6)) return;
    add_lobe(add, to, d, Real(1), sideways_);
  });
}

Evade::Evade(Real max_prediction, Real radius, Falloff falloff, Real weight, Real sideways)
    : InterestBehavior(weight),
      max_prediction_(max_prediction),
      radius_(radius),
      falloff_(falloff),
      sideways_(sideways) {
  check_prediction(max_prediction);
  check_sideways(sideways);
  require_positive(radius, "radius", "a distance", " in metres");
}

void Evade::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                 Real*) const {
  add_block_lobes(interest, dirs, count, false, [&](int k, auto&& add) {
    const int a = agents[k];
    const Vec2 away = scene.position(a) - predicted_target(scene, a, max_prediction_);
    const Real d = length(away);
    if (d > radius_ || d < Real(1e-6)) return;
    add_lobe(add, away, d, falloff_value(falloff_, d, radius_), sideways_);
  });
}

}  // namespace contextsteer
