#include "forward.hpp"

#include <cmath>

#include "../cosine_lobes.hpp"

namespace contextsteer {

Forward::Forward(Real strength, Real weight) : Behavior(weight), strength_(strength) {
  if (!(strength >= 0) || std::isinf(strength)) {
    throw std::invalid_argument("strength: expected a finite number >= 0, got " + std::to_string(strength));
  }
}

void Forward::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                   Real*) const {
  add_angle_lobes(interest, dirs, count, strength_, [&](int k) { return scene.heading(agents[k]); });
}

}  // namespace contextsteer
