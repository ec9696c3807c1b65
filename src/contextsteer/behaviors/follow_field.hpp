// FollowField: interest along a navigation field, the shortest way round the obstacles
// to the field's nearest goal.
//
// Slot i gets strength * max(0, dot(u, d_i)), u the field's direction at the agent
// (NavigationField::direction_at); with sideways w > 0, strength * max(0, w + (1 - w)
// dot(u, d_i)) (add_lobe). As Arrive, strength is 0 within arrive_radius of a
// goal (by the field's distance) and distance / slowing_radius within slowing_radius,
// 1 beyond; an agent where the field has no direction (at a goal, or where no goal can
// be reached) gets no interest.
#pragma once

#include <memory>

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/navigation/navigation_field.hpp"

namespace contextsteer {

class FollowField : public InterestBehavior {
 public:
  // Throws std::invalid_argument for a null field, an arrive_radius that is not a finite
  // distance >= 0, a slowing_radius that is not a finite distance > 0 or a sideways
  // outside [0, 1).
  FollowField(std::shared_ptr<const NavigationField> field, Real arrive_radius, Real slowing_radius, Real weight,
              Real sideways = 0);

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

  const std::shared_ptr<const NavigationField>& field() const { return field_; }
  // The lobe's peak for an agent `distance` metres from the nearest goal.
  Real strength(Real distance) const;
  Real sideways() const { return sideways_; }

 private:
  std::shared_ptr<const NavigationField> field_;
  Real arrive_radius_;
  Real slowing_radius_;
  Real sideways_;
};

}  // namespace contextsteer
