#include "contextsteer/behaviors/forward.hpp"

#include <cmath>

#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/maps/cosine_lobes.hpp"

namespace contextsteer {

Forward::Forward(Real strength, Real weight) : InterestBehavior(weight), strength_(strength) {
  require_nonnegative(strength, "strength");
}

void Forward::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                   Real*) const {
  add_angle_lobes(interest, dirs, count, strength_, [&](int k) { return scene.heading(agents[k]); });
}

}  // namespace contextsteer
