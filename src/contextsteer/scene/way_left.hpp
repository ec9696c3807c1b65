// Each agent's metres left along its way, as the navigation field it follows measures
// them (FollowField's fields as built, without a crowd's costs): a scene-wide result of
// one evaluation that FollowField writes in prepare() for its agents, and that other
// behaviours read in fill() (Anticipate's right_of_way). NaN for an agent no FollowField
// wrote; infinite where its field has no way (inside a blocked margin).
#pragma once

#include "contextsteer/base/real.hpp"
#include "contextsteer/scene/evaluation_cache.hpp"

namespace contextsteer {

// The table to write, one value per agent of the scene (`agents` of them), from prepare()
// on one thread: NaN for every agent at its first request in an evaluation.
Real* way_left_to_write(EvaluationCache& cache, int agents);

// The table of this evaluation, or null when no FollowField wrote one (or no cache).
const Real* way_left(const EvaluationCache* cache);

}  // namespace contextsteer
