// Fast marching of a navigation field (navigation_field.hpp): the distances from the
// goals over the free cells, the ways out of the blocked margins, and the directions
// down them; and the march again with a crowd's costs added (remarch).
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include "contextsteer/base/format_real.hpp"
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

Upwind upwind(Real a, Real b) {
  if (std::isfinite(a) && std::isfinite(b) && b <= a) return {(4 * a - b) / 3, Real(2.25)};
  return {a, 1};
}

// The solution T of wx (T - vx)^2 + wy (T - vy)^2 = h^2 no lower than either value (both
// axes lead downhill), else the better one-axis solution v + h / sqrt(w). One of the
// values may be infinite, not both. Values are taken relative to the lower one, so that
// single precision keeps the small differences that matter.
Real eikonal_update(Upwind x, Upwind y, Real h) {
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

void NavigationField::march(const std::vector<Real>& cost, MarchBuffers& buffers, bool ways_out) {
  const std::size_t cells = blocked_.size();
  distances_.assign(cells, kInfinity);
  // Fast marching over the cells that `open` allows, from the values already set in `t`:
  // the smallest tentative value is accepted for good and updates its neighbors.
  // kSeed: a trial value that is exact (near a goal) and that no update may lower.
  enum : std::uint8_t { kFar, kTrial, kSeed, kAccepted };
  std::vector<std::uint8_t>& state = buffers.state;
  state.assign(cells, kFar);
  // A min-heap (std::priority_queue's order, on a vector kept from one march to the next).
  std::vector<std::pair<Real, int>>& heap = buffers.heap;
  heap.clear();
  const std::greater<std::pair<Real, int>> later;
  auto push = [&](Real value, std::size_t i) {
    heap.emplace_back(value, static_cast<int>(i));
    std::push_heap(heap.begin(), heap.end(), later);
  };
  auto accepted_value = [&](const std::vector<Real>& t, int c, int r) {
    if (c < 0 || c >= columns_ || r < 0 || r >= rows_) return kInfinity;
    const std::size_t i = index(c, r);
    return state[i] == kAccepted ? t[i] : kInfinity;
  };
  // Along an axis (dc, dr): the upwind difference from the lower of the two sides,
  // second order where that side's next cell allows it.
  auto along_axis = [&](const std::vector<Real>& t, int c, int r, int dc, int dr) {
    const Real before = accepted_value(t, c - dc, r - dr), after = accepted_value(t, c + dc, r + dr);
    return before <= after ? upwind(before, accepted_value(t, c - 2 * dc, r - 2 * dr))
                           : upwind(after, accepted_value(t, c + 2 * dc, r + 2 * dr));
  };
  // Along a diagonal: first order only. (Second order there too pulled every distance
  // along the axes short, 1% at 8 m, through the minimum of the two stencils below.)
  auto along_diagonal = [&](const std::vector<Real>& t, int c, int r, int dc, int dr) {
    return Upwind{std::min(accepted_value(t, c - dc, r - dr), accepted_value(t, c + dc, r + dr)), 1};
  };
  // Two stencils (multistencil fast marching): the axes, and the diagonals at a spacing
  // of h * sqrt(2); the smaller value wins, so that ways run straight at any angle. On
  // open ground: distances within 0.7% of the Euclidean a metre from a goal and beyond,
  // 0.35% beyond 8 m (first order on both stencils: 4.9% and 1.6%).
  auto update_axes = [&](const std::vector<Real>& t, int c, int r, Real cost) {
    return eikonal_update(along_axis(t, c, r, 1, 0), along_axis(t, c, r, 0, 1), cell_ * cost);
  };
  auto update = [&](const std::vector<Real>& t, int c, int r, Real cost) {
    const Real h = cell_ * cost;
    return std::min(
        eikonal_update(along_axis(t, c, r, 1, 0), along_axis(t, c, r, 0, 1), h),
        eikonal_update(along_diagonal(t, c, r, 1, 1), along_diagonal(t, c, r, 1, -1), h * Real(1.41421356)));
  };
  auto run = [&](std::vector<Real>& t, const std::vector<Real>& step_cost, auto&& open) {
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), later);
      const auto [value, i] = heap.back();
      heap.pop_back();
      if (state[i] == kAccepted || value > t[i]) continue;  // a stale entry
      state[i] = kAccepted;
      const int c = i % columns_, r = i / columns_;
      for (int dr = -1; dr <= 1; ++dr) {
        for (int dc = -1; dc <= 1; ++dc) {
          const int nc = c + dc, nr = r + dr;
          if ((dc == 0 && dr == 0) || nc < 0 || nc >= columns_ || nr < 0 || nr >= rows_) continue;
          const std::size_t j = index(nc, nr);
          if (state[j] == kAccepted || state[j] == kSeed || !open(j)) continue;
          // Accepted beside j along an axis, i is in none of j's diagonals: their stencil
          // gives what it gave when j's last diagonal neighbour was accepted (j was then
          // updated whole), no lower than t[j], so only the axes can lower it.
          const Real next = dc == 0 || dr == 0 ? update_axes(t, nc, nr, step_cost[j]) : update(t, nc, nr, step_cost[j]);
          if (next < t[j]) {
            t[j] = next;
            state[j] = kTrial;
            push(next, j);
          }
        }
      }
    }
  };

  auto seed = [&](std::size_t i, Real d) {
    if (!(d < distances_[i])) return;
    distances_[i] = d;
    state[i] = kSeed;
    push(d, i);
  };
  // Free cells, from the goals: the free cells near each goal point and in open sight of
  // it (kSeedCells) start at their exact distance, so that the cells nearest a goal
  // point at the goal itself, not at its cell's centre, and second-order marching has
  // exact values to start from. Within a clearance margin the straight distance would
  // undercharge the way, so there only the goal's own cell is seeded, and the marching
  // charges the margin's cost from it.
  for (std::size_t k = 0; k < goals_.size(); ++k) {
    const Vec2 g = goals_[k];
    const int gc = column_of(g), gr = row_of(g);
    if (blocked_[index(gc, gr)]) {
      throw std::invalid_argument("goals: goal " + std::to_string(k) + " at " + format_reals({g.x, g.y}) +
                                  " lies in a blocked cell (within half a cell's diagonal of an "
                                  "obstacle, or outside the bounds)");
    }
    seed(index(gc, gr), length(centre(gc, gr) - g));
    for (int r = std::max(0, gr - kSeedCells); r <= std::min(rows_ - 1, gr + kSeedCells); ++r) {
      for (int c = std::max(0, gc - kSeedCells); c <= std::min(columns_ - 1, gc + kSeedCells); ++c) {
        // Within a disc, so that a nearer goal's exact value always beats a farther one's.
        const Real d = length(centre(c, r) - g);
        if (d <= kSeedCells * cell_ && in_open_sight(g, c, r, cost)) seed(index(c, r), d);
      }
    }
  }
  for (std::size_t k = 0; k < goal_areas_.size(); ++k) {
    const Bounds& b = goal_areas_[k];
    bool any = false;
    for (int r = 0; r < rows_; ++r) {
      for (int c = 0; c < columns_; ++c) {
        const Vec2 p = centre(c, r);
        if (blocked_[index(c, r)] || p.x < b.min.x || p.x > b.max.x || p.y < b.min.y || p.y > b.max.y) continue;
        seed(index(c, r), 0);
        any = true;
      }
    }
    if (!any) {
      throw std::invalid_argument("goal_areas: area " + std::to_string(k) +
                                  " holds no free cell centre (too small, off the grid or blocked)");
    }
  }
  run(distances_, cost, [&](std::size_t j) { return !blocked_[j]; });
  if (!ways_out) return;

  // Blocked cells: the distance out of the margin to the nearest reached free cell, so
  // that their directions lead straight out of it (kept apart: a blocked cell's way on
  // to the goal may lie on the other side of a thin wall).
  way_out_.assign(cells, kInfinity);
  const std::vector<Real> ones(cells, 1);  // out of a blocked margin, every metre counts the same
  for (std::size_t i = 0; i < cells; ++i) {
    if (!blocked_[i] && std::isfinite(distances_[i])) {
      way_out_[i] = 0;
      state[i] = kAccepted;
    } else {
      state[i] = kFar;
    }
  }
  for (std::size_t i = 0; i < cells; ++i) {
    if (!blocked_[i]) continue;
    way_out_[i] = update(way_out_, static_cast<int>(i % columns_), static_cast<int>(i / columns_), 1);
    if (std::isinf(way_out_[i])) continue;
    state[i] = kTrial;
    push(way_out_[i], i);
  }
  run(way_out_, ones, [&](std::size_t j) { return blocked_[j] != 0; });
}

void NavigationField::point_downhill(bool free_only) {
  if (!free_only) directions_.assign(2 * blocked_.size(), 0);
  for (int r = 0; r < rows_; ++r) {
    for (int c = 0; c < columns_; ++c) {
      const std::size_t i = index(c, r);
      // Free cells descend the distance among free cells; blocked ones the way out,
      // among all cells (free ones are 0 there).
      const bool free = !blocked_[i];
      if (free_only && !free) continue;
      directions_[2 * i] = directions_[2 * i + 1] = 0;
      const std::vector<Real>& t = free ? distances_ : way_out_;
      if (!std::isfinite(t[i])) continue;
      auto value = [&](int cc, int rr) {
        if (cc < 0 || cc >= columns_ || rr < 0 || rr >= rows_) return kInfinity;
        const std::size_t j = index(cc, rr);
        return free && blocked_[j] ? kInfinity : t[j];
      };
      // Along each axis: where the values fall steadily through the cell, the central
      // difference; else (at a ridge, a kink, or next to a blocked or unknown cell) the
      // steeper way down of the two sides, 0 when neither goes down. With the second-order
      // distances the central difference keeps cell directions within 7 degrees of the
      // straight way a metre from a goal and beyond, 1.5 beyond 8 m (one-sided only:
      // 10 and 4).
      auto slope = [&](Real before, Real after) {
        const Real down_before = t[i] - before, down_after = t[i] - after;  // -inf where unknown
        if (!(std::max(down_before, down_after) > 0)) return Real(0);
        const bool steady = (down_before < 0 && down_after > 0) || (down_before > 0 && down_after < 0);
        if (steady && std::isfinite(before) && std::isfinite(after)) {
          return (down_after - down_before) / 2;
        }
        return down_after >= down_before ? down_after : -down_before;
      };
      const Vec2 g{slope(value(c - 1, r), value(c + 1, r)), slope(value(c, r - 1), value(c, r + 1))};
      const Real norm = length(g);
      if (norm > 0) {
        directions_[2 * i] = g.x / norm;
        directions_[2 * i + 1] = g.y / norm;
      }
    }
  }
}

void NavigationField::remarch(const Real* extra, MarchBuffers& buffers) {
  std::vector<Real>& cost = buffers.cost;
  cost.resize(costs_.size());
  // The heap holds the marching front (and stale entries): far fewer than the cells.
  buffers.heap.reserve(costs_.size());
  for (std::size_t i = 0; i < cost.size(); ++i) cost[i] = costs_[i] + extra[i];
  // Every free cell a goal reached before is reached again (the costs stay finite), so
  // the blocked cells' ways out, to the nearest reached free cell, stay as they were.
  march(cost, buffers, false);
  point_downhill(true);
}

}  // namespace contextsteer
