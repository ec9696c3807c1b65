// Per-thread buffers for the neighbors of a block of agents, which the vector kernels over
// neighbors (kernels/wide/agent_danger.inl) gather into and read back.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "contextsteer/base/real.hpp"

namespace contextsteer {

// The kernels take agents in blocks: first they gather every agent's neighbors into
// the buffers (step 1), then compute the bearings, limits and weights of all of them
// (step 2), then sweep each agent's (step 3). Step 2's square roots and division then run
// as one stream of independent vectors, where agent by agent a few neighbors made a
// short chain whose latency each agent waited on. And the packed stores of the gathering,
// which land at unaligned, overlapping places, have reached the cache when step 2 reads
// them (a vector load spanning several queued stores cannot take its data from the store
// queue).
constexpr int kBlockAgents = 16;

// Per-thread buffers for the neighbors of a block of agents: room for 256 per agent to
// begin with, grown to the largest block seen (with 8 lanes of slack, as whole vectors
// are stored past the last neighbor).
struct NeighborBuffers {
  static constexpr std::size_t kInitialEntries = 256 * kBlockAgents;
  std::vector<Real> storage;     // eight arrays of `capacity` entries each
  std::vector<int> int_storage;  // two more
  std::size_t capacity = 0;
  Real *dx, *dy, *disc;            // offsets (m) and disc radius r_a + r_b (m)
  Real *ux, *uy, *limit, *weight;  // bearing, least cosine to a covered slot, danger
  // For pairs (agent_pair_danger) only: the danger the neighbor takes from the agent,
  // the neighbor's place in the grid order, and which way the pair senses: bit 0 when
  // the agent senses the neighbor, bit 1 when the neighbor senses the agent.
  Real* weight_back;
  int *place, *senses;
  // Room for n entries in each array, keeping the first `kept` of each. Out of line: it
  // grows only on the first crowded neighborhoods, and inlined it would make the
  // kernel reload its pointers after every check.
  __attribute__((noinline)) void grow(std::size_t n, std::size_t kept) {
    const std::size_t grown = std::max<std::size_t>(2 * n + 8, kInitialEntries);
    std::vector<Real> next_storage(8 * grown);
    std::vector<int> next_ints(2 * grown);
    Real* next = next_storage.data();
    for (Real** array : {&dx, &dy, &disc, &ux, &uy, &limit, &weight, &weight_back}) {
      if (kept) std::copy(*array, *array + kept, next);
      *array = next;
      next += grown;
    }
    int* next_int = next_ints.data();
    for (int** array : {&place, &senses}) {
      if (kept) std::copy(*array, *array + kept, next_int);
      *array = next_int;
      next_int += grown;
    }
    storage.swap(next_storage);
    int_storage.swap(next_ints);
    capacity = grown;
  }
  void ensure(std::size_t n, std::size_t kept) {
    if (n + 8 > capacity) grow(n, kept);
  }
};

// Out of line, so that a kernel looks up the thread-local storage once per call.

// This thread's buffers, set up at their first size. Out of line, so that a kernel looks
// up the thread-local storage once per call.
NeighborBuffers& neighbor_buffers();

// Sets up this thread's buffers for the neighbors of a block of agents, at the size that
// serves all but crowds denser than ~250 agents within reach of each (they grow then). A
// world's worker threads call it as they start: which blocks of agents a worker takes
// varies from step to step, and a step must not allocate because a worker met Avoid for
// the first time.
void reserve_neighbor_buffers();

// How many neighbors this thread's buffers hold without growing, once set up (0 in a
// build without vector kernels, which needs none). Lets a test that means to grow them
// check that it did.
std::size_t neighbor_buffer_capacity();

}  // namespace contextsteer
