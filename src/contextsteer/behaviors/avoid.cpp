#include "contextsteer/behaviors/avoid.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/base/real_math.hpp"
#include "contextsteer/behaviors/support/agent_danger.hpp"
#include "contextsteer/behaviors/support/arc_coverage.hpp"
#include "contextsteer/geometry/ray_casts.hpp"
#include "contextsteer/kernels/slot_sweep.hpp"
#include "contextsteer/scene/evaluation_cache.hpp"
#include "contextsteer/scene/moving_obstacles.hpp"
#include "contextsteer/scene/obstacle_marks.hpp"
#include "contextsteer/scene/worker_scratch.hpp"

namespace contextsteer {

Avoid::Avoid(const std::vector<Circle>& circles, const AvoidParams& params) : BehaviorWith(params) {
  own_.add_circles(circles, kAllLayers);  // checks them, naming "circles"
  own_.prepare_index();
}

NeighborDanger Avoid::neighbor_danger() const {
  return {params_.max_distance, params_.falloff, {math::cos(params_.keep_right), math::sin(params_.keep_right)}};
}

void Avoid::add_circle(Vec2 p, Real agent_radius, Vec2 centre, Real radius, const SlotDirections& dirs,
                       Real* row) const {
  const Vec2 to = centre - p;
  const Real reach = radius + agent_radius;
  const Real clearance = std::max(Real(0), length(to) - reach);
  if (clearance > params_.max_distance) return;
  add_disc_danger(dirs, to, reach, falloff_value(params_.falloff, clearance, params_.max_distance), row);
}

void Avoid::add_wall(Vec2 p, Real agent_radius, const Segment& wall, const SlotDirections& dirs, const Real* rays,
                     Real* row, Real* edge_hits) const {
  const int slots = dirs.slots();
  const Vec2 closest = closest_point_on_segment(wall, p);
  const Vec2 to = closest - p;
  const Real d = length(to);
  const Real clearance = std::max(Real(0), d - agent_radius);
  if (clearance > params_.max_distance) return;
  if (d <= agent_radius) {
    // Touching: like a circle of radius 0 at the closest point, the half-plane toward it.
    return add_circle(p, agent_radius, closest, 0, dirs, row);
  }
  if (slots == 1) {  // one slot whose arc is the whole circle
    row[0] = std::max(row[0], falloff_value(params_.falloff, clearance, params_.max_distance));
    return;
  }
  if (rays) {  // wall_arc < 1: each slot's own two edge rays, round its direction
    std::fill(edge_hits, edge_hits + 2 * slots, kInfinity);
    lower_to_first_hits(p, rays, rays + 2 * slots, 2 * slots, nullptr, 0, &wall, 1, agent_radius, edge_hits);
    const Real inside = math::cos(params_.wall_arc * kPi / slots) * d;  // dot(to, dir) within the arc
    for (int i = 0; i < slots; ++i) {
      const bool bearing_in_arc = to.x * dirs.x()[i] + to.y * dirs.y()[i] >= inside;
      const Real t = bearing_in_arc ? clearance : std::min(edge_hits[2 * i], edge_hits[2 * i + 1]);
      if (t <= params_.max_distance) row[i] = std::max(row[i], falloff_value(params_.falloff, t, params_.max_distance));
    }
    return;
  }
  const int bearing_slot = static_cast<int>(std::lround(dirs.slot_of_angle(math::atan2(to.y, to.x)))) % slots;
  // The hit distance along edge ray i serves slots i - 1 and i. The agent is outside the
  // wall's capsule (not touching, above): its edge rays all go at once.
  std::fill(edge_hits, edge_hits + slots, kInfinity);
  lower_to_first_hits(p, dirs.edge_x(), dirs.edge_y(), slots, nullptr, 0, &wall, 1, agent_radius, edge_hits);
  for (int i = 0; i < slots; ++i) {
    const Real t = i == bearing_slot ? clearance : std::min(edge_hits[i], edge_hits[i + 1 < slots ? i + 1 : 0]);
    if (t <= params_.max_distance) row[i] = std::max(row[i], falloff_value(params_.falloff, t, params_.max_distance));
  }
}

void Avoid::prepare(const SceneView& scene, const int*, int count, const SlotDirections& dirs) const {
  if (!params_.agents || !scene.grid || !scene.cache || !agent_pair_danger_available(dirs.slots())) return;
  // Pairs give every agent of the grid its danger: worth it when most of them use it.
  const SpatialGrid& grid = *scene.grid;
  if (2 * static_cast<long long>(count) < grid.agent_count()) return;
  // A pipeline of its own slot directions gets its own rows.
  if (scene.cache->find(this, &dirs)) return;
  Real* rows = scene.cache->store(this, &dirs, static_cast<std::size_t>(grid.agent_count()) * dirs.slots());
  agent_pair_danger(scene, neighbor_danger(), dirs, rows, scene.cache->pool());
  mark_near_moving(scene);
}

void Avoid::mark_near_moving(const SceneView& scene) const {
  if (!params_.world_obstacles || !scene.moving || scene.cache->find(this, scene.moving)) return;
  // 1 for each agent whose reach may meet a moving body: the body's reference point lies
  // within its extent of the body's nearest point, which lies within max_distance plus
  // the agent's radius of the agent (with room for rounding).
  const SpatialGrid& grid = *scene.grid;
  Real* near = scene.cache->store(this, scene.moving, static_cast<std::size_t>(grid.agent_count()));
  std::fill_n(near, grid.agent_count(), Real(0));
  const MovingObstacles& moving = *scene.moving;
  for (int b = 0; b < moving.count(); ++b) {
    const Real reach = (moving.extent(b) + params_.max_distance + scene.max_radius) * Real(1.001) + Real(1e-5);
    grid.for_each_within(moving.position(b), reach, [&](const Neighbor& n) { near[n.agent] = 1; });
  }
}

const Obstacles* Avoid::sensed_obstacles(const SceneView& scene) const {
  const Obstacles* obstacles = params_.world_obstacles ? scene.obstacles : nullptr;
  if (obstacles && obstacles->circles().empty() && obstacles->walls().empty()) return nullptr;
  return obstacles;
}

const Real* Avoid::ready_rows(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs) const {
  // Only agents add danger here, and their pairs are computed: the rows are lent when
  // the agents are consecutive in the grid's order (a world with one steering evaluates
  // them in that order).
  if (!params_.agents || !scene.grid || !scene.cache || !own_.circles().empty() || sensed_obstacles(scene)) {
    return nullptr;
  }
  const Real* pairs = scene.cache->find(this, &dirs);
  if (!pairs || count == 0) return nullptr;
  if (params_.world_obstacles && scene.moving) {
    // Lent only when no agent of the block may meet a moving body (prepare's marks).
    const Real* near = scene.cache->find(this, scene.moving);
    if (!near) return nullptr;
    for (int k = 0; k < count; ++k) {
      if (near[agents[k]] != 0) return nullptr;
    }
  }
  const int first = scene.grid->rank_of(agents[0]);
  for (int k = 1; k < count; ++k) {
    if (scene.grid->rank_of(agents[k]) != first + k) return nullptr;
  }
  return pairs + static_cast<std::size_t>(first) * dirs.slots();
}

void Avoid::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real*,
                 Real* danger) const {
  const int slots = dirs.slots();
  const Obstacles* obstacles = sensed_obstacles(scene);
  const Obstacles* moving = params_.world_obstacles && scene.moving ? &scene.moving->shapes() : nullptr;
  // The agents that may meet a moving body, when prepare() marked them; else all may.
  const Real* near_moving = moving && scene.cache ? scene.cache->find(this, scene.moving) : nullptr;
  // Static obstacles agent by agent, when there are any, in the calling worker's scratch
  // (or one of this call's own, outside a world).
  WorkerScratch own;
  WorkerScratch* scratch = nullptr;
  const Real* rays = nullptr;
  if (obstacles || moving) {
    scratch = scene.scratch() ? scene.scratch() : &own;
    scratch->edge_hits.resize(static_cast<std::size_t>(2 * slots));
    if (params_.wall_arc < 1 && slots > 1) {
      // Slot i's edges at its direction turned by -+ wall_arc * pi / slots.
      scratch->wall_rays.resize(static_cast<std::size_t>(4 * slots));
      Real* x = scratch->wall_rays.data();
      Real* y = x + 2 * slots;
      const Real c = math::cos(params_.wall_arc * kPi / slots), s = math::sin(params_.wall_arc * kPi / slots);
      for (int i = 0; i < slots; ++i) {
        const Real dx = dirs.x()[i], dy = dirs.y()[i];
        x[2 * i] = c * dx + s * dy;
        y[2 * i] = c * dy - s * dx;
        x[2 * i + 1] = c * dx - s * dy;
        y[2 * i + 1] = c * dy + s * dx;
      }
      rays = x;
    }
  }
  for (int k = 0; k < count && (obstacles || moving || !own_.circles().empty()); ++k) {
    const int a = agents[k];
    Real* row = danger + static_cast<std::size_t>(k) * slots;
    const Vec2 p = scene.position(a);
    const Real agent_radius = scene.radius_of(a);
    const LayerMask senses = scene.senses(a);
    const Real reach = params_.max_distance + agent_radius;  // beyond it nothing adds danger
    own_.for_each_near(
        p, reach, [&](int i) { add_circle(p, agent_radius, circles()[i].centre, circles()[i].radius, dirs, row); },
        [](int) {});
    // Only those within reach can add danger (add_circle and add_wall check again).
    const auto add_near = [&](const Obstacles& o, ObstacleMarks& marks) {
      const auto& circles = o.circles();
      const auto& circle_layers = o.circle_layers();
      const auto& walls = o.walls();
      const auto& wall_layers = o.wall_layers();
      marks.start(o);
      o.for_each_near(
          p, reach,
          [&](int i) {
            if ((senses & circle_layers[i]) && marks.first_circle(i)) {
              add_circle(p, agent_radius, circles[i].centre, circles[i].radius, dirs, row);
            }
          },
          [&](int i) {
            if ((senses & wall_layers[i]) && marks.first_wall(i)) {
              add_wall(p, agent_radius, walls[i], dirs, rays, row, scratch->edge_hits.data());
            }
          });
    };
    if (obstacles) add_near(*obstacles, scratch->marks);
    if (moving && (!near_moving || near_moving[a] != 0)) {
      add_near(*moving, scratch->moving_marks);  // where they stand at the step's end
    }
  }
  if (!params_.agents || !scene.grid) return;
  if (const Real* pairs = scene.cache ? scene.cache->find(this, &dirs) : nullptr) {
    for (int k = 0; k < count; ++k) {
      const std::size_t place = static_cast<std::size_t>(scene.grid->rank_of(agents[k]));
      max_row(pairs + place * slots, danger + static_cast<std::size_t>(k) * slots, slots);
    }
    return;
  }
  add_agent_danger(scene, agents, count, neighbor_danger(), dirs, danger);
}

}  // namespace contextsteer
