// The checks a world makes of what it is given and of the state it holds: a time step,
// per-agent values within their ranges, target ids that name agents. Every failure is a
// std::invalid_argument (std::out_of_range for an id) naming the argument and the agent.
#pragma once

#include <cstddef>

#include "contextsteer/base/real.hpp"

namespace contextsteer {

// Throws std::invalid_argument naming dt unless it is a time step a world can take.
void check_time_step(Real dt);

// Throws std::invalid_argument naming dt or substeps unless the step can be taken in
// `substeps` equal parts, none shorter than kMinTimeStep.
void check_step_arguments(Real dt, int substeps);

// values: `count` entries, `width` per agent, of agents first_agent, first_agent + 1, ...
// Each must lie within [lowest, kMaxMagnitude], or be +inf if allowed; `expected` says
// so in the message ("from 0 to 1e9 or inf"). Only a failure pays for the search that
// names the agent.
void check_values(const Real* values, std::size_t count, int width, const char* argument, Real lowest, bool allow_inf,
                  const char* expected, std::size_t first_agent = 0);
// The same within [lowest, highest] (or +inf if allowed).
void check_values(const Real* values, std::size_t count, int width, const char* argument, Real lowest, Real highest,
                  bool allow_inf, const char* expected, std::size_t first_agent);

}  // namespace contextsteer
