// Wander: interest toward the agent's heading turned by a slowly drifting angle.
//
// The angle is spread * noise(t * rate), noise a smooth value noise in [-1, 1] drawn from
// (seed, agent id): the same seed gives the same maps, whatever the threads or the order
// of agents. Slot i gets strength * max(0, dot(w, d_i)), w the wander direction.
#pragma once

#include <cstdint>

#include "contextsteer/behaviors/behavior.hpp"

namespace contextsteer {

struct WanderParams {
  std::uint64_t seed = 0;  // the same seed gives the same maps
  Real rate = 0.5;         // noise cycles per second
  Real spread = 1;         // radians: the largest turn from the heading
  Real strength = 1;       // the lobe's peak
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(
        field("seed", &WanderParams::seed, "", "the noise's seed: the same seed gives the same maps"),
        field("rate", &WanderParams::rate, "Hz", "how fast the wander angle drifts, in noise cycles", above(0)),
        field("spread", &WanderParams::spread, "rad", "the largest turn from the heading", at_least(0)),
        field("strength", &WanderParams::strength, "", "the lobe's peak", at_least(0)), weight_field<WanderParams>());
  }
};

class Wander : public BehaviorWith<WanderParams, InterestBehavior> {
 public:
  explicit Wander(const WanderParams& params = {});

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

  // The wander angle offset (radians) of agent `id` at `time` seconds.
  Real offset(std::int64_t id, double time) const;

 private:
  // The noise's knots around a time: the hashes of the one before and after, and the
  // smoothstep weight of the one after.
  struct Knots {
    std::uint64_t before, after;
    double smooth;
  };
  Knots knots_at(double time) const;
  Real offset_at(std::int64_t id, const Knots& knots) const;
};

}  // namespace contextsteer
