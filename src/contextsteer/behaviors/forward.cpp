#include "forward.hpp"

#include <cmath>

#include "../cosine_lobes.hpp"
#include "../format_real.hpp"

namespace contextsteer {

Forward::Forward(Real strength, Real weight) : Behavior(weight), strength_(strength) {
  if (!(strength >= 0) || !within_bound(strength)) {
    throw std::invalid_argument("strength: expected a number from 0 to 1e9, got " + format_real(strength));
  }
}

void Forward::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                   Real*) const {
  add_angle_lobes(interest, dirs, count, strength_, [&](int k) { return scene.heading(agents[k]); });
}

}  // namespace contextsteer
