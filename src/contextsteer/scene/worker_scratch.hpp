// What one worker of a world's thread pool works in while it fills maps for blocks of
// agents. The world owns one per worker and sizes them all when its pool starts and
// whenever it changes (agents added or removed, steerings or slots changed, threads
// changed, obstacles edited between steps): which blocks a worker takes varies from step
// to step, and a step must not allocate because a worker met a kind of block late.
// Behaviours find the calling worker's in SceneView::scratch(); every use still grows
// what it needs, so a view without one (an evaluation outside a world) works too.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "contextsteer/kernels/neighbor_buffers.hpp"
#include "contextsteer/scene/obstacle_marks.hpp"
#include "contextsteer/scene/obstacles.hpp"
#include "contextsteer/scene/scene.hpp"
#include "contextsteer/scene/spatial_grid.hpp"

namespace contextsteer {

// What a world's blocks may need of a worker's scratch.
struct WorkerScratchNeeds {
  int slots = 0;   // the world's slot count
  int agents = 0;  // in the world
  // Circles and walls (segments, polygon edges, bounds' sides) of the static and of the
  // moving obstacles.
  std::size_t circles = 0, walls = 0, moving_circles = 0, moving_walls = 0;
  // Neighbor entries a block has needed so far, in any worker's buffers.
  std::size_t neighbor_entries = 0;
};

struct WorkerScratch {
  NeighborBuffers neighbors;          // Avoid's neighbors of a block (kernels/wide/agent_danger.inl)
  ObstacleMarks marks, moving_marks;  // of the static and of the moving obstacles, per query
  // The obstacles one agent's rays may hit (Rays): circles with the agent's radius added.
  std::vector<Circle> met_circles;
  std::vector<Segment> met_walls;
  // Rows of `slots` values: Avoid's edge hits (2 rows) and wall rays (4), Rays' hits (1),
  // Anticipate's danger at the arc edges (1).
  std::vector<Real> edge_hits, wall_rays, ray_hits, edge_danger;

  // Room for what `needs` asks; allocates only when it asks for more than is held.
  void reserve(const WorkerScratchNeeds& needs) {
    const std::size_t slots = static_cast<std::size_t>(std::max(needs.slots, 0));
    const std::size_t agents = static_cast<std::size_t>(std::max(needs.agents, 0));
    // A few large agents are gathered apart, after the rest.
    const std::size_t per_agent =
        std::min(agents, NeighborBuffers::kNeighborsPerAgent) + static_cast<std::size_t>(SpatialGrid::kMaxLargeAgents);
    neighbors.reserve(std::max(needs.neighbor_entries, per_agent * kBlockAgents));
    marks.reserve(needs.circles + needs.walls);
    moving_marks.reserve(needs.moving_circles + needs.moving_walls);
    reserve_to(met_circles, needs.circles + needs.moving_circles);
    reserve_to(met_walls, needs.walls + needs.moving_walls);
    reserve_to(edge_hits, 2 * slots);
    reserve_to(wall_rays, 4 * slots);
    reserve_to(ray_hits, slots);
    reserve_to(edge_danger, slots);
  }

 private:
  template <class T>
  static void reserve_to(std::vector<T>& v, std::size_t n) {
    if (v.capacity() < n) v.reserve(n);
  }
};

inline WorkerScratch* SceneView::scratch() const { return workers ? workers + worker : nullptr; }

}  // namespace contextsteer
