#include "forward.hpp"

#include <cmath>

#include "../slot_sweep.hpp"

namespace contextsteer {

Forward::Forward(Real strength, Real weight) : Behavior(weight), strength_(strength) {
  if (!(strength >= 0) || std::isinf(strength)) {
    throw std::invalid_argument("strength: expected a finite number >= 0, got " + std::to_string(strength));
  }
}

void Forward::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs,
                   Real* interest, Real*) const {
  const int slots = dirs.slots();
  for (int k = 0; k < count; ++k) {
    const Real h = scene.heading(agents[k]);
    cosine_lobe(interest + static_cast<std::size_t>(k) * slots, dirs.x(), dirs.y(), slots, strength_ * std::cos(h),
                strength_ * std::sin(h), false);
  }
}

}  // namespace contextsteer
