#include "forward.hpp"

#include <cmath>

#include "../cosine_lobes.hpp"

namespace contextsteer {

Forward::Forward(Real strength, Real weight) : Behavior(weight), strength_(strength) {
  if (!(strength >= 0) || std::isinf(strength)) {
    throw std::invalid_argument("strength: expected a finite number >= 0, got " + std::to_string(strength));
  }
}

void Forward::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs,
                   Real* interest, Real*) const {
  std::vector<Lobe>& lobes = lobe_buffer();
  lobes.clear();
  for (int k = 0; k < count; ++k) {
    const Real h = scene.heading(agents[k]);
    lobes.push_back({k, strength_ * std::cos(h), strength_ * std::sin(h)});
  }
  add_cosine_lobes(interest, dirs, lobes.data(), static_cast<int>(lobes.size()), false);
}

}  // namespace contextsteer
