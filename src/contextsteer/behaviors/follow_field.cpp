#include "contextsteer/behaviors/follow_field.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "contextsteer/behaviors/support/targets.hpp"
#include "contextsteer/maps/cosine_lobes.hpp"

namespace contextsteer {

FollowField::FollowField(std::shared_ptr<const NavigationField> field, const FollowFieldParams& params)
    : BehaviorWith(params), field_(std::move(field)) {
  if (!field_) throw std::invalid_argument("field: expected a navigation field, got none");
}

Real FollowField::strength(Real distance) const {
  if (distance <= params_.arrive_radius) return 0;
  return std::min(Real(1), distance / params_.slowing_radius);
}

void FollowField::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                       Real*) const {
  add_block_lobes(interest, dirs, count, false, [&](int k, auto&& add) {
    const Vec2 p = scene.position(agents[k]);
    const Vec2 u = field_->direction_at(p);
    if (u.x == 0 && u.y == 0) return;
    // In a blocked margin the distance is unknown (infinite): full strength, to get out.
    const Real s = strength(field_->distance_at(p));
    if (s > 0) add_lobe(add, u, Real(1), s, params_.sideways);
  });
}

}  // namespace contextsteer
