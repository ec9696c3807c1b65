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

struct FollowFieldParams {
  Real arrive_radius = 0.5;   // metres from a goal (by the field's distance); no interest within it
  Real slowing_radius = 3.0;  // metres; strength distance / slowing_radius within it
  Real sideways = 0;          // in [0, 1) (add_lobe)
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(field("arrive_radius", &FollowFieldParams::arrive_radius, "m",
                                 "no interest within it of a goal (by the field's distance)", at_least(0)),
                           field("slowing_radius", &FollowFieldParams::slowing_radius, "m",
                                 "strength distance / slowing_radius within it", above(0)),
                           sideways_field<FollowFieldParams>(), weight_field<FollowFieldParams>());
  }
};

class FollowField : public BehaviorWith<FollowFieldParams, InterestBehavior> {
 public:
  // Throws std::invalid_argument for a null field or a field out of its bounds.
  FollowField(std::shared_ptr<const NavigationField> field, const FollowFieldParams& params);

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

  const std::shared_ptr<const NavigationField>& field() const { return field_; }
  // The lobe's peak for an agent `distance` metres from the nearest goal.
  Real strength(Real distance) const;

 private:
  std::shared_ptr<const NavigationField> field_;
};

}  // namespace contextsteer
