#include "contextsteer/behaviors/forward.hpp"

#include <cmath>

#include "contextsteer/maps/cosine_lobes.hpp"

namespace contextsteer {

Forward::Forward(const ForwardParams& params) : BehaviorWith(params) {}

void Forward::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                   Real*) const {
  add_angle_lobes(interest, dirs, count, params_.strength, [&](int k) { return scene.heading(agents[k]); });
}

}  // namespace contextsteer
