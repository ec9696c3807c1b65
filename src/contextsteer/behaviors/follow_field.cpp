#include "contextsteer/behaviors/follow_field.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/behaviors/support/targets.hpp"
#include "contextsteer/maps/cosine_lobes.hpp"

namespace contextsteer {

FollowField::FollowField(std::shared_ptr<const NavigationField> field, Real arrive_radius, Real slowing_radius,
                         Real weight, Real sideways)
    : InterestBehavior(weight),
      field_(std::move(field)),
      arrive_radius_(arrive_radius),
      slowing_radius_(slowing_radius),
      sideways_(sideways) {
  if (!field_) throw std::invalid_argument("field: expected a navigation field, got none");
  check_sideways(sideways);
  require_nonnegative(arrive_radius, "arrive_radius", "a distance", " in metres");
  require_positive(slowing_radius, "slowing_radius", "a distance", " in metres");
}

Real FollowField::strength(Real distance) const {
  if (distance <= arrive_radius_) return 0;
  return std::min(Real(1), distance / slowing_radius_);
}

void FollowField::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                       Real*) const {
  add_block_lobes(interest, dirs, count, false, [&](int k, auto&& add) {
    const Vec2 p = scene.position(agents[k]);
    const Vec2 u = field_->direction_at(p);
    if (u.x == 0 && u.y == 0) return;
    // In a blocked margin the distance is unknown (infinite): full strength, to get out.
    const Real s = strength(field_->distance_at(p));
    if (s > 0) add_lobe(add, u, Real(1), s, sideways_);
  });
}

}  // namespace contextsteer
