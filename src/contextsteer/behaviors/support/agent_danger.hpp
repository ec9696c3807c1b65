// Danger from neighboring agents, for a block of agents: Avoid's hot loop in crowds.
//
// Agent b, sensed by agent a (b's layers meet a's sense mask) and within max_distance of
// clearance, is a disc of radius r_a + r_b at its offset from a: the same arc coverage as
// add_disc_danger (arc_coverage.hpp) with danger falloff(clearance / max_distance).
// With 2 slots or more the work runs W lanes at a time (8 with AVX2, else 4; see
// kernels/wide/agent_danger.inl), on blocks of agents: the neighbors of every agent of a block are gathered
// from the grid's runs (kernels/wide/neighbor_lanes.inl), the ones within reach packed together, then
// all their bearings, half-angles and weights computed W at a time, then each agent's
// swept over the slots two vectors at a time (the last few slots one vector or one slot
// at a time). One slot, and compilers without vector extensions, take a scalar path with
// the same formulas; every path gives the same numbers.
//
// With a turn (Avoid's keep_right), each neighbor's bearing u is turned by an angle
// before its coverage is found: u' = (c u.x - s u.y, s u.x + c u.y), with c and s the
// angle's cosine and sine. Turned counter-clockwise, a neighbor straight ahead leaves the
// slots on the agent's right free first, so two agents that meet head-on both step to
// their right. A neighbor's bearing of the agent is still exactly -u', so pairs hold.
#pragma once

#include <cstddef>

#include "contextsteer/behaviors/support/falloff.hpp"
#include "contextsteer/maps/slots.hpp"
#include "contextsteer/runtime/thread_pool.hpp"
#include "contextsteer/scene/scene.hpp"

namespace contextsteer {

// How a sensed agent becomes danger: within max_distance metres of clearance, at
// falloff(clearance / max_distance), on the slots its disc covers once its bearing is
// turned by `turn` (the cosine and sine of the angle; (1, 0) leaves it as it is).
struct NeighborDanger {
  Real max_distance;
  Falloff falloff;
  Vec2 turn{1, 0};
};

// Row k of `danger` ((count, slots) metres-free danger levels, each >= 0) becomes the
// max of itself and the danger of every agent near agents[k]. Needs scene.grid built over
// scene.positions with radii and layers. The vector kernels gather the neighbors in the
// calling worker's buffers (scene.scratch()), or in buffers of their own when the view has
// none.
void add_agent_danger(const SceneView& scene, const int* agents, int count, NeighborDanger how,
                      const SlotDirections& dirs, Real* danger);

// The same danger for every agent of scene.grid at once, by pairs: each pair of agents
// within reach is met once and gives danger both ways, which halves the search and the
// arcs (not the sweep). Row p of `rows` ((grid.agent_count(), slots), in the grid's
// order: the agent is grid.order()[p]) receives the danger of that agent from its
// neighbors, the numbers add_agent_danger gives to the bit; rows of agents that no
// behaviour asked for are computed too. Reads layers and sense masks from the grid (build
// it with both). Runs on `pool`'s threads. Needs agent_pair_danger_available(slots);
// throws std::logic_error otherwise. With scene.close_agents, it also flags the agents of
// pairs within r_a + r_b + slack of each other and marks the flags complete, when the
// slack is at most half of how.max_distance and the grid has no large agents (else it
// leaves them alone). Each worker of the pool gathers in its own buffers (scene.workers,
// one per worker of `pool`), or in buffers made here when the view has none.
bool agent_pair_danger_available(int slots);
void agent_pair_danger(const SceneView& scene, NeighborDanger how, const SlotDirections& dirs, Real* rows,
                       ThreadPool& pool);

}  // namespace contextsteer
