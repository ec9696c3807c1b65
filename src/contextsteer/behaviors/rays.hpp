// Rays: one ray per slot, `length` metres long, cast from the agent against the
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
template <>
struct Names<RayMode> {
  static constexpr NamedValue<RayMode> values[] = {{"binary", RayMode::Binary}, {"distance", RayMode::Distance}};
};

struct RaysParams {
  Real length = 5;  // metres
  RayMode mode = RayMode::Distance;
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(field("length", &RaysParams::length, "m", "each ray's length", above(0)),
                           field("mode", &RaysParams::mode, "", "'binary': 1 on a hit; 'distance': 1 - t / length"),
                           weight_field<RaysParams>());
  }
};

class Rays : public BehaviorWith<RaysParams, DangerBehavior> {
 public:
  explicit Rays(const RaysParams& params = {});

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;
};

}  // namespace contextsteer
