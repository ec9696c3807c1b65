#include "contextsteer/behaviors/follow_field.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "contextsteer/behaviors/support/targets.hpp"
#include "contextsteer/maps/cosine_lobes.hpp"
#include "contextsteer/scene/way_left.hpp"

namespace contextsteer {

FollowField::FollowField(std::shared_ptr<const NavigationField> field, const FollowFieldParams& params)
    : FollowField(std::vector<std::shared_ptr<const NavigationField>>{std::move(field)}, false, params) {}

FollowField::FollowField(std::vector<std::shared_ptr<const NavigationField>> fields, bool per_group,
                         const FollowFieldParams& params)
    : BehaviorWith(params), fields_(std::move(fields)), per_group_(per_group) {
  if (fields_.empty()) throw std::invalid_argument("field: expected a navigation field or one per group, got none");
  for (const auto& f : fields_) {
    if (!f) throw std::invalid_argument("field: expected a navigation field, got none");
  }
  if (!per_group_ && fields_.size() != 1) {
    throw std::invalid_argument("field: expected one field for every agent, got " + std::to_string(fields_.size()));
  }
  if (std::int64_t(fields_.size()) > std::int64_t(kMaxGroup) + 1) {
    throw std::invalid_argument("field: expected at most one field per group (" + std::to_string(kMaxGroup + 1) +
                                "), got " + std::to_string(fields_.size()));
  }
}

Real FollowField::strength(Real distance) const {
  if (distance <= params_.arrive_radius) return 0;
  return std::min(Real(1), distance / params_.slowing_radius);
}

void FollowField::prepare(const SceneView& scene, const int* agents, int count, const SlotDirections&) const {
  if (per_group_) {
    const std::int32_t groups = static_cast<std::int32_t>(fields_.size());
    for (int k = 0; k < count; ++k) {
      const std::int32_t g = scene.group_of(agents[k]);
      if (g < 0 || g >= groups) {
        throw std::invalid_argument("groups: expected a group from 0 to " + std::to_string(groups - 1) +
                                    " (FollowField has a field for each), got " + std::to_string(g) + " for agent " +
                                    std::to_string(scene.id_of(agents[k])));
      }
    }
  }
  if (crowd_updated() && scene.cache) update_crowd_fields(scene);
}

void FollowField::publish(const SceneView& scene, const int* agents, int count) const {
  if (!scene.cache) return;
  Real* left = way_left_to_write(*scene.cache, scene.agents);
  const std::size_t fields = fields_.size();
  for (int k = 0; k < count; ++k) {
    const int a = agents[k];
    // A group without a field (prepare() refuses it) has no way left.
    if (per_group_ && static_cast<std::size_t>(scene.group_of(a)) >= fields) continue;
    left[a] = field_of(scene, nullptr, a).distance_at(scene.position(a));
  }
}

void FollowField::update_crowd_fields(const SceneView& scene) const {
  const CrowdCost cost{params_.crowd_density, params_.crowd_counterflow, params_.crowd_radius};
  const Real home = params_.slowing_radius;
  const Real every = params_.crowd_every;
  const int count = static_cast<int>(fields_.size());
  // Field f's period: (t - origin) / every - f / count, whole (-1 before its first).
  auto period_of = [&](const CrowdFields& c, int f) {
    return every > 0 ? static_cast<long long>(std::floor((scene.time - c.origin) / every - double(f) / count)) : 0;
  };
  auto* crowd = dynamic_cast<CrowdFields*>(scene.cache->kept(this));
  const bool same_cost = crowd && crowd->cost.density == cost.density && crowd->cost.counterflow == cost.counterflow &&
                         crowd->cost.radius == cost.radius && crowd->home == home && crowd->every == every;
  if (!crowd || crowd->bases != fields_ || !same_cost) {
    // Anew: the fields as built; the first field's march begins at once (and goes on
    // over the evaluations that follow), the others' a count-th of a period apart.
    auto made = std::make_unique<CrowdFields>();
    made->bases = fields_;
    for (const auto& f : fields_) made->fields.push_back(*f);
    made->extra.resize(count);
    made->stencil.resize(count);
    made->buffers.resize(count);
    made->marching.assign(count, 0);
    made->started.resize(count);
    made->pops.resize(count);
    for (int f = 0; f < count; ++f) {
      made->started[f] = -1;
      made->pops[f] = made->fields[f].distances().size();
    }
    made->cost = cost;
    made->home = home;
    made->every = every;
    made->origin = scene.time;
    crowd = static_cast<CrowdFields*>(scene.cache->keep(this, std::move(made)));
  }
  const double dt = crowd->time >= 0 ? scene.time - crowd->time : 0.0;
  if (every > 0 && dt == 0 && crowd->time >= 0) return;  // evaluated at this time already
  crowd->time = scene.time;
  // One field per task: each writes its own field, buffers and bookkeeping only.
  auto body = [&](int f, int) {
    NavigationField& field = crowd->fields[f];
    NavigationField::MarchBuffers& buffers = crowd->buffers[f];
    if (!crowd->marching[f]) {
      const long long period = period_of(*crowd, f);
      if (every > 0 && period == crowd->started[f]) return;
      crowd->started[f] = period;
      const NavigationField& base = *fields_[f];
      std::vector<Real>& extra = crowd->extra[f];
      extra.resize(base.distances().size());
      // A single field serves every agent: all are its group's (-1).
      const std::int32_t group = per_group_ ? f : -1;
      crowd_cost(base, scene, group, home, cost, extra.data(), crowd->stencil[f]);
      field.begin_remarch(extra.data(), buffers);
      crowd->marching[f] = 1;
    }
    // Cells to take now: in proportion to the time since the last evaluation, so that
    // the march ends within kMarchShare of a period (or kMarchEvaluations evaluations);
    // all of them when every evaluation
    // marches; none at a world's first evaluation (the time to the next is not known
    // yet: the march goes on from the next).
    std::size_t budget = static_cast<std::size_t>(-1);
    if (every > 0) {
      const double span = std::max(kMarchShare * every, kMarchEvaluations * dt);
      budget = dt > 0 ? static_cast<std::size_t>(std::ceil(double(crowd->pops[f]) * dt / span)) + 64 : 0;
    }
    if (!field.advance_remarch(buffers, budget)) return;
    field.finish_remarch(buffers);
    crowd->pops[f] = std::max<std::size_t>(buffers.popped, 1);
    crowd->marching[f] = 0;
  };
  scene.cache->pool().run(count, body);
}

const NavigationField& FollowField::field_of(const SceneView& scene, const CrowdFields* crowd, int a) const {
  const std::size_t f = per_group_ ? static_cast<std::size_t>(scene.group_of(a)) : 0;
  return crowd ? crowd->fields[f] : *fields_[f];
}

void FollowField::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                       Real*) const {
  const CrowdFields* crowd = nullptr;
  if (crowd_updated() && scene.cache) {
    crowd = dynamic_cast<const CrowdFields*>(scene.cache->find_kept(this));
    if (crowd && crowd->bases != fields_) crowd = nullptr;
  }
  add_block_lobes(interest, dirs, count, false, [&](int k, auto&& add) {
    const int a = agents[k];
    // prepare() refused a group without a field; fill() may run without it (no interest).
    if (per_group_ && static_cast<std::size_t>(scene.group_of(a)) >= fields_.size()) return;
    const Vec2 p = scene.position(a);
    Vec2 u = field_of(scene, crowd, a).direction_at(p);
    // The distance as the field was built, without the crowd's costs: arriving is a
    // matter of metres. In a blocked margin it is unknown (infinite): full strength, to
    // get out.
    Real way = field_of(scene, nullptr, a).distance_at(p);
    if (params_.to_target) {
      const Vec2 to = scene.target_of(a) - p;
      const Real straight = length(to);
      if (u.x == 0 && u.y == 0 && std::isfinite(way) && straight > 0) u = to * (1 / straight);
      way = std::max(way, straight);
    }
    if (u.x == 0 && u.y == 0) return;
    const Real s = strength(way);
    if (s > 0) add_lobe(add, u, Real(1), s, params_.sideways);
  });
}

}  // namespace contextsteer
