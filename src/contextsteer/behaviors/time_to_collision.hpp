// TimeToCollision: danger from where a moving neighbor will be, not where it is.
//
// For a neighbor within `radius` at relative position dp moving at relative velocity dv,
// the time of closest approach is t* = clamp(-dot(dp, dv) / |dv|^2, 0, horizon) and the
// neighbor will then be at dp + dv t*, relative to the agent. When that miss distance is
// under the two radii (a collision is coming), the slots covering that future position
// (arc coverage, as Avoid) get falloff(t* / horizon): the sooner, the stronger. Moving
// circles are seen as neighbors are.
//
// A moving wall or polygon is seen as its shape (behaviors/support/moving_shapes.hpp):
// slot i gets falloff(t_i / horizon), t_i the time the agent's disc, moving along the slot
// at the agent's current speed, first touches the shape moving at its velocity, when
// t_i <= horizon. An agent that touches it already gets falloff(0) on the slots that lead
// into it (within 90 degrees of its nearest point).
#pragma once

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/behaviors/support/falloff.hpp"
#include "contextsteer/scene/moving_obstacles.hpp"

namespace contextsteer {

struct TimeToCollisionParams {
  Real radius = 10;  // metres; farther neighbors are not sensed
  Real horizon = 3;  // seconds; the latest closest approach looked at
  Falloff falloff = Falloff::Linear;
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(
        field("radius", &TimeToCollisionParams::radius, "m", "farther neighbors are not sensed", above(0)),
        field("horizon", &TimeToCollisionParams::horizon, "s", "the latest closest approach looked at", above(0)),
        field("falloff", &TimeToCollisionParams::falloff, "", "how danger fades with t* / horizon"),
        weight_field<TimeToCollisionParams>());
  }
};

class TimeToCollision : public BehaviorWith<TimeToCollisionParams, DangerBehavior> {
 public:
  explicit TimeToCollision(const TimeToCollisionParams& params = {});

  Real neighbor_radius() const override { return params_.radius; }
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  // The danger of moving body b (a wall or polygon) on the row of an agent at p moving at
  // v, of radius r.
  void add_shape_danger(const MovingObstacles& moving, int b, Vec2 p, Vec2 v, Real r, const SlotDirections& dirs,
                        Real* row) const;
};

}  // namespace contextsteer
