#include "contextsteer/behaviors/rays.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "contextsteer/behaviors/support/targets.hpp"
#include "contextsteer/geometry/geometry.hpp"
#include "contextsteer/geometry/ray_casts.hpp"
#include "contextsteer/scene/moving_obstacles.hpp"
#include "contextsteer/scene/obstacle_marks.hpp"
#include "contextsteer/scene/worker_scratch.hpp"

namespace contextsteer {

Rays::Rays(const RaysParams& params) : BehaviorWith(params) {}

namespace {

// The obstacles one agent's rays may hit, from one query of the index: circles as their
// centres and reaches (their radius plus the agent's), walls as they are; in the calling
// worker's scratch, which the world sizes for all its obstacles.
struct MetObstacles {
  std::vector<Circle>& circles;  // radius: the circle's plus the agent's
  std::vector<Segment>& walls;
  void start() { circles.clear(), walls.clear(); }
};

// Gathers into `met` the obstacles on layers `senses` that a ray of `ray_length` metres
// from an agent of radius r at p may hit, each once; false, gathering no further, when the
// agent already overlaps one (each ray then hits at 0). The overlap is tested as
// ray_circle_distance and ray_capsule_distance test it, so that the casts give their
// numbers. Obstacles whose nearest point lies beyond the rays' reach (the query's square
// holds more than its disc) are left out, with a margin for rounding: they would be hit
// beyond ray_length.
bool gather(const Obstacles& o, ObstacleMarks& marks, Vec2 p, Real r, LayerMask senses, Real ray_length,
            MetObstacles& met) {
  marks.start(o);
  bool inside = false;
  o.for_each_near(
      p, ray_length + r,
      [&](int c) {
        if (inside || !(senses & o.circle_layers()[c]) || !marks.first_circle(c)) return;
        const Circle& circle = o.circles()[c];
        const Real circle_reach = circle.radius + r;
        const Real d2 = length_squared(p - circle.centre);
        inside = d2 - circle_reach * circle_reach <= 0;
        const Real far = widened(ray_length + circle_reach);
        if (d2 <= far * far) met.circles.push_back({circle.centre, circle_reach});
      },
      [&](int w) {
        if (inside || !(senses & o.wall_layers()[w]) || !marks.first_wall(w)) return;
        const Segment& wall = o.walls()[w];
        const Real d = length(p - closest_point_on_segment(wall, p));
        inside = d <= r;
        if (d <= widened(ray_length + r)) met.walls.push_back(wall);
      });
  return !inside;
}

}  // namespace

void Rays::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real*,
                Real* danger) const {
  if (!scene.obstacles) return;
  const int slots = dirs.slots();
  const Obstacles& o = *scene.obstacles;
  WorkerScratch own;  // outside a world
  WorkerScratch& scratch = scene.scratch() ? *scene.scratch() : own;
  MetObstacles met{scratch.met_circles, scratch.met_walls};
  std::vector<Real>& hits = scratch.ray_hits;
  hits.resize(static_cast<std::size_t>(slots));
  for (int k = 0; k < count; ++k) {
    const int a = agents[k];
    const Vec2 p = scene.position(a);
    const Real r = scene.radius_of(a);
    // One query of the obstacles per agent: a hit within the rays' length lies on an
    // obstacle within that length + r of the agent.
    met.start();
    // The moving obstacles where they stand at the step's end.
    if (gather(o, scratch.marks, p, r, scene.senses(a), params_.length, met) &&
        (!scene.moving ||
         gather(scene.moving->shapes(), scratch.moving_marks, p, r, scene.senses(a), params_.length, met))) {
      std::fill(hits.begin(), hits.end(), kInfinity);
      lower_to_first_hits(p, dirs.x(), dirs.y(), slots, met.circles.data(), static_cast<int>(met.circles.size()),
                          met.walls.data(), static_cast<int>(met.walls.size()), r, hits.data());
    } else {
      std::fill(hits.begin(), hits.end(), Real(0));
    }
    Real* row = danger + static_cast<std::size_t>(k) * slots;
    // Without a branch, so that the compiler takes the slots a vector at a time (the
    // value of a ray that hits nothing, infinity, is computed and left unused).
    const bool binary = params_.mode == RayMode::Binary;
    for (int i = 0; i < slots; ++i) {
      const Real value = binary ? Real(1) : 1 - hits[i] / params_.length;
      row[i] = hits[i] <= params_.length ? std::max(row[i], value) : row[i];
    }
  }
}

}  // namespace contextsteer
