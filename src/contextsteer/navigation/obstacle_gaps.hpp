// How far the centres of a grid's cells lie from the obstacles, up to a reach: what
// navigation fields block and price their cells by (field_gaps.cpp), and what the widest
// way measures passages by (widest_way.hpp).
#pragma once

#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/scene/obstacles.hpp"

namespace contextsteer {

// Square cells of side `cell` metres, columns x rows of them from `origin` (the min
// corner of cell (0, 0)), row-major from the min y.
struct CellGrid {
  Vec2 origin;
  Real cell = 0;
  int columns = 0;
  int rows = 0;
  Vec2 centre(int column, int row) const {
    return {origin.x + (column + Real(0.5)) * cell, origin.y + (row + Real(0.5)) * cell};
  }
};

// Per cell, metres from its centre to the nearest obstacle sensed through `mask` (circles,
// walls, polygon edges and insides; 0 inside one), where one lies within `reach` of the
// centre's box; kInfinity where none does (farther ones are not looked for). The bounds'
// sides count as walls; what lies outside them does not.
std::vector<Real> obstacle_gaps_on(const CellGrid& grid, const Obstacles& obstacles, LayerMask mask, Real reach);

}  // namespace contextsteer
