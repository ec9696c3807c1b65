// Forward (a "directional" behaviour): interest toward the agent's heading,
// slot i gets strength * max(0, dot(h, d_i)), h = (cos heading, sin heading). With
// Avoid it is enough to drive round a track.
#pragma once

#include "contextsteer/behaviors/behavior.hpp"

namespace contextsteer {

struct ForwardParams {
  Real strength = 1;  // the lobe's peak
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(field("strength", &ForwardParams::strength, "", "the lobe's peak", at_least(0)),
                           weight_field<ForwardParams>());
  }
};

class Forward : public BehaviorWith<ForwardParams, InterestBehavior> {
 public:
  explicit Forward(const ForwardParams& params = {});

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;
};

}  // namespace contextsteer
