// Rays (seed 002): one ray per slot, `length` metres long, cast from the agent against the
// scene's circles, walls, polygon edges and bounds (those on layers it senses), each
// inflated by the agent's radius so that a free ray means room for the agent's body.
// Danger per slot, with t the nearest hit: Binary, 1 when t <= length; Distance,
// 1 - t / length (smoother motion, as the write-up suggests). No hit, no danger.
// Each thread that casts rays keeps 4 bytes per circle, wall and polygon edge, to cast
// each obstacle once per agent (rays.cpp).
#pragma once

#include "contextsteer/behaviors/behavior.hpp"

namespace contextsteer {

enum class RayMode { Binary, Distance };

class Rays : public DangerBehavior {
 public:
  Rays(Real length, RayMode mode, Real weight);

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

 private:
  Real length_;
  RayMode mode_;
};

}  // namespace contextsteer
