// How deep agents overlap each other, measured for every agent after each step.
#pragma once

#include "contextsteer/scene/scene.hpp"

namespace contextsteer {

// overlap[a] for each a in agents[0..count): max(0, r_a + r_b - |p_b - p_a|) over the
// other agents b it senses (b's layers meet a's sense mask), in metres. Needs scene.grid
// built over scene.positions with radii, layers and sense masks (the vector paths read
// them from it). Runs W lanes at a time (kernels/wide/measure_overlap.inl), with the same numbers as a scalar
// sweep.
void measure_overlap(const SceneView& scene, const int* agents, int count, Real* overlap);

}  // namespace contextsteer
