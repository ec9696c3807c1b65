// Chase: interest toward targets.
//
// For an agent at p and a target t at distance d = |t - p| <= max_distance, slot i gets
// max(0, dot(u, d_i)) * falloff(d / max_distance), u = (t - p) / d; with sideways w > 0,
// max(0, w + (1 - w) dot(u, d_i)) instead of max(0, dot(u, d_i)) (add_lobe). Targets
// combine per slot by Max (go for the best target) or Sum (head for the centre between targets).
// A target closer than 1e-6 m adds nothing: there is no direction left to go.
// With `agent_target`, each agent chases its own target (its target agent, or its
// target point) instead of, or besides, the shared targets.
#pragma once

#include <string>
#include <vector>

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/behaviors/support/falloff.hpp"
#include "contextsteer/behaviors/support/targets.hpp"

namespace contextsteer {

enum class TargetCombine { Max, Sum };
TargetCombine parse_target_combine(const std::string& name, const char* argument);
template <>
struct Names<TargetCombine> {
  static constexpr NamedValue<TargetCombine> values[] = {{"max", TargetCombine::Max}, {"sum", TargetCombine::Sum}};
};

struct ChaseParams {
  Real max_distance = kInfinity;  // metres; farther targets are ignored
  Falloff falloff = Falloff::Linear;
  TargetCombine combine = TargetCombine::Max;
  Real sideways = 0;  // in [0, 1): the lobe's share of its peak at right angles (add_lobe)
  Real weight = 1;
  // Not a field: each agent chases its own target (set by the targets given, see Targets).
  bool agent_target = false;

  static constexpr auto fields() {
    return std::make_tuple(
        field("max_distance", &ChaseParams::max_distance, "m", "farther targets are ignored; infinite by default",
              above_or_infinite(0)),
        field("falloff", &ChaseParams::falloff, "", "how strength fades with distance / max_distance"),
        field("combine", &ChaseParams::combine, "",
              "'max' goes for the best target, 'sum' for the centre between them"),
        field("sideways", &ChaseParams::sideways, "", "the lobe's share of its peak at right angles, in [0, 1)",
              kSidewaysBounds),
        weight_field<ChaseParams>());
  }
};

class Chase : public BehaviorWith<ChaseParams, InterestBehavior> {
 public:
  // Throws std::invalid_argument for a max_distance that is neither infinite nor > 0 and at most
  // 1e9, or a non-finite target.
  Chase(std::vector<Vec2> targets, const ChaseParams& params);

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

  const std::vector<Vec2>& targets() const { return targets_.points; }
  void set_targets(std::vector<Vec2> targets);

 private:
  Targets targets_;
};

}  // namespace contextsteer
