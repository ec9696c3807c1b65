// Flocking from neighbors within `radius` (through the world's grid; only the agents on
// layers the agent senses count):
//   Separation: interest away from each neighbor, max(0, dot(u, d_i)) * falloff(d / radius),
//               u pointing away from it; neighbors combine by max.
//   Alignment:  interest toward m, the mean of the neighbors' unit velocities:
//               max(0, dot(m, d_i)); |m| <= 1 says how much they agree.
//   Cohesion:   interest toward c, the neighbors' centroid: max(0, dot(u, d_i)) *
//               min(1, |c - p| / radius), u = unit(c - p).
#pragma once

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/behaviors/support/falloff.hpp"

namespace contextsteer {

enum class FlockRule { Separation, Alignment, Cohesion };

class Flocking : public InterestBehavior {
 public:
  Flocking(FlockRule rule, Real radius, Falloff falloff, Real weight);

  Real neighbor_radius() const override { return radius_; }
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

  FlockRule rule() const { return rule_; }

 private:
  FlockRule rule_;
  Real radius_;
  Falloff falloff_;
};

}  // namespace contextsteer
