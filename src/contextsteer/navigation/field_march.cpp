// Fast marching of a navigation field (navigation_field.hpp): the distances from the
// goals over the free cells, the ways out of the blocked margins, and the directions
// down them; and the march again with a crowd's costs added (remarch).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/navigation/navigation_field.hpp"

namespace contextsteer {

namespace {

// The upwind difference along one axis of a stencil, as weight * (T - value)^2 / h^2:
// first order, (T - a)^2, from the nearer accepted neighbor a on the downhill side; or
// second order, ((3T - 4a + b) / 2)^2 = 9/4 (T - (4a - b) / 3)^2, when the one beyond it,
// b, is accepted too and no higher (the values then fall steadily toward the goal).
struct Upwind {
  Real value;   // kInfinity where neither side is accepted
  Real weight;  // 1 or 9/4
};

CONTEXTSTEER_ALWAYS_INLINE Upwind upwind(Real a, Real b) {
  if (std::isfinite(a) && std::isfinite(b) && b <= a) return {(4 * a - b) / 3, Real(2.25)};
  return {a, 1};
}

// The solution T of wx (T - vx)^2 + wy (T - vy)^2 = h^2 no lower than either value (both
// axes lead downhill), else the better one-axis solution v + h / sqrt(w). One of the
// values may be infinite, not both. Values are taken relative to the lower one, so that
// single precision keeps the small differences that matter.
CONTEXTSTEER_ALWAYS_INLINE Real eikonal_update(Upwind x, Upwind y, Real h) {
  // h / sqrt(weight), the weight 1 or 9/4 (upwind), whose roots are exact.
  auto alone = [h](Upwind u) { return u.value + (u.weight == 1 ? h : h / Real(1.5)); };
  if (!std::isfinite(y.value)) return alone(x);
  if (!std::isfinite(x.value)) return alone(y);
  const Real base = std::min(x.value, y.value);
  const Real dx = x.value - base, dy = y.value - base;
  const Real a = x.weight + y.weight, b = x.weight * dx + y.weight * dy;
  const Real c = x.weight * dx * dx + y.weight * dy * dy - h * h;
  const Real discriminant = b * b - a * c;
  if (discriminant >= 0) {
    const Real t = (b + std::sqrt(discriminant)) / a;
    if (t >= std::max(dx, dy)) return base + t;
  }
  return std::min(alone(x), alone(y));
}

}  // namespace

bool NavigationField::in_open_sight(Vec2 p, int column, int row, const std::vector<Real>& cost) const {
  const Vec2 to = centre(column, row) - p;
  // Samples a quarter of a cell apart: a blocked cell, at least a cell wide, cannot slip
  // between two of them.
  const int samples = 1 + static_cast<int>(std::ceil(4 * length(to) / cell_));
  for (int k = 0; k <= samples; ++k) {
    const Vec2 q = p + (static_cast<Real>(k) / samples) * to;
    const std::size_t i = index(column_of(q), row_of(q));
    if (blocked_[i] || cost[i] != 1) return false;
  }
  return true;
}

// The march's arithmetic over the padded grid of a field (see march_begin): the
// stencils' updates and the loop that accepts cells, resumable from any point since
// its state lives in the buffers.
class NavigationField::Marcher {
 public:
  Marcher(const NavigationField& field, MarchBuffers& buffers)
      : b_(buffers), wide_(static_cast<std::size_t>(field.columns_) + 4), cell_(field.cell_) {}

  // Along an axis (a step of d padded cells): the upwind difference from the lower of
  // the two sides, second order where that side's next cell allows it.
  Upwind along_axis(std::size_t p, std::size_t d) const {
    const Real before = b_.accepted[p - d], after = b_.accepted[p + d];
    return before <= after ? upwind(before, b_.accepted[p - 2 * d]) : upwind(after, b_.accepted[p + 2 * d]);
  }
  // Along a diagonal: first order only. (Second order there too pulled every distance
  // along the axes short, 1% at 8 m, through the minimum of the two stencils below.)
  Upwind along_diagonal(std::size_t p, std::size_t d) const {
    return Upwind{std::min(b_.accepted[p - d], b_.accepted[p + d]), 1};
  }
  // Two stencils (multistencil fast marching): the axes, and the diagonals at a spacing
  // of h * sqrt(2); the smaller value wins, so that ways run straight at any angle. On
  // open ground: distances within 0.7% of the Euclidean a metre from a goal and beyond,
  // 0.35% beyond 8 m (first order on both stencils: 4.9% and 1.6%).
  Real update_axes(std::size_t p) const {
    return eikonal_update(along_axis(p, 1), along_axis(p, wide_), cell_ * b_.step_cost[p]);
  }
  Real update(std::size_t p) const {
    const Real h = cell_ * b_.step_cost[p];
    return std::min(eikonal_update(along_axis(p, 1), along_axis(p, wide_), h),
                    eikonal_update(along_diagonal(p, wide_ + 1), along_diagonal(p, wide_ - 1), h * Real(1.41421356)));
  }

  // Accepts up to `budget` cells, smallest value first; true once no trial cell is left.
  bool run(std::size_t budget) {
    // The eight neighbours, row by row from the lower one: the axes' four, then the
    // diagonals' (in the same order: rows, then columns).
    const std::ptrdiff_t w = static_cast<std::ptrdiff_t>(wide_);
    const std::ptrdiff_t axes[4] = {-w, -1, 1, w}, diagonals[4] = {-w - 1, -w + 1, w - 1, w + 1};
    TrialHeap& heap = b_.heap;
    std::vector<Real>& value = b_.value;
    std::vector<Real>& accepted = b_.accepted;
    std::vector<std::uint8_t>& closed = b_.closed;
    for (; budget > 0 && !heap.empty(); --budget) {
      const TrialHeap::Entry top = heap.pop();
      ++b_.popped;
      const std::size_t p = top.cell;
      if (accepted[p] < kInfinity || top.value > value[p]) continue;  // a seed met again
      accepted[p] = value[p];
      closed[p] = 1;
      // Accepted beside q along an axis, p is in none of q's diagonals: their stencil
      // gives what it gave when q's last diagonal neighbour was accepted (q was then
      // updated whole), no lower than value[q], so only the axes can lower it. Each q's
      // value depends only on the accepted values, so the order of the neighbours does
      // not matter.
      for (const std::ptrdiff_t d : axes) {
        const std::size_t q = p + d;
        if (closed[q]) continue;
        const Real next = update_axes(q);
        if (next < value[q]) value[q] = next, heap.push(next, q);
      }
      for (const std::ptrdiff_t d : diagonals) {
        const std::size_t q = p + d;
        if (closed[q]) continue;
        const Real next = update(q);
        if (next < value[q]) value[q] = next, heap.push(next, q);
      }
    }
    return heap.empty();
  }

 private:
  MarchBuffers& b_;
  std::size_t wide_;
  Real cell_;
};

std::size_t NavigationField::padded_index(std::size_t i) const {
  return (i / columns_ + 2) * (static_cast<std::size_t>(columns_) + 4) + i % columns_ + 2;
}

void NavigationField::open_squares(const std::vector<Real>& cost, std::vector<std::int32_t>& closed_before) const {
  // closed_before[(r) * (columns + 1) + c]: how many cells of rows < r and columns < c are
  // not open (blocked, or dearer than 1): a square of cells is open when its count is 0.
  const std::size_t stride = static_cast<std::size_t>(columns_) + 1;
  closed_before.assign(stride * (static_cast<std::size_t>(rows_) + 1), 0);
  for (int r = 0; r < rows_; ++r) {
    std::int32_t in_row = 0;
    for (int c = 0; c < columns_; ++c) {
      const std::size_t i = index(c, r);
      in_row += (blocked_[i] || cost[i] != 1) ? 1 : 0;
      closed_before[(r + 1) * stride + c + 1] = closed_before[r * stride + c + 1] + in_row;
    }
  }
}

void NavigationField::march_begin(const std::vector<Real>& cost, MarchBuffers& buffers) const {
  // Fast marching over the open cells, from the seeds' values: the smallest tentative
  // value is accepted for good and updates its neighbors. On the grid padded by two cells
  // a side (cell i at padded index padded_index(i)), as second-order differences read two
  // cells away: `value` holds each cell's tentative value, `accepted` its value once
  // accepted (kInfinity before, and in the padding), `closed` marks the cells no update
  // may change (padding, cells not open, seeds: exact values near a goal, accepted
  // cells), `step_cost` the cost of a metre through each cell.
  const std::size_t wide = static_cast<std::size_t>(columns_) + 4;
  const std::size_t padded = wide * (static_cast<std::size_t>(rows_) + 4);
  std::vector<Real>& value = buffers.value;
  buffers.accepted.assign(padded, kInfinity);
  value.assign(padded, kInfinity);
  std::vector<std::uint8_t>& closed = buffers.closed;
  closed.assign(padded, 1);
  buffers.step_cost.resize(padded);
  buffers.popped = 0;
  for (std::size_t r = 0, i = 0; r < static_cast<std::size_t>(rows_); ++r) {
    for (std::size_t c = 0, p = (r + 2) * wide + 2; c < static_cast<std::size_t>(columns_); ++c, ++i, ++p) {
      closed[p] = blocked_[i];
      buffers.step_cost[p] = cost[i];
    }
  }
  TrialHeap& heap = buffers.heap;
  heap.reset(padded);
  // A seed lowers its cell's value; each seeded cell enters the heap once, at its lowest
  // value (below), so that a cell near many goals costs no more than one near a single one.
  std::vector<std::size_t>& seeded = buffers.seeded;
  seeded.clear();
  auto seed = [&](std::size_t i, Real d) {
    const std::size_t p = padded_index(i);
    if (!(d < value[p])) return;
    if (value[p] == kInfinity) seeded.push_back(p);
    value[p] = d;
    closed[p] = 1;
  };
  // Free cells, from the goals: the free cells near each goal point and in open sight of
  // it (kSeedCells) start at their exact distance, so that the cells nearest a goal
  // point at the goal itself, not at its cell's centre, and second-order marching has
  // exact values to start from. Within a clearance margin the straight distance would
  // undercharge the way, so there only the goal's own cell is seeded, and the marching
  // charges the margin's cost from it. Where every cell of the square round a goal is
  // open, every straight way in it is too (the square is convex), and is not sampled.
  const bool many_goals = goals_.size() > kFewGoals;
  if (many_goals) open_squares(cost, buffers.closed_before);
  const std::size_t stride = static_cast<std::size_t>(columns_) + 1;
  auto square_open = [&](int c0, int r0, int c1, int r1) {
    const std::vector<std::int32_t>& n = buffers.closed_before;
    return n[(r1 + 1) * stride + c1 + 1] - n[r0 * stride + c1 + 1] - n[(r1 + 1) * stride + c0] + n[r0 * stride + c0] ==
           0;
  };
  for (std::size_t k = 0; k < goals_.size(); ++k) {
    const Vec2 g = goals_[k];
    const int gc = column_of(g), gr = row_of(g);
    if (blocked_[index(gc, gr)]) {
      throw std::invalid_argument("goals: goal " + std::to_string(k) + " at " + format_reals({g.x, g.y}) +
                                  " lies in a blocked cell (within half a cell's diagonal of an "
                                  "obstacle, or outside the bounds)");
    }
    seed(index(gc, gr), length(centre(gc, gr) - g));
    const int r0 = std::max(0, gr - kSeedCells), r1 = std::min(rows_ - 1, gr + kSeedCells);
    const int c0 = std::max(0, gc - kSeedCells), c1 = std::min(columns_ - 1, gc + kSeedCells);
    const bool open = many_goals && square_open(c0, r0, c1, r1);
    for (int r = r0; r <= r1; ++r) {
      for (int c = c0; c <= c1; ++c) {
        // Within a disc, so that a nearer goal's exact value always beats a farther one's.
        const Real d = length(centre(c, r) - g);
        if (d <= kSeedCells * cell_ && (open || in_open_sight(g, c, r, cost))) seed(index(c, r), d);
      }
    }
  }
  for (std::size_t k = 0; k < goal_areas_.size(); ++k) {
    const Bounds& b = goal_areas_[k];
    bool any = false;
    for (int r = 0; r < rows_; ++r) {
      const Real y = centre(0, r).y;
      if (y < b.min.y || y > b.max.y) continue;
      for (int c = 0; c < columns_; ++c) {
        const Real x = centre(c, r).x;
        if (blocked_[index(c, r)] || x < b.min.x || x > b.max.x) continue;
        seed(index(c, r), 0);
        any = true;
      }
    }
    if (!any) {
      throw std::invalid_argument("goal_areas: area " + std::to_string(k) +
                                  " holds no free cell centre (too small, off the grid or blocked)");
    }
  }
  for (const std::size_t p : seeded) heap.seed(value[p], p);
  heap.sort_seeds();
}

bool NavigationField::march_advance(MarchBuffers& buffers, std::size_t budget) const {
  return Marcher(*this, buffers).run(budget);
}

void NavigationField::march(const std::vector<Real>& cost, MarchBuffers& buffers, bool ways_out) {
  march_begin(cost, buffers);
  march_advance(buffers, static_cast<std::size_t>(-1));
  const std::size_t cells = blocked_.size();
  std::vector<Real>& value = buffers.value;
  std::vector<Real>& accepted = buffers.accepted;
  std::vector<std::uint8_t>& closed = buffers.closed;
  const std::size_t padded = value.size();
  distances_.resize(cells);
  for (std::size_t i = 0; i < cells; ++i) distances_[i] = value[padded_index(i)];
  if (!ways_out) return;

  // Blocked cells: the distance out of the margin to the nearest reached free cell, so
  // that their directions lead straight out of it (kept apart: a blocked cell's way on
  // to the goal may lie on the other side of a thin wall). The blocked cells are open,
  // the reached free ones accepted at 0, and every metre counts the same.
  value.assign(padded, kInfinity);
  accepted.assign(padded, kInfinity);
  closed.assign(padded, 1);
  std::fill(buffers.step_cost.begin(), buffers.step_cost.end(), Real(1));
  TrialHeap& heap = buffers.heap;
  heap.reset(padded);
  for (std::size_t i = 0; i < cells; ++i) {
    const std::size_t p = padded_index(i);
    if (!blocked_[i] && std::isfinite(distances_[i])) {
      value[p] = accepted[p] = 0;
    } else {
      closed[p] = !blocked_[i];
    }
  }
  Marcher marcher(*this, buffers);
  for (std::size_t i = 0; i < cells; ++i) {
    if (!blocked_[i]) continue;
    const std::size_t p = padded_index(i);
    value[p] = marcher.update(p);
    if (std::isfinite(value[p])) heap.seed(value[p], p);
  }
  heap.sort_seeds();
  marcher.run(static_cast<std::size_t>(-1));
  way_out_.resize(cells);
  for (std::size_t i = 0; i < cells; ++i) way_out_[i] = value[padded_index(i)];
}

namespace {

// The unit direction down the values about a cell, `here` (finite), from its four
// neighbours' (kInfinity where unknown); (0, 0) where none leads down. Along each axis:
// where the values fall steadily through the cell, the central difference; else (at a
// ridge, a kink, or next to a blocked or unknown cell) the steeper way down of the two
// sides, 0 when neither goes down. With the second-order distances the central
// difference keeps cell directions within 7 degrees of the straight way a metre from a
// goal and beyond, 1.5 beyond 8 m (one-sided only: 10 and 4).
Vec2 downhill(Real here, Real left, Real right, Real below, Real above) {
  auto slope = [here](Real before, Real after) {
    const Real down_before = here - before, down_after = here - after;  // -inf where unknown
    if (!(std::max(down_before, down_after) > 0)) return Real(0);
    const bool steady = (down_before < 0 && down_after > 0) || (down_before > 0 && down_after < 0);
    if (steady && std::isfinite(before) && std::isfinite(after)) {
      return (down_after - down_before) / 2;
    }
    return down_after >= down_before ? down_after : -down_before;
  };
  const Vec2 g{slope(left, right), slope(below, above)};
  const Real norm = length(g);
  return norm > 0 ? Vec2{g.x / norm, g.y / norm} : Vec2{};
}

}  // namespace

void NavigationField::point_downhill() {
  directions_.assign(2 * blocked_.size(), 0);
  for (int r = 0; r < rows_; ++r) {
    for (int c = 0; c < columns_; ++c) {
      const std::size_t i = index(c, r);
      // Free cells descend the distance among free cells; blocked ones the way out,
      // among all cells (free ones are 0 there).
      const bool free = !blocked_[i];
      const std::vector<Real>& t = free ? distances_ : way_out_;
      if (!std::isfinite(t[i])) continue;
      auto value = [&](int cc, int rr) {
        if (cc < 0 || cc >= columns_ || rr < 0 || rr >= rows_) return kInfinity;
        const std::size_t j = index(cc, rr);
        return free && blocked_[j] ? kInfinity : t[j];
      };
      const Vec2 u = downhill(t[i], value(c - 1, r), value(c + 1, r), value(c, r - 1), value(c, r + 1));
      directions_[2 * i] = u.x;
      directions_[2 * i + 1] = u.y;
    }
  }
}

void NavigationField::point_free_cells_downhill(const MarchBuffers& buffers) {
  // The march's padded values are the distances of the free cells, kInfinity at blocked
  // cells and off the grid: what free cells descend.
  const std::vector<Real>& value = buffers.value;
  const std::size_t wide = static_cast<std::size_t>(columns_) + 4;
  for (std::size_t r = 0, i = 0; r < static_cast<std::size_t>(rows_); ++r) {
    for (std::size_t c = 0, p = (r + 2) * wide + 2; c < static_cast<std::size_t>(columns_); ++c, ++i, ++p) {
      if (blocked_[i]) continue;
      const Vec2 u = std::isfinite(value[p])
                         ? downhill(value[p], value[p - 1], value[p + 1], value[p - wide], value[p + wide])
                         : Vec2{};
      directions_[2 * i] = u.x;
      directions_[2 * i + 1] = u.y;
    }
  }
}

void NavigationField::begin_remarch(const Real* extra, MarchBuffers& buffers) const {
  std::vector<Real>& cost = buffers.cost;
  cost.resize(costs_.size());
  // Room for every cell in the heap, and for every seed (each cell once at most).
  const std::size_t padded = (static_cast<std::size_t>(columns_) + 4) * (static_cast<std::size_t>(rows_) + 4);
  buffers.heap.reserve(padded, costs_.size());
  buffers.seeded.reserve(costs_.size());
  if (goals_.size() > kFewGoals) buffers.closed_before.reserve((columns_ + std::size_t(1)) * (rows_ + std::size_t(1)));
  for (std::size_t i = 0; i < cost.size(); ++i) cost[i] = costs_[i] + extra[i];
  march_begin(cost, buffers);
}

bool NavigationField::advance_remarch(MarchBuffers& buffers, std::size_t budget) const {
  return march_advance(buffers, budget);
}

void NavigationField::finish_remarch(const MarchBuffers& buffers) {
  // Every free cell a goal reached before is reached again (the costs stay finite), so
  // the blocked cells' ways out, to the nearest reached free cell, stay as they were.
  const std::size_t cells = blocked_.size();
  for (std::size_t i = 0; i < cells; ++i) distances_[i] = buffers.value[padded_index(i)];
  point_free_cells_downhill(buffers);
}

void NavigationField::remarch(const Real* extra, MarchBuffers& buffers) {
  begin_remarch(extra, buffers);
  advance_remarch(buffers, static_cast<std::size_t>(-1));
  finish_remarch(buffers);
}

}  // namespace contextsteer
