// The measure stage: the grid rebuilt over the moved agents (unless it is current), then each agent's
// penetration into the obstacles it senses and its overlap with the agents it senses.
// Only the agents the evaluate stage found close (evaluated_.close_agents) are queried
// for overlap, when that is known to give the same numbers (scene/close_agents.hpp).
#include <algorithm>
#include <cmath>

#include "contextsteer/world/overlap.hpp"
#include "contextsteer/world/world.hpp"

namespace contextsteer {

void World::measure_stage() {
  // The contact stage's grid serves when its passes moved no agent.
  refresh_grid();
  const SceneView view = scene();
  const bool has_obstacles = !obstacles_.empty();
  CloseAgents& close = evaluated_.close_agents;
  const std::vector<std::uint8_t>& close_flags = evaluated_.close_flags;
  const std::vector<Real>& travel = integrated_.farthest_move;
  // Only the agents Avoid's pass found close to another can overlap one now, if no agent
  // moved farther than half the slack (with room for the rounding of the distances).
  const Real farthest = travel.empty() ? kInfinity : std::sqrt(*std::max_element(travel.begin(), travel.end()));
  const bool only_close =
      close.complete && grid_.large_count() == 0 &&
      2 * farthest * Real(1.001) + Real(1e-5) * (2 * index_.max_radius + close.slack) <= close.slack;
  // In grid order: consecutive queries read neighboring cells, which stay in cache.
  const int* order = grid_.order();
  const int n = store_.size;
  const int blocks = (n + Pipeline::kBlockAgents - 1) / Pipeline::kBlockAgents;
  auto body = [&](int block, int) {
    const int first = block * Pipeline::kBlockAgents;
    const int count = std::min(n, first + Pipeline::kBlockAgents) - first;
    int to_query[Pipeline::kBlockAgents];
    int queried = 0;
    for (int k = first; k < first + count; ++k) {
      const int a = order[k];
      store_.penetration[a] =
          has_obstacles ? obstacles_.penetration(view.position(a), view.radius_of(a), view.senses(a)) : Real(0);
      if (only_close) {
        if (close_flags[a]) {
          to_query[queried++] = a;
        } else {
          store_.overlap[a] = 0;
        }
      }
    }
    if (!only_close) return measure_overlap(view, order + first, count, store_.overlap.data());
    measure_overlap(view, to_query, queried, store_.overlap.data());
  };
  pool_->run(blocks, body);
  measure_moving_penetration();
  close.complete = false;  // the flags were of this step's pass
  measured_.overlap_of_close_only = only_close;
  measured_.overlap_measured = n;
}

int World::overlap_queries() const {
  if (!measured_.overlap_of_close_only) return measured_.overlap_measured;
  return static_cast<int>(std::count(evaluated_.close_flags.begin(), evaluated_.close_flags.end(), 1));
}

}  // namespace contextsteer
