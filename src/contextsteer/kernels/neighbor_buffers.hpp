// A worker's buffers for the neighbors of a block of agents, which the vector kernels over
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

// Buffers for the neighbors of a block of agents, one set per worker of a world
// (scene/worker_scratch.hpp), sized by the world when its pool starts or it changes; a
// block denser than they hold grows them (with 8 lanes of slack, as whole vectors are
// stored past the last neighbor), and the world then brings every worker's to that size.
struct NeighborBuffers {
  // Room for this many neighbors an agent of a block, from the first size on: all of them
  // in a world of fewer agents.
  static constexpr std::size_t kNeighborsPerAgent = 256;
  std::vector<Real> storage;     // eight arrays of `capacity` entries each
  std::vector<int> int_storage;  // two more
  std::size_t capacity = 0;
  Real *dx = nullptr, *dy = nullptr, *disc = nullptr;  // offsets (m) and disc radius r_a + r_b (m)
  // Bearing, least cosine to a covered slot, danger.
  Real *ux = nullptr, *uy = nullptr, *limit = nullptr, *weight = nullptr;
  // For pairs (agent_pair_danger) only: the danger the neighbor takes from the agent,
  // the neighbor's place in the grid order, and which way the pair senses: bit 0 when
  // the agent senses the neighbor, bit 1 when the neighbor senses the agent.
  Real* weight_back = nullptr;
  int *place = nullptr, *senses = nullptr;
  // Room for `entries` in each array, keeping the first `kept` of each. Out of line: it
  // grows only on the first crowded neighborhoods, and inlined it would make the
  // kernel reload its pointers after every check.
  __attribute__((noinline)) void grow_to(std::size_t entries, std::size_t kept) {
    std::vector<Real> next_storage(8 * entries);
    std::vector<int> next_ints(2 * entries);
    Real* next = next_storage.data();
    for (Real** array : {&dx, &dy, &disc, &ux, &uy, &limit, &weight, &weight_back}) {
      if (kept) std::copy(*array, *array + kept, next);
      *array = next;
      next += entries;
    }
    int* next_int = next_ints.data();
    for (int** array : {&place, &senses}) {
      if (kept) std::copy(*array, *array + kept, next_int);
      *array = next_int;
      next_int += entries;
    }
    storage.swap(next_storage);
    int_storage.swap(next_ints);
    capacity = entries;
  }
  // Room for n entries and the slack, keeping the first `kept`: doubled when it grows.
  void ensure(std::size_t n, std::size_t kept) {
    if (n + 8 > capacity) grow_to(std::max<std::size_t>(2 * n + 8, kNeighborsPerAgent * kBlockAgents), kept);
  }
  // How many entries it holds besides the slack.
  std::size_t room() const { return capacity > 8 ? capacity - 8 : 0; }
  // Room for n entries and the slack, exactly, unless it holds more already.
  void reserve(std::size_t n) {
    if (n + 8 > capacity) grow_to(n + 8, 0);
  }
};

}  // namespace contextsteer
