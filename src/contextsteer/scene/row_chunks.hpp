// Work over pairs of agents split across threads without two threads touching one agent.
//
// A pass over pairs (agent_pair_danger) meets each pair within reach once, from the
// agent earlier in the grid order (SpatialGrid::for_each_run_after), and writes to both
// agents. The grid's places are split into chunks of whole rows of cells, each at least
// as tall as the reach, so that an agent's pairs lie in its own chunk or the next (and
// within its own region of the grid: a reach past the regions' separation runs as one chunk). Even
// chunks run first, in parallel (chunks 0, 2, 4 touch 0-1, 2-3, 4-5), then odd ones.
// The result is the same for any number of threads when the writes are maxima, which do
// not depend on their order.
#pragma once

#include <algorithm>

#include "contextsteer/runtime/thread_pool.hpp"
#include "contextsteer/scene/spatial_grid.hpp"

namespace contextsteer {

struct RowChunks {
  static constexpr int kMaxChunks = 64;
  const SpatialGrid& grid;
  int count;  // 1 on one thread
  // The first place of chunk c (0 <= c <= count; count gives the number of agents).
  int start(int c) const { return grid.row_start(static_cast<int>(static_cast<long long>(c) * grid.rows() / count)); }
};

// Calls fn(chunks, c, worker) for every chunk c, worker the pool's worker that runs it:
// the even ones on the pool's threads, then the odd ones. `reach` (metres) bounds the distance of any pair the work
// meets.
template <class F>
void run_row_chunks(const SpatialGrid& grid, Real reach, ThreadPool& pool, F&& fn) {
  if (grid.agent_count() == 0) return;
  const int rows_per_reach = grid.rows_within(reach);
  // A few chunks per thread and phase, so that dense and sparse rows even out.
  const int most = std::min({grid.rows() / rows_per_reach, 8 * pool.size(), RowChunks::kMaxChunks});
  const int count = pool.size() == 1 || reach > grid.separation() ? 1 : std::max(1, most);
  const RowChunks chunks{grid, count};
  auto even = [&](int task, int worker) { fn(chunks, 2 * task, worker); };
  auto odd = [&](int task, int worker) { fn(chunks, 2 * task + 1, worker); };
  pool.run((count + 1) / 2, even);
  if (count > 1) pool.run(count / 2, odd);
}

}  // namespace contextsteer
