// How deep agents overlap each other, measured for every agent after each step.
#pragma once

#include "scene.hpp"
#include "thread_pool.hpp"

namespace contextsteer {

// overlap[a] for each a in agents[0..count): max(0, r_a + r_b - |p_b - p_a|) over the
// other agents b it senses (b's layers meet a's sense mask), in metres. Needs scene.grid
// built over scene.positions with radii and layers. Runs W lanes at a time (simd.hpp),
// with the same numbers as a scalar sweep.
void measure_overlap(const SceneView& scene, const int* agents, int count, Real* overlap);

// The same for every agent of scene.grid, by pairs: each pair within reach is met once
// (row_chunks.hpp) and its depth goes to both agents; overlap is (agents,) by agent
// index. The numbers of measure_overlap, on `pool`'s threads. Needs
// overlap_pairs_available(); throws std::logic_error otherwise.
bool overlap_pairs_available();
void measure_overlap_pairs(const SceneView& scene, ThreadPool& pool, Real* overlap);

}  // namespace contextsteer
