#include "contextsteer/behaviors/pursue_evade.hpp"

#include <cmath>

#include "contextsteer/behaviors/support/targets.hpp"
#include "contextsteer/maps/cosine_lobes.hpp"

namespace contextsteer {

Vec2 predicted_target(const SceneView& scene, int a, Real max_prediction) {
  const Vec2 t = scene.target_of(a);
  const Real distance = length(t - scene.position(a));
  const Real speed = length(scene.velocity(a));
  const Real prediction = speed <= distance / max_prediction ? max_prediction : distance / speed;
  return t + scene.target_velocity_of(a) * prediction;
}

Pursue::Pursue(const PursueParams& params) : BehaviorWith(params) {}

void Pursue::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                  Real*) const {
  add_block_lobes(interest, dirs, count, false, [&](int k, auto&& add) {
    const int a = agents[k];
    const Vec2 to = predicted_target(scene, a, params_.max_prediction) - scene.position(a);
    const Real d = length(to);
    if (d < Real(1e-6)) return;
    add_lobe(add, to, d, Real(1), params_.sideways);
  });
}

Evade::Evade(const EvadeParams& params) : BehaviorWith(params) {}

void Evade::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                 Real*) const {
  add_block_lobes(interest, dirs, count, false, [&](int k, auto&& add) {
    const int a = agents[k];
    const EvadeParams& p = params_;
    const Vec2 away = scene.position(a) - predicted_target(scene, a, p.max_prediction);
    const Real d = length(away);
    if (d > p.radius || d < Real(1e-6)) return;
    add_lobe(add, away, d, falloff_value(p.falloff, d, p.radius), p.sideways);
  });
}

}  // namespace contextsteer
