// Wander: interest toward the agent's heading turned by a slowly drifting angle.
//
// The angle is spread * noise(t * rate), noise a smooth value noise in [-1, 1] drawn from
// (seed, agent id): the same seed gives the same maps, whatever the threads or the order
// of agents. Slot i gets strength * max(0, dot(w, d_i)), w the wander direction.
#pragma once

#include <cstdint>

#include "contextsteer/behaviors/behavior.hpp"

namespace contextsteer {

class Wander : public InterestBehavior {
 public:
  // rate: noise cycles per second (> 0); spread: radians (>= 0); strength: [0, inf).
  Wander(std::uint64_t seed, Real rate, Real spread, Real strength, Real weight);

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

  std::uint64_t seed_;
  Real rate_;
  Real spread_;
  Real strength_;
};

}  // namespace contextsteer
