// Flocking from neighbors within `radius` (through the world's grid; only the agents on
// layers the agent senses count), three behaviours sharing one pass over the neighbors
// (flocking.cpp):
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

// Fills `interest` by `rule` from the neighbors within `radius` metres (falloff: Separation only).
void fill_flocking(FlockRule rule, Real radius, Falloff falloff, const SceneView& scene, const int* agents, int count,
                   const SlotDirections& dirs, Real* interest);

struct SeparationParams {
  Real radius = 2;  // metres; farther neighbors are not sensed
  Falloff falloff = Falloff::Linear;
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(
        field("radius", &SeparationParams::radius, "m", "farther neighbors are not sensed", above(0)),
        field("falloff", &SeparationParams::falloff, "", "how strength fades with distance / radius"),
        weight_field<SeparationParams>());
  }
};

class Separation : public BehaviorWith<SeparationParams, InterestBehavior> {
 public:
  explicit Separation(const SeparationParams& params = {}) : BehaviorWith(params) {}
  Real neighbor_radius() const override { return params_.radius; }
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real*) const override {
    fill_flocking(FlockRule::Separation, params_.radius, params_.falloff, scene, agents, count, dirs, interest);
  }
};

// Alignment and Cohesion take the same parameters (one struct type each, as each binds its own).
template <FlockRule Rule>
struct FlockParams {
  Real radius = 5;  // metres; farther neighbors are not sensed
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(field("radius", &FlockParams::radius, "m", "farther neighbors are not sensed", above(0)),
                           weight_field<FlockParams>());
  }
};

template <FlockRule Rule>
class FlockWith : public BehaviorWith<FlockParams<Rule>, InterestBehavior> {
 public:
  explicit FlockWith(const FlockParams<Rule>& params = {})
      : BehaviorWith<FlockParams<Rule>, InterestBehavior>(params) {}
  Real neighbor_radius() const override { return this->params_.radius; }
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real*) const override {
    fill_flocking(Rule, this->params_.radius, Falloff::Linear, scene, agents, count, dirs, interest);
  }
};
using AlignmentParams = FlockParams<FlockRule::Alignment>;
using CohesionParams = FlockParams<FlockRule::Cohesion>;
using Alignment = FlockWith<FlockRule::Alignment>;
using Cohesion = FlockWith<FlockRule::Cohesion>;

}  // namespace contextsteer
