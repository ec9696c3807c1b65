// Arrive and Leave (seeds 003 and 004) as context behaviours: a cosine lobe toward (or
// away from) the target whose strength follows the seeds' speed ramps, so that the
// decision's strength, and with it the agent's speed, ramps too.
//
// Arrive, at distance d from a target: strength 0 inside target_radius, d / slowing_radius
// inside slowing_radius, else 1; slot i gets strength * max(0, dot(u, d_i)) toward it
// (with sideways w > 0, strength * max(0, w + (1 - w) dot(u, d_i)): add_lobe).
// Leave: nothing beyond danger_radius, 1 inside escape_radius, else 1 - d / danger_radius;
// slot i gets strength * max(0, dot(u, d_i)) away from it. Targets combine by max.
#pragma once

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/behaviors/support/targets.hpp"

namespace contextsteer {

class Arrive : public InterestBehavior {
 public:
  // Throws std::invalid_argument for a non-finite target, a target_radius that is not a
  // finite distance >= 0, a slowing_radius that is not a finite distance > 0 or a sideways
  // outside [0, 1).
  Arrive(Targets targets, Real target_radius, Real slowing_radius, Real weight, Real sideways = 0);
  Real sideways() const { return sideways_; }

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  Targets targets_;
  Real target_radius_;
  Real slowing_radius_;
  Real sideways_;
};

class Leave : public InterestBehavior {
 public:
  Leave(Targets threats, Real escape_radius, Real danger_radius, Real weight, Real sideways = 0);
  Real sideways() const { return sideways_; }

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  Targets threats_;
  Real escape_radius_;
  Real danger_radius_;
  Real sideways_;
};

}  // namespace contextsteer
