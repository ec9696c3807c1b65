// TimeToCollision: danger from where a moving neighbor will be, not where it is.
//
// For a neighbor within `radius` at relative position dp moving at relative velocity dv,
// the time of closest approach is t* = clamp(-dot(dp, dv) / |dv|^2, 0, horizon) and the
// neighbor will then be at dp + dv t*, relative to the agent. When that miss distance is
// under the two radii (a collision is coming), the slots covering that future position
// (arc coverage, as Avoid) get falloff(t* / horizon): the sooner, the stronger.
#pragma once

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/behaviors/support/falloff.hpp"

namespace contextsteer {

class TimeToCollision : public DangerBehavior {
 public:
  TimeToCollision(Real radius, Real horizon, Falloff falloff, Real weight);

  Real neighbor_radius() const override { return radius_; }
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  Real radius_;
  Real horizon_;
  Falloff falloff_;
};

}  // namespace contextsteer
