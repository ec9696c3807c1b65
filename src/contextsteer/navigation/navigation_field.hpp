// A navigation field: for every cell of a grid over the scene, the length of the
// shortest way round the obstacles to the nearest of some goals (points, or areas such
// as the field beyond an exit), and the direction
// that shortens it most. It is what reactive steering lacks to leave a room by its
// door or get round a wall square to the goal: a plan for every place at once, built
// once for a static scene and read by any number of agents (FollowField).
//
// The distances solve the eikonal equation |grad T| = 1 by fast marching (second order
// on the axis stencil, first on the diagonal one), so they follow straight lines at any
// angle instead of the 8 directions a graph search would give: on open ground they are
// within 0.7% of the Euclidean distance beyond a metre from a goal, 0.35% beyond 8 m, and
// the cells' directions within 7 degrees of the straight way, 1.5 beyond 8 m.
//
// A cell is blocked when an obstacle it senses comes within half its diagonal of its
// centre (cell * sqrt(2)/2): no wall, however thin, slips between two free cells. The
// clearance is a margin, not a wall: within it, a metre costs more the closer it runs to
// the obstacle (1 + kMarginCost * closeness^2, closeness 0 at the margin's edge and 1
// where cells are blocked), so that the field keeps off walls where there is room and
// still leads through a door narrower than twice the clearance, down its middle. The
// distances are those costs summed along the way, so they grow a little near walls.
// Free cells that no goal can reach keep an infinite distance and no direction. A
// blocked cell's direction leads out, to the nearest reached free cell (marched through
// blocked cells only, so an agent pushed against a wall is led out on its own side).
//
// Keeping right: with keep_right > 0 (metres), the field is built twice. The second time
// a metre costs more, as 1 + kLaneCost * closeness^2, where an obstacle lies within
// keep_right on the left of the first field's way (closeness 1 at the obstacle, 0
// keep_right away from it). The ways then run on the right of doors, corridors and
// obstacles where there is room: two crowds passing a door the opposite ways use its
// two halves, as lanes, and a crowd waiting on one side leaves the other side clear.
//
// The costs of a metre per cell (margin and lane) are kept (costs()), so that the field
// can be marched again with more costs added, a crowd's (remarch, FollowField's crowd
// parameters), without computing them anew.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/navigation/obstacle_gaps.hpp"
#include "contextsteer/navigation/trial_heap.hpp"
#include "contextsteer/scene/obstacles.hpp"

namespace contextsteer {

class NavigationField {
 public:
  // Cells are squares of side `cell` metres tiling `area` from its min corner; the last
  // column and row may reach past area.max. `mask` says which obstacle layers block (the
  // bounds always do). Throws std::invalid_argument (naming the argument) for an empty
  // or non-finite area, a cell that is not > 0 or gives more than kMaxCells cells, a
  // clearance < 0, no goals, a goal point outside the area or in a blocked cell, or a
  // goal area that is empty, not finite or holds no free cell centre. Every free cell
  // whose centre lies in a goal area is a goal (distance 0).
  // keep_right: metres (>= 0, 0 for none) from an obstacle on the way's left within which
  // the way costs more (see above); throws std::invalid_argument for a negative or
  // non-finite one.
  NavigationField(const Obstacles& obstacles, LayerMask mask, const Bounds& area, Real cell, Real clearance,
                  const std::vector<Vec2>& goals, const std::vector<Bounds>& goal_areas = {}, Real keep_right = 0);

  // A field built before, from what its accessors give (to save one and load it again,
  // without building it anew): `columns` x `rows` cells of side `cell` from `origin`, the
  // clearance and goals it was built with, and per cell its distance (columns * rows),
  // direction (2 * columns * rows) and blocked flag. Throws std::invalid_argument, naming
  // the argument, for what no build gives: sizes that disagree with columns x rows, more
  // than kMaxCells cells, a grid or goal beyond the ±1e9 bound, a cell not > 0, a negative
  // clearance, a distance that is NaN or negative, a direction component that is not
  // within [-1, 1], a blocked flag other than 0 or 1, a cost not from 1 to kMaxCost.
  // `costs` (per cell) may be empty: every metre then costs 1 (to remarch a field saved
  // without them).
  static NavigationField from_cells(Vec2 origin, Real cell, Real clearance, int columns, int rows,
                                    std::vector<Vec2> goals, std::vector<Bounds> goal_areas,
                                    std::vector<Real> distances, std::vector<Real> directions,
                                    std::vector<std::uint8_t> blocked, std::vector<Real> costs = {});

  static constexpr std::int64_t kMaxCells = 1 << 24;
  static constexpr std::int64_t kMaxPathPoints = 1 << 20;
  // How much dearer a metre is next to an obstacle than in the open, less 1: the cost
  // of crossing a cell rises as 1 + kMarginCost * closeness^2 within the clearance.
  static constexpr Real kMarginCost = 4;
  // How much dearer a metre is against an obstacle on the way's left, less 1, when
  // keeping right.
  static constexpr Real kLaneCost = 20;
  // The most a metre of a cell costs in a built field (costs()).
  static constexpr Real kMaxCost = 1 + kMarginCost + kLaneCost;

  // What marching needs besides the field, kept by the caller so that marching again
  // allocates nothing once they have grown. Per cell of the grid padded by two cells on
  // each side (field_march.cpp): its tentative value, its value once accepted (kInfinity
  // before, and in the padding), whether no update may change it, the cost of a metre
  // through it.
  struct MarchBuffers {
    std::vector<Real> value, accepted;
    std::vector<std::uint8_t> closed;
    std::vector<Real> step_cost;
    TrialHeap heap;                           // the trial cells, by padded index
    std::vector<Real> cost;                   // per cell, the cost of a metre marched with (remarch)
    std::vector<std::size_t> seeded;          // the seeded cells, by padded index, each once
    std::vector<std::int32_t> closed_before;  // with many goals: counts of cells not open (open_squares)
    std::size_t popped = 0;                   // trial cells taken from the heap since the march began
  };

  int columns() const { return columns_; }
  int rows() const { return rows_; }
  Real cell() const { return cell_; }
  Real clearance() const { return clearance_; }
  Vec2 origin() const { return origin_; }  // the min corner of cell (0, 0), metres
  const std::vector<Vec2>& goals() const { return goals_; }
  const std::vector<Bounds>& goal_areas() const { return goal_areas_; }

  // Per cell, row-major (rows, columns), row 0 at the min y: metres to the nearest goal
  // (kInfinity where none is reachable); unit directions (rows, columns, 2), (0, 0) at a
  // goal point's cell, in goal areas and where the distance is infinite; whether the
  // cell is blocked.
  const std::vector<Real>& distances() const { return distances_; }
  const std::vector<Real>& directions() const { return directions_; }
  const std::vector<std::uint8_t>& blocked() const { return blocked_; }
  // Per cell, the cost of a metre the field was marched with: 1 in the open, more in a
  // clearance margin and along a lane's left (keep_right), at most kMaxCost.
  const std::vector<Real>& costs() const { return costs_; }

  // Marches the free cells again, a metre of cell i costing costs()[i] + extra[i]
  // (extra: one finite value >= 0 per cell), and points their directions down the new
  // distances; blocked cells keep their way out. Allocates nothing once `buffers` have
  // grown to the field's cells.
  void remarch(const Real* extra, MarchBuffers& buffers);
  // The same in pieces, so that a march can be spread over many calls while the field
  // stays as it was: begin_remarch reads `extra` and seeds the goals into `buffers`;
  // advance_remarch accepts up to `budget` cells, and is true once every reachable cell
  // is (buffers.popped counts the cells taken so far); finish_remarch then writes the
  // new distances and directions into the field. The result is that of remarch()
  // whatever the budgets.
  void begin_remarch(const Real* extra, MarchBuffers& buffers) const;
  bool advance_remarch(MarchBuffers& buffers, std::size_t budget) const;
  void finish_remarch(const MarchBuffers& buffers);

  // At any point (outside the grid: at the nearest cell): the directions of the four
  // nearest cell centres blended bilinearly and made unit length, leaving out those at
  // 90 degrees or more from the nearest centre's (on a ridge between two ways round an
  // obstacle, the nearest centre's side is taken), and the blocked centres where a free
  // one with a direction is among the four; (0, 0) where none has one. The
  // distance blended the same way over the centres that have a finite one, kInfinity
  // where none has.
  Vec2 direction_at(Vec2 p) const;
  Real distance_at(Vec2 p) const;

  // The way the field leads from `start`: start, then points `step` metres apart along
  // direction_at, up to the first within `step` of a goal (by distance_at) or the last
  // whose next step would not come closer, or where there is no direction, or after
  // max_length metres or kMaxPathPoints points (bounds: near a
  // saddle of the field the steps could otherwise go back and forth). No points but start
  // where no goal can be reached. Throws std::invalid_argument (naming it) for a step that is not > 0 and
  // finite, or a negative max_length.
  std::vector<Vec2> path_from(Vec2 start, Real step, Real max_length) const;

 private:
  NavigationField() = default;  // for from_cells
  std::size_t index(int column, int row) const { return static_cast<std::size_t>(row) * columns_ + column; }
  // The column and row of the cell holding p, a point of the area.
  int column_of(Vec2 p) const { return std::min(columns_ - 1, static_cast<int>((p.x - origin_.x) / cell_)); }
  int row_of(Vec2 p) const { return std::min(rows_ - 1, static_cast<int>((p.y - origin_.y) / cell_)); }
  Vec2 centre(int column, int row) const {
    return {origin_.x + (column + Real(0.5)) * cell_, origin_.y + (row + Real(0.5)) * cell_};
  }
  Real half_diagonal() const { return cell_ * Real(0.70710678); }
  // Cells whose centres lie within this many cells of a goal point, in open sight of it,
  // start at their exact distance: second-order marching needs a few exact values to start from
  // (with only the nearest ring, every distance beyond comes out ~0.2 m short).
  static constexpr int kSeedCells = 5;
  // With more goal points than this, the squares of kSeedCells round each are tested
  // for being open at once (open_squares) before any straight way in them is sampled.
  static constexpr std::size_t kFewGoals = 8;
  // Whether the straight way from p (in the area) to the centre of cell (column, row)
  // crosses open cells only: free, and outside every clearance margin (cost 1), where
  // the straight distance is the field's distance.
  bool in_open_sight(Vec2 p, int column, int row, const std::vector<Real>& cost) const;
  // Per cell, metres from its centre to the nearest obstacle sensed through `mask` (0
  // inside one or outside the bounds); kInfinity where none is within clearance + half
  // a diagonal (the farther ones are not looked for).
  std::vector<Real> obstacle_gaps(const Obstacles& obstacles, LayerMask mask) const;
  // Per cell, metres from its centre to the nearest obstacle point within `reach` that
  // lies on the left of the cell's direction (kInfinity where none does, or where the
  // cell has no direction).
  std::vector<Real> left_gaps(const Obstacles& obstacles, LayerMask mask, Real reach) const;
  // Seeds the goals' cells (throwing for a goal in a blocked cell or an area without a
  // free cell), then marches out from them over the free cells, a metre of cell i
  // costing cost[i]; with ways_out, marches the blocked cells' ways out too (way_out_).
  void march(const std::vector<Real>& cost, MarchBuffers& buffers, bool ways_out);
  // The march's pieces (field_march.cpp): the buffers laid out and the goals seeded; up
  // to `budget` cells accepted, true once none is left to accept.
  void march_begin(const std::vector<Real>& cost, MarchBuffers& buffers) const;
  bool march_advance(MarchBuffers& buffers, std::size_t budget) const;
  class Marcher;                                  // the stencils and the accepting loop over a march's buffers
  std::size_t padded_index(std::size_t i) const;  // cell i in the march's grid, padded by two cells a side
  // Per corner of the cells (columns + 1) x (rows + 1), how many cells below and left of it
  // are not open (blocked, or a metre costing more than 1): a summed-area table.
  void open_squares(const std::vector<Real>& cost, std::vector<std::int32_t>& closed_before) const;
  // The cells' directions down the distances (free cells) and the ways out (blocked
  // ones).
  void point_downhill();
  // The free cells' directions down the distances a march just left in `buffers`; the
  // blocked cells' are kept.
  void point_free_cells_downhill(const MarchBuffers& buffers);
  // The four cell centres around p and their bilinear weights, clamped to the grid.
  template <class Visit>
  void for_each_corner(Vec2 p, Visit&& visit) const;

  Vec2 origin_;
  Real cell_ = 0;
  Real clearance_ = 0;
  int columns_ = 0;
  int rows_ = 0;
  std::vector<Vec2> goals_;
  std::vector<Bounds> goal_areas_;
  std::vector<Real> distances_;
  std::vector<Real> directions_;
  std::vector<std::uint8_t> blocked_;
  std::vector<Real> costs_;
  // Per blocked cell, metres out of the blocked margin to the nearest reached free cell
  // (0 at those, kInfinity elsewhere): what blocked cells' directions descend. Needed
  // while building only, and released then.
  std::vector<Real> way_out_;
};

}  // namespace contextsteer
