#include "rays.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "../geometry.hpp"
#include "../parameter_checks.hpp"
#include "../ray_casts.hpp"
#include "targets.hpp"

namespace contextsteer {

Rays::Rays(Real length, RayMode mode, Real weight) : DangerBehavior(weight), length_(length), mode_(mode) {
  require_positive(length, "length", "a distance", " in metres");
}

namespace {

// The obstacles one agent's rays may hit, from one query of the index: circles as their
// centres and reaches (their radius plus the agent's), walls as they are. Per thread,
// kept from agent to agent, so that a step allocates only when a crowd of obstacles
// outgrows them.
struct MetObstacles {
  std::vector<Circle> circles;  // radius: the circle's plus the agent's
  std::vector<Segment> walls;
};

// Gathers into `met` the obstacles on layers `senses` within `reach` of p that an agent
// of radius r there may hit; false, gathering no further, when the agent already overlaps
// one (each ray then hits at 0). The overlap is tested as ray_circle_distance and
// ray_capsule_distance test it, so that the casts give their numbers.
bool gather(const Obstacles& o, Vec2 p, Real r, LayerMask senses, Real reach, MetObstacles& met) {
  met.circles.clear(), met.walls.clear();
  bool inside = false;
  o.for_each_near(
      p, reach,
      [&](int c) {
        if (inside || !(senses & o.circle_layers()[c])) return;
        const Circle& circle = o.circles()[c];
        const Real circle_reach = circle.radius + r;
        inside = length_squared(p - circle.centre) - circle_reach * circle_reach <= 0;
        met.circles.push_back({circle.centre, circle_reach});
      },
      [&](int w) {
        if (inside || !(senses & o.wall_layers()[w])) return;
        const Segment& wall = o.walls()[w];
        inside = length(p - closest_point_on_segment(wall, p)) <= r;
        met.walls.push_back(wall);
      });
  return !inside;
}

}  // namespace

void Rays::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real*,
                Real* danger) const {
  if (!scene.obstacles) return;
  const int slots = dirs.slots();
  const Obstacles& o = *scene.obstacles;
  thread_local MetObstacles met;
  thread_local std::vector<Real> hits;
  hits.resize(static_cast<std::size_t>(slots));
  for (int k = 0; k < count; ++k) {
    const int a = agents[k];
    const Vec2 p = scene.position(a);
    const Real r = scene.radius_of(a);
    // One query of the obstacles per agent: a hit within length_ lies on an obstacle
    // within length_ + r of the agent.
    if (gather(o, p, r, scene.senses(a), length_ + r, met)) {
      std::fill(hits.begin(), hits.end(), kInfinity);
      lower_to_first_hits(p, dirs.x(), dirs.y(), slots, met.circles.data(), static_cast<int>(met.circles.size()),
                          met.walls.data(), static_cast<int>(met.walls.size()), r, hits.data());
    } else {
      std::fill(hits.begin(), hits.end(), Real(0));
    }
    Real* row = danger + static_cast<std::size_t>(k) * slots;
    for (int i = 0; i < slots; ++i) {
      if (hits[i] <= length_) row[i] = std::max(row[i], mode_ == RayMode::Binary ? Real(1) : 1 - hits[i] / length_);
    }
  }
}

}  // namespace contextsteer
