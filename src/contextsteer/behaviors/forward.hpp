// Forward (seed 000's "directional" behaviour): interest toward the agent's heading,
// slot i gets strength * max(0, dot(h, d_i)), h = (cos heading, sin heading). With
// Avoid it is enough to drive round a track.
#pragma once

#include "contextsteer/behaviors/behavior.hpp"

namespace contextsteer {

class Forward : public InterestBehavior {
 public:
  Forward(Real strength, Real weight);

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  Real strength_;
};

}  // namespace contextsteer
