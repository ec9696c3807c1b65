// The agents that may overlap another once a step has moved them, noted on the way by
// Avoid's pass by pairs (agent_pair_danger), which meets every pair of agents within its
// reach before the step. A world owns one as a product of its evaluate stage
// (EvaluateProduct in world/stage_products.hpp, which says who writes and reads it and
// when it is valid). The world's measure stage then queries only those for overlap
// (overlap.hpp); every other agent's overlap is 0. The numbers are the same as querying
// every agent, as long as no agent moved farther than half the slack, which the world
// checks after moving them (otherwise it queries every agent).
//
// Why it holds: if agents a and b overlap after the step, |p_b - p_a| < r_a + r_b then,
// and each moved at most t, so before the step |p_b - p_a| < r_a + r_b + 2t: within
// r_a + r_b + slack when 2t <= slack, where the pass notes both.
#pragma once

#include <cstdint>

#include "contextsteer/base/real.hpp"

namespace contextsteer {

struct CloseAgents {
  // Metres: the pass notes the pairs with |p_b - p_a| <= r_a + r_b + slack before the step.
  Real slack = 0;
  std::uint8_t* flags = nullptr;  // (agents,) 0 before the pass; set to 1 for each agent noted
  // Set by a pass that met every pair within that distance, of every agent of the grid.
  // Without it the flags are incomplete and tell nothing.
  bool complete = false;
};

}  // namespace contextsteer
