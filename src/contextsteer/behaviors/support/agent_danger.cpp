#include "contextsteer/behaviors/support/agent_danger.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "contextsteer/behaviors/support/arc_coverage.hpp"
#include "contextsteer/kernels/dispatch.hpp"
#include "contextsteer/runtime/thread_pool.hpp"
#include "contextsteer/scene/row_chunks.hpp"
#include "contextsteer/scene/worker_scratch.hpp"

namespace contextsteer {

namespace {

// The danger on an agent's row of a neighbor whose centre lies `to` from it (metres), of
// disc radius r_a + r_b `disc`: none beyond how.max_distance of clearance. The scalar
// path's arithmetic, which the vector kernels match.
void add_neighbor_danger(Vec2 to, Real disc, NeighborDanger how, const SlotDirections& dirs, Real* row) {
  const Real clearance = std::max(Real(0), length(to) - disc);
  if (clearance > how.max_distance) return;
  add_disc_danger(dirs, to, disc, falloff_value(how.falloff, clearance, how.max_distance), row, how.turn);
}

// One agent's neighbors: the scalar path, and the reference the vector path matches.
void add_agent_danger_scalar(const SceneView& scene, int a, NeighborDanger how, const SlotDirections& dirs, Real* row) {
  const SpatialGrid& grid = *scene.grid;
  const Vec2 p = scene.position(a);
  const Real agent_radius = scene.radius_of(a);
  const LayerMask senses = scene.senses(a);
  // Within reach of the usual neighbors; the large ones are met apart (a large one met
  // twice adds nothing: every write is a maximum).
  const Real reach = how.max_distance + agent_radius + grid.usual_radius();
  const Real reach2 = reach * reach;
  auto meet = [&](int k, Real within2) {
    const Vec2 to{grid.xs()[k] - p.x, grid.ys()[k] - p.y};
    if (!(length_squared(to) <= within2) || grid.agents()[k] == a || !(grid.layers()[k] & senses)) return;
    add_neighbor_danger(to, grid.radii()[k] + agent_radius, how, dirs, row);
  };
  grid.for_each_run(p, reach, [&](int begin, int end) {
    for (int k = begin; k < end; ++k) meet(k, reach2);
  });
  for (int j = 0; j < grid.large_count(); ++j) meet(grid.large_places()[j], kInfinity);
}

// The pairs with a large agent (SpatialGrid::usual_radius), after the pass by pairs,
// which meets them only within the usual reach: each large agent's neighbors within its
// whole reach, the danger both ways, as each one's own query computes it (so the scalar
// path of add_agent_danger; a pair met twice adds nothing, as every write is a maximum).
// On the calling thread: the large agents are few, and their rows may lie anywhere.
void add_large_agent_pairs(const SceneView& scene, NeighborDanger how, const SlotDirections& dirs, Real* rows) {
  const SpatialGrid& grid = *scene.grid;
  const std::size_t slots = static_cast<std::size_t>(dirs.slots());
  for (int j = 0; j < grid.large_count(); ++j) {
    const int large = grid.large_places()[j];
    const Vec2 p{grid.xs()[large], grid.ys()[large]};
    const Real radius = grid.radii()[large];
    const LayerMask layer = grid.layers()[large], senses = grid.senses()[large];
    grid.for_each_run(p, how.max_distance + radius + scene.max_radius, [&](int begin, int end) {
      for (int i = begin; i < end; ++i) {
        if (i == large) continue;
        const Vec2 to{grid.xs()[i] - p.x, grid.ys()[i] - p.y};
        const Real disc = grid.radii()[i] + radius;
        if (grid.layers()[i] & senses) add_neighbor_danger(to, disc, how, dirs, rows + large * slots);
        if (layer & grid.senses()[i]) add_neighbor_danger(Vec2{-to.x, -to.y}, disc, how, dirs, rows + i * slots);
      }
    });
  }
}

}  // namespace

bool agent_pair_danger_available(int slots) { return slots >= 2 && vector_kernels() != nullptr; }

void agent_pair_danger(const SceneView& scene, NeighborDanger how, const SlotDirections& dirs, Real* rows,
                       ThreadPool& pool) {
  const KernelTable* kernels = vector_kernels();
  if (!kernels || dirs.slots() < 2) {
    throw std::logic_error("agent_pair_danger: needs vector kernels and 2 slots or more");
  }
  const SpatialGrid& grid = *scene.grid;
  // Each chunk zeroes rows before it first writes them (row_chunks.hpp): an even one its
  // own and the next one's, as far as it reaches; an odd one the rest of its own (the
  // next, even, zeroed all of its rows already).
  std::array<int, RowChunks::kMaxChunks> zeroed_to{};
  // The pass meets every pair within its reach, which takes in the close ones when the
  // slack is well within max_distance and no agent is large (their pairs are met apart).
  CloseAgents* const close = scene.close_agents && grid.large_count() == 0 && scene.close_agents->slack >= 0 &&
                                     scene.close_agents->slack <= how.max_distance / 2
                                 ? scene.close_agents
                                 : nullptr;
  // Each worker's neighbor buffers: the view's, else made here.
  std::vector<WorkerScratch> own;
  if (!scene.workers || scene.worker_count < pool.size()) own.resize(static_cast<std::size_t>(pool.size()));
  WorkerScratch* const workers = own.empty() ? scene.workers : own.data();
  const auto chunk = [&](const RowChunks& chunks, int c, int worker) {
    const bool even = c % 2 == 0;
    const int begin = chunks.start(c), end = chunks.start(c + 1);
    const int zero_from = even ? begin : std::max(begin, zeroed_to[c - 1]);
    const int zero_limit = even ? chunks.start(std::min(c + 2, chunks.count)) : end;
    kernels->pair_danger_chunk(grid, begin, end, zero_from, zero_limit, how, dirs, rows, &zeroed_to[c], close,
                               workers[worker].neighbors);
  };
  run_row_chunks(grid, how.max_distance + 2 * grid.usual_radius(), pool, chunk);
  add_large_agent_pairs(scene, how, dirs, rows);
  if (close) close->complete = true;
}

void add_agent_danger(const SceneView& scene, const int* agents, int count, NeighborDanger how,
                      const SlotDirections& dirs, Real* danger) {
  const int slots = dirs.slots();
  // One slot is a special case of add_disc_danger (its arc is the whole circle).
  const KernelTable* kernels = vector_kernels();
  if (kernels && slots >= 2) {
    if (WorkerScratch* scratch = scene.scratch()) {
      return kernels->add_agent_danger(scene, agents, count, how, dirs, danger, scratch->neighbors);
    }
    NeighborBuffers own;
    return kernels->add_agent_danger(scene, agents, count, how, dirs, danger, own);
  }
  for (int k = 0; k < count; ++k) {
    add_agent_danger_scalar(scene, agents[k], how, dirs, danger + static_cast<std::size_t>(k) * slots);
  }
}

}  // namespace contextsteer
