#include "contextsteer/behaviors/flocking.hpp"

#include <algorithm>
#include <cmath>

#include "contextsteer/behaviors/support/targets.hpp"
#include "contextsteer/maps/cosine_lobes.hpp"

namespace contextsteer {

void fill_flocking(FlockRule rule, Real radius, Falloff falloff, const SceneView& scene, const int* agents, int count,
                   const SlotDirections& dirs, Real* interest) {
  if (!scene.grid) return;  // no neighbors to flock with
  add_block_lobes(interest, dirs, count, false, [&](int k, auto&& add) {
    const int a = agents[k];
    const Vec2 p = scene.position(a);
    const LayerMask senses = scene.senses(a);
    Vec2 sum;
    int neighbors = 0;
    scene.grid->for_each_within(p, radius, [&](const Neighbor& n) {
      if (n.agent == a || !(senses & n.layer)) return;
      if (rule == FlockRule::Separation) {
        const Vec2 away = p - n.position;
        const Real d = std::sqrt(n.distance_squared);
        if (d < Real(1e-6)) return;
        const Real g = falloff_value(falloff, d, radius) / d;
        add(away.x * g, away.y * g);
      } else if (rule == FlockRule::Alignment) {
        const Vec2 v = scene.velocity(n.agent);
        const Real speed = length(v);
        if (speed > Real(1e-6)) sum = sum + v * (1 / speed);
      } else {
        sum = sum + n.position;
      }
      ++neighbors;
    });
    if (neighbors == 0 || rule == FlockRule::Separation) return;
    const Real inv = Real(1) / static_cast<Real>(neighbors);
    if (rule == FlockRule::Alignment) {
      add(sum.x * inv, sum.y * inv);
    } else {
      const Vec2 to = sum * inv - p;
      const Real d = length(to);
      if (d < Real(1e-6)) return;
      const Real g = std::min(Real(1), d / radius) / d;
      add(to.x * g, to.y * g);
    }
  });
}

}  // namespace contextsteer
