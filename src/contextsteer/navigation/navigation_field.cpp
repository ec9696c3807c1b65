#include "contextsteer/navigation/navigation_field.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/base/parameter_checks.hpp"

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
  auto alone = [h](Upwind u) { return u.value + h / std::sqrt(u.weight); };
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

NavigationField::NavigationField(const Obstacles& obstacles, LayerMask mask, const Bounds& area, Real cell,
                                 Real clearance, const std::vector<Vec2>& goals, const std::vector<Bounds>& goal_areas,
                                 Real keep_right)
    : origin_(area.min), cell_(cell), clearance_(clearance), goals_(goals), goal_areas_(goal_areas) {
  if (!within_bound(area.min) || !within_bound(area.max) || !(area.min.x < area.max.x) || !(area.min.y < area.max.y)) {
    throw std::invalid_argument(
        "area: expected (xmin, ymin, xmax, ymax) within -1e9 to 1e9 with xmin < xmax and ymin < ymax, got " +
        format_reals({area.min.x, area.min.y, area.max.x, area.max.y}));
  }
  require_positive(cell, "cell", "a size", " in metres");
  require_nonnegative(clearance, "clearance", "a distance", " in metres");
  require_nonnegative(keep_right, "keep_right", "a distance", " in metres");
  const double columns = std::max(1.0, std::ceil((double(area.max.x) - area.min.x) / cell));
  const double rows = std::max(1.0, std::ceil((double(area.max.y) - area.min.y) / cell));
  if (columns * rows > double(kMaxCells)) {
    // Counts formatted as reals: they may lie beyond any integer type.
    throw std::invalid_argument("cell: " + format_real(cell) + " m makes " + format_real(Real(columns)) + " x " +
                                format_real(Real(rows)) + " cells over the area, more than " +
                                std::to_string(kMaxCells) + "; take a larger cell");
  }
  columns_ = static_cast<int>(columns);
  rows_ = static_cast<int>(rows);
  if (goals.empty() && goal_areas.empty()) {
    throw std::invalid_argument("goals: expected at least one goal point or goal area");
  }
  for (std::size_t k = 0; k < goals.size(); ++k) {
    const Vec2 g = goals[k];
    if (!within_bound(g) || g.x < area.min.x || g.x > area.max.x || g.y < area.min.y || g.y > area.max.y) {
      throw std::invalid_argument("goals: expected finite points inside the area, got goal " + std::to_string(k) +
                                  " at " + format_reals({g.x, g.y}));
    }
  }
  for (std::size_t k = 0; k < goal_areas.size(); ++k) {
    const Bounds& b = goal_areas[k];
    if (!within_bound(b.min) || !within_bound(b.max) || !(b.min.x <= b.max.x) || !(b.min.y <= b.max.y)) {
      throw std::invalid_argument(
          "goal_areas: expected (xmin, ymin, xmax, ymax) within -1e9 to 1e9 with xmin <= xmax and "
          "ymin <= ymax, got " +
          format_reals({b.min.x, b.min.y, b.max.x, b.max.y}) + " for area " + std::to_string(k));
    }
  }
  // Each cell's cost of crossing, per metre: 1 in the open, rising toward an obstacle
  // within the clearance, up to 1 + kMarginCost where the cells are blocked.
  const std::vector<Real> gaps = obstacle_gaps(obstacles, mask);
  std::vector<Real> cost(gaps.size(), 1);
  blocked_.assign(gaps.size(), 0);
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    // At most half a diagonal (with a hair for rounding), not less than: free cells on
    // both sides of a wall are then more than a diagonal apart, never neighbors.
    blocked_[i] = gaps[i] <= half_diagonal() * Real(1.0001);
    if (clearance_ > 0 && gaps[i] < half_diagonal() + clearance_) {
      const Real closeness = 1 - std::max(Real(0), gaps[i] - half_diagonal()) / clearance_;
      cost[i] += kMarginCost * closeness * closeness;
    }
  }
  march(cost);
  point_downhill();
  if (keep_right > 0) {
    const std::vector<Real> left = left_gaps(obstacles, mask, keep_right);
    for (std::size_t i = 0; i < left.size(); ++i) {
      if (blocked_[i] || !(left[i] < keep_right)) continue;
      const Real closeness = 1 - left[i] / keep_right;
      cost[i] += kLaneCost * closeness * closeness;
    }
    march(cost);
    point_downhill();
  }
  std::vector<Real>().swap(way_out_);  // the directions hold what it was for
}

NavigationField NavigationField::from_cells(Vec2 origin, Real cell, Real clearance, int columns, int rows,
                                            std::vector<Vec2> goals, std::vector<Bounds> goal_areas,
                                            std::vector<Real> distances, std::vector<Real> directions,
                                            std::vector<std::uint8_t> blocked) {
  require_positive(cell, "cell", "a size", " in metres");
  require_nonnegative(clearance, "clearance", "a distance", " in metres");
  if (columns < 1 || rows < 1 || std::int64_t(columns) * rows > kMaxCells) {
    throw std::invalid_argument("columns, rows: expected at least one cell each and at most " +
                                std::to_string(kMaxCells) + " cells, got " + std::to_string(columns) + " x " +
                                std::to_string(rows));
  }
  // The far corner too, in double: a grid that reaches past the bound cannot be read.
  const double far_x = double(origin.x) + double(columns) * cell, far_y = double(origin.y) + double(rows) * cell;
  if (!within_bound(origin) || !(std::abs(far_x) <= kMaxMagnitude) || !(std::abs(far_y) <= kMaxMagnitude)) {
    throw std::invalid_argument("origin: expected a grid within -1e9 to 1e9, got one from " +
                                format_reals({origin.x, origin.y}) + " to " + format_reals({Real(far_x), Real(far_y)}));
  }
  const std::size_t cells = static_cast<std::size_t>(columns) * rows;
  auto require_size = [&](std::size_t size, std::size_t expected, const char* argument) {
    if (size != expected) {
      throw std::invalid_argument(std::string(argument) + ": expected " + std::to_string(expected) + " values for " +
                                  std::to_string(columns) + " x " + std::to_string(rows) + " cells, got " +
                                  std::to_string(size));
    }
  };
  require_size(distances.size(), cells, "distances");
  require_size(directions.size(), 2 * cells, "directions");
  require_size(blocked.size(), cells, "blocked");
  for (const Vec2 g : goals) {
    if (!within_bound(g)) throw std::invalid_argument("goals: expected points within -1e9 to 1e9");
  }
  for (const Bounds& b : goal_areas) {
    if (!within_bound(b.min) || !within_bound(b.max)) {
      throw std::invalid_argument("goal_areas: expected rectangles within -1e9 to 1e9");
    }
  }
  for (std::size_t i = 0; i < cells; ++i) {
    if (!(distances[i] >= 0)) {
      throw std::invalid_argument("distances: expected values >= 0 (inf where no goal is reached), got " +
                                  format_real(distances[i]) + " at cell " + std::to_string(i));
    }
    if (blocked[i] > 1) {
      throw std::invalid_argument("blocked: expected 0 or 1, got " + std::to_string(blocked[i]) + " at cell " +
                                  std::to_string(i));
    }
  }
  for (std::size_t i = 0; i < 2 * cells; ++i) {
    if (!(std::abs(directions[i]) <= 1)) {
      throw std::invalid_argument("directions: expected components within [-1, 1], got " + format_real(directions[i]) +
                                  " at cell " + std::to_string(i / 2));
    }
  }
  NavigationField field;
  field.origin_ = origin;
  field.cell_ = cell;
  field.clearance_ = clearance;
  field.columns_ = columns;
  field.rows_ = rows;
  field.goals_ = std::move(goals);
  field.goal_areas_ = std::move(goal_areas);
  field.distances_ = std::move(distances);
  field.directions_ = std::move(directions);
  field.blocked_ = std::move(blocked);
  return field;
}

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

void NavigationField::march(const std::vector<Real>& cost) {
  const std::size_t cells = blocked_.size();
  distances_.assign(cells, kInfinity);
  // Fast marching over the cells that `open` allows, from the values already set in `t`:
  // the smallest tentative value is accepted for good and updates its neighbors.
  // kSeed: a trial value that is exact (near a goal) and that no update may lower.
  enum : std::uint8_t { kFar, kTrial, kSeed, kAccepted };
  std::vector<std::uint8_t> state(cells, kFar);
  using Entry = std::pair<Real, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> trial;
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
  auto update = [&](const std::vector<Real>& t, int c, int r, Real cost) {
    const Real h = cell_ * cost;
    return std::min(
        eikonal_update(along_axis(t, c, r, 1, 0), along_axis(t, c, r, 0, 1), h),
        eikonal_update(along_diagonal(t, c, r, 1, 1), along_diagonal(t, c, r, 1, -1), h * Real(1.41421356)));
  };
  auto run = [&](std::vector<Real>& t, const std::vector<Real>& step_cost, auto&& open) {
    while (!trial.empty()) {
      const auto [value, i] = trial.top();
      trial.pop();
      if (state[i] == kAccepted || value > t[i]) continue;  // a stale entry
      state[i] = kAccepted;
      const int c = i % columns_, r = i / columns_;
      for (int dr = -1; dr <= 1; ++dr) {
        for (int dc = -1; dc <= 1; ++dc) {
          const int nc = c + dc, nr = r + dr;
          if ((dc == 0 && dr == 0) || nc < 0 || nc >= columns_ || nr < 0 || nr >= rows_) continue;
          const std::size_t j = index(nc, nr);
          if (state[j] == kAccepted || state[j] == kSeed || !open(j)) continue;
          const Real next = update(t, nc, nr, step_cost[j]);
          if (next < t[j]) {
            t[j] = next;
            state[j] = kTrial;
            trial.push({next, static_cast<int>(j)});
          }
        }
      }
    }
  };

  auto seed = [&](std::size_t i, Real d) {
    if (!(d < distances_[i])) return;
    distances_[i] = d;
    state[i] = kSeed;
    trial.push({d, static_cast<int>(i)});
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
    trial.push({way_out_[i], static_cast<int>(i)});
  }
  run(way_out_, ones, [&](std::size_t j) { return blocked_[j] != 0; });
}

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

template <class Visit>
void NavigationField::for_each_corner(Vec2 p, Visit&& visit) const {
  // Along one axis: the two cell indices whose centres bracket u (in cells from the
  // first centre) and the weight of the second, clamped at the grid's edges.
  auto bracket = [](Real u, int n, int& first, int& second, Real& weight) {
    if (!(u > 0)) {
      first = second = 0, weight = 0;
    } else if (u >= n - 1) {
      first = second = n - 1, weight = 0;
    } else {
      first = static_cast<int>(u), second = first + 1, weight = u - first;
    }
  };
  int c0, c1, r0, r1;
  Real fx, fy;
  bracket((p.x - origin_.x) / cell_ - Real(0.5), columns_, c0, c1, fx);
  bracket((p.y - origin_.y) / cell_ - Real(0.5), rows_, r0, r1, fy);
  visit(index(c0, r0), (1 - fx) * (1 - fy));
  visit(index(c1, r0), fx * (1 - fy));
  visit(index(c0, r1), (1 - fx) * fy);
  visit(index(c1, r1), fx * fy);
}

Vec2 NavigationField::direction_at(Vec2 p) const {
  // On a ridge between two ways round an obstacle, the corners on either side point
  // apart, and their blend would point along the ridge, straight at the obstacle: blend
  // only the corners that agree with the nearest one (all of them elsewhere).
  Vec2 nearest{};
  Real nearest_weight = -1;
  for_each_corner(p, [&](std::size_t i, Real w) {
    if (w > nearest_weight) nearest = load(directions_.data(), i), nearest_weight = w;
  });
  const bool has_side = nearest.x != 0 || nearest.y != 0;
  Vec2 sum{};
  for_each_corner(p, [&](std::size_t i, Real w) {
    const Vec2 d = load(directions_.data(), i);
    if (!has_side || dot(d, nearest) > 0) sum = sum + w * d;
  });
  const Real norm = length(sum);
  return norm > Real(1e-6) ? sum * (1 / norm) : Vec2{};
}

Real NavigationField::distance_at(Vec2 p) const {
  Real sum = 0, weights = 0;
  for_each_corner(p, [&](std::size_t i, Real w) {
    if (std::isinf(distances_[i]) || w <= 0) return;
    sum += w * distances_[i];
    weights += w;
  });
  return weights > 0 ? sum / weights : kInfinity;
}

std::vector<Vec2> NavigationField::path_from(Vec2 start, Real step, Real max_length) const {
  require_positive(step, "step", "a distance", " in metres");
  if (!(max_length >= 0)) {
    throw std::invalid_argument("max_length: expected a distance >= 0 in metres, got " + format_real(max_length));
  }
  std::vector<Vec2> path{start};
  const double steps = std::min<double>(std::floor(max_length / step), kMaxPathPoints);
  Real here = distance_at(start);
  for (double k = 0; k < steps && here > step; ++k) {
    const Vec2 u = direction_at(path.back());
    if (u.x == 0 && u.y == 0) break;
    const Vec2 next = path.back() + step * u;
    const Real there = distance_at(next);
    // At the bottom (a goal whose cells, blended, stay more than a step away) a further
    // step would only go round it.
    if (std::isfinite(here) && !(there < here)) break;
    path.push_back(next);
    here = there;
  }
  return path;
}

}  // namespace contextsteer
