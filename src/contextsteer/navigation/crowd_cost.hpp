// What a crowd adds to the cost of a metre in each cell of a navigation field, for a
// group that follows it (FollowField's crowd-updated fields), in the spirit of the speed
// field of Continuum Crowds (Treuille, Cooper and Popovic 2006): crowded ground is slow,
// and ground where others walk the other way slower still.
//
// Each agent is spread over the cells whose centres lie within `radius` of it, with the
// weights (1 - d^2 / radius^2)^2 scaled to sum to 1 / cell^2: its share of each cell, per
// m^2 (all of it on its own cell when no centre is that close). Per cell then
//
//   density     rho  = sum_a w_a                            agents per m^2
//   counterflow phi  = sum_a w_a max(0, -dot(v_a, u))       agents per m^2 times m/s
//
// u the base field's direction at the cell (the group's way through it, (0, 0) at goals)
// and v_a the agent's velocity; and a metre through the cell costs
//
//   1 (+ the field's own margin and lane costs) + density * rho + counterflow * phi,
//
// the crowd's part capped at kMaxCrowdCost. The group's own agents within `home` metres
// of its goal (by the base field's distance) count for nothing: agents that have arrived
// must not make the goal look blocked to those still coming.
#pragma once

#include <cstdint>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/navigation/navigation_field.hpp"
#include "contextsteer/scene/scene.hpp"

namespace contextsteer {

struct CrowdCost {
  Real density = 0;      // m^2: metres added to a metre per agent per m^2
  Real counterflow = 0;  // m s: metres added to a metre per agent per m^2 walking 1 m/s against the way
  Real radius = 1;       // metres an agent is spread over (> 0)
};

// The most a crowd adds to the cost of a metre: more than any way round, short of a wall.
constexpr Real kMaxCrowdCost = 1e6;

// Writes into extra (one value per cell of `base`) what the scene's agents add to a metre
// for the agents of `group` following `base` (-1: every agent is the group's),
// skipping the group's within `home` metres of its goal and every agent more than
// cost.radius off the grid. `stencil` is scratch, grown to
// the cells one agent is spread over; allocates nothing once it has.
void crowd_cost(const NavigationField& base, const SceneView& scene, std::int32_t group, Real home,
                const CrowdCost& cost, Real* extra, std::vector<Real>& stencil);

}  // namespace contextsteer
