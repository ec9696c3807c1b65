// FollowField: interest along a navigation field, the shortest way round the obstacles
// to the field's nearest goal.
//
// Slot i gets strength * max(0, dot(u, d_i)), u the field's direction at the agent
// (NavigationField::direction_at); with sideways w > 0, strength * max(0, w + (1 - w)
// dot(u, d_i)) (add_lobe). As Arrive, strength is 0 within arrive_radius of a
// goal (by the field's distance) and distance / slowing_radius within slowing_radius,
// 1 beyond; an agent where the field has no direction (at a goal, or where no goal can
// be reached) gets no interest.
//
// With to_target, the way ends at each agent's own target (SceneView::target_of: World
// targets, or its target agent), which should lie in one of the field's goals: where the
// field has no direction but a goal can be reached (in a goal area, at a goal point) u
// leads straight to the target, and the distance of the ramp is the larger of the
// field's and the straight distance to the target (the way still to walk is at least
// either), so agents do not slow down at the edge of a goal area their target lies deep in.
//
// Groups: one field serves every agent; with one field per group (per_group), an agent
// of group g (SceneView::group_of) follows fields[g], and an evaluation with an agent
// whose group has no field throws std::invalid_argument naming `groups`.
//
// Crowd-updated fields: with crowd_density or crowd_counterflow > 0, each world keeps
// its own copy of every field (EvaluationCache::keep) and marches it again, with the
// crowd's costs added (navigation/crowd_cost.hpp, home = slowing_radius), once every
// crowd_every seconds of the world's time, in prepare(), the fields on the world's
// threads, one per field. Field f of F starts its march when (t - t0) / crowd_every -
// f / F reaches a whole number >= 0 (t the world's time, t0 its time at its first
// evaluation with the fields), so that the fields' starts are spread over the period and
// the first begins at once; the march itself is spread over the evaluations that follow:
// each takes a share of its cells in proportion to the time since the last evaluation, so
// that it ends within a tenth of a period (kMarchShare), or within four evaluations
// (kMarchEvaluations) where those take longer; until then agents follow the field as it
// was.
// No evaluation marches much more than another, and the result is that of a whole march
// from the crowd as it stood at the start. With crowd_every 0 every evaluation marches
// every field whole, from the crowd as it stands. The fields' own costs are reused, and
// the march allocates nothing after the first. A copied world copies the fields and their
// marches under way, as World::explain does (so that it explains what the next step does);
// a restored or reset world and an evaluation outside a world start from the fields as
// built.
//
// Way left: where the scene has a cache (a world's evaluation, explain), publish() writes
// each of its agents' distance along its field (as built, without the crowd's costs)
// into the scene's table of ways left (scene/way_left.hpp), for Anticipate's right_of_way.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/navigation/crowd_cost.hpp"
#include "contextsteer/navigation/navigation_field.hpp"
#include "contextsteer/scene/evaluation_cache.hpp"

namespace contextsteer {

struct FollowFieldParams {
  Real arrive_radius = 0.5;   // metres from a goal (by the field's distance); no interest within it
  Real slowing_radius = 3.0;  // metres; strength distance / slowing_radius within it
  Real sideways = 0;          // in [0, 1) (add_lobe)
  Real weight = 1;
  bool to_target = false;      // the way ends at each agent's own target, not at the field's goal
  Real crowd_density = 0;      // m^2 (0: the field is not updated for density)
  Real crowd_counterflow = 0;  // m s (0: nor for counterflow)
  Real crowd_every = 0.5;      // seconds of world time between updates
  Real crowd_radius = 1;       // metres each agent is spread over

  static constexpr auto fields() {
    return std::make_tuple(
        field("arrive_radius", &FollowFieldParams::arrive_radius, "m",
              "no interest within it of a goal (by the field's distance)", at_least(0)),
        field("slowing_radius", &FollowFieldParams::slowing_radius, "m", "strength distance / slowing_radius within it",
              above(0)),
        sideways_field<FollowFieldParams>(), weight_field<FollowFieldParams>(),
        field("to_target", &FollowFieldParams::to_target, "",
              "the way ends at each agent's own target (World.targets), straight from the field's goal"),
        field("crowd_density", &FollowFieldParams::crowd_density, "m^2",
              "metres added to each metre of way per agent per m^2 (0: none)", at_least(0)),
        field("crowd_counterflow", &FollowFieldParams::crowd_counterflow, "m s",
              "metres added to each metre of way per agent per m^2 walking 1 m/s against it (0: none)", at_least(0)),
        field("crowd_every", &FollowFieldParams::crowd_every, "s",
              "seconds of world time between updates of the fields (0: every step)", at_least(0)),
        field("crowd_radius", &FollowFieldParams::crowd_radius, "m", "metres each agent's weight is spread over",
              above(0)));
  }
};

class FollowField : public BehaviorWith<FollowFieldParams, InterestBehavior> {
 public:
  // Throws std::invalid_argument for a null field or a field out of its bounds.
  FollowField(std::shared_ptr<const NavigationField> field, const FollowFieldParams& params);
  // One field per group (per_group) or one for all (a single field, per_group false).
  // Throws std::invalid_argument (naming `field`) for no fields, a null one, or several
  // without per_group.
  FollowField(std::vector<std::shared_ptr<const NavigationField>> fields, bool per_group,
              const FollowFieldParams& params);

  void publish(const SceneView& scene, const int* agents, int count) const override;
  void prepare(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs) const override;
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

  const std::shared_ptr<const NavigationField>& field() const { return fields_[0]; }
  const std::vector<std::shared_ptr<const NavigationField>>& fields() const { return fields_; }
  bool per_group() const { return per_group_; }
  bool crowd_updated() const { return params_.crowd_density > 0 || params_.crowd_counterflow > 0; }
  // The lobe's peak for an agent `distance` metres from the nearest goal.
  Real strength(Real distance) const;

  // What a world keeps for a FollowField with crowd costs: its own copy of each field,
  // marched with the crowd's costs, the marches under way and the buffers to do them.
  struct CrowdFields : KeptState {
    std::vector<std::shared_ptr<const NavigationField>> bases;  // the fields they were copied from
    std::vector<NavigationField> fields;
    std::vector<std::vector<Real>> extra;    // per field, the crowd's cost per cell
    std::vector<std::vector<Real>> stencil;  // per field, crowd_cost's scratch
    std::vector<NavigationField::MarchBuffers> buffers;
    std::vector<long long> started;      // per field, the period of its last march's start
    std::vector<std::uint8_t> marching;  // per field, whether a march is under way
    std::vector<std::size_t> pops;       // per field, the cells its last whole march took (or its cell count)
    CrowdCost cost;                      // what they are marched with
    Real home = 0;
    Real every = 0;
    double time = -1;   // world time of the last evaluation, seconds
    double origin = 0;  // world time of the first evaluation, seconds (t0)
    std::unique_ptr<KeptState> clone() const override { return std::make_unique<CrowdFields>(*this); }
  };
  // The share of crowd_every within which a march started is spread to its end, and the
  // evaluations it is spread over at least (at steps of the time since the last).
  static constexpr double kMarchShare = 0.1;
  static constexpr double kMarchEvaluations = 4;

 private:
  // The field agent a follows: its group's, or the only one.
  const NavigationField& field_of(const SceneView& scene, const CrowdFields* crowd, int a) const;
  void update_crowd_fields(const SceneView& scene) const;

  std::vector<std::shared_ptr<const NavigationField>> fields_;
  bool per_group_ = false;
};

}  // namespace contextsteer
