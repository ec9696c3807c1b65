// The index stage: target ids resolved to rows, the agents' largest radius and speed,
// the neighbor grid (kept from the last measure stage when nothing moved since) and the
// order in which each steering's agents are evaluated.
#include <algorithm>
#include <numeric>

#include "contextsteer/world/world.hpp"

namespace contextsteer {

Real World::grid_row_height() const {
  // Neighbor behaviours query within their radius plus two agent radii; overlap within
  // two radii. Rows of the longest reach (spatial_grid.hpp), among agents of the usual
  // size: the grid's kernels meet the few large ones apart.
  Real reach = 2 * index_.usual_radius;
  for (const Controller& c : controllers_) {
    if (c.steering.pipeline) reach = std::max(reach, c.steering.pipeline->neighbor_radius() + 2 * index_.usual_radius);
  }
  return std::max(reach, Real(1e-3));
}

void World::build_grid() {
  grid_.build(store_.positions.data(), store_.size, grid_row_height(), store_.radius.data(), store_.layers.data(),
              store_.sense_masks.data());
}

void World::refresh_grid() {
  if (!grid_.matches(store_.positions.data(), store_.size, grid_row_height(), store_.radius.data(),
                     store_.layers.data(), store_.sense_masks.data())) {
    build_grid();
  }
}

void World::check_pile() const {
  grid_.check_pile(store_.positions.data(), "a step", "spread the agents out, or add them over several steps");
}

void World::index_stage() {
  const int n = store_.size;
  // Local maxima: a member could alias the radii (both are floats), which the compiler
  // would then store and reload on every agent.
  Real max_radius = 0, min_radius = n > 0 ? store_.radius[0] : Real(0), fastest = 0;
  for (int a = 0; a < n; ++a) {
    max_radius = std::max(max_radius, store_.radius[a]);
    fastest = std::max(fastest, store_.max_speed[a]);
    min_radius = std::min(min_radius, store_.radius[a]);
    // An id another thread wrote since the check stage, outside the table, targets no
    // agent (the next check stage refuses it).
    const std::int64_t t = store_.target_ids[a];
    index_.target_index[a] = t < 0 || t >= next_id_ ? -1 : index_of_id_[t];
  }
  index_.max_radius = max_radius;
  index_.fastest = fastest;
  index_.usual_radius = SpatialGrid::usual_radius_of(store_.radius.data(), n, min_radius, max_radius);
  // The grid the last measure stage built serves unless the state changed since.
  refresh_grid();
  // When behaviours query neighbors, evaluate agents in grid order: consecutive agents
  // then query the same cells, which stay in cache. Otherwise index order keeps the
  // writes of maps and decisions sequential. Every agent's result is independent of the order.
  bool queries_neighbors = false;
  for (const Controller& c : controllers_) {
    queries_neighbors |= c.steering.pipeline && c.steering.pipeline->neighbor_radius() > 0;
  }
  const int* order = grid_.order();
  if (controllers_.size() == 1) {  // everyone in one steering: the order is the list
    std::vector<int>& members = controllers_[0].members;
    members.resize(n);
    if (queries_neighbors) {
      std::copy_n(order, n, members.begin());
    } else {
      std::iota(members.begin(), members.end(), 0);
    }
    return;
  }
  for (Controller& c : controllers_) c.members.clear();
  if (queries_neighbors) {
    for (int k = 0; k < n; ++k) controllers_[store_.steering_index[order[k]]].members.push_back(order[k]);
  } else {
    for (int a = 0; a < n; ++a) controllers_[store_.steering_index[a]].members.push_back(a);
  }
}

}  // namespace contextsteer
