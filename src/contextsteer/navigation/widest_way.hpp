// The widest way: how far from every obstacle a way can keep, all along, from each of
// some starts to some goal areas. The crowd steering measures by it the narrowest
// passage on a group's way (how much room there is to step aside).
//
// On the points of a lattice `cell` metres apart from area.min (to area.max and at most a
// cell past it), a point's gap is its distance to the nearest obstacle, capped at `cap`;
// a point within half a cell's diagonal of an obstacle is shut (gap 0), so that no wall
// slips between two open points. A way is a chain of points, each beside the last along
// an axis, from a point in a goal area; it keeps the least gap of its points. A start is
// reached by the ways to the points within its clear disc (the disc round it that no
// obstacle enters), up to 2 (cap + cell) from it.
// The widest way is the largest w such that every start is reached by a way keeping w:
// the least, over the starts, of the most any way reaching it keeps. It is found in one
// pass, widest cells first (a maximin flood), in time O(cells log cells).
#pragma once

#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/scene/obstacles.hpp"

namespace contextsteer {

// Metres, from 0 to `cap`: the widest way from every start to the goal areas round the
// obstacles (all layers); `cap` with no start, 0 where a start is reached by no way (or
// lies in an obstacle). Throws std::invalid_argument, naming the argument, for an area
// that is empty or not finite, a cell or cap that is not > 0 and finite, a cell that
// makes more than kMaxWayCells points, no goal area, or a goal area that is not finite.
Real widest_way(const Obstacles& obstacles, const Bounds& area, Real cell, const std::vector<Bounds>& goal_areas,
                const std::vector<Vec2>& starts, Real cap);

constexpr long long kMaxWayCells = 1LL << 25;

}  // namespace contextsteer
