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
  std::vector<Real>& cost = costs_;
  cost.assign(gaps.size(), 1);
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
  MarchBuffers buffers;
  march(cost, buffers, true);
  point_downhill();
  if (keep_right > 0) {
    const std::vector<Real> left = left_gaps(obstacles, mask, keep_right);
    for (std::size_t i = 0; i < left.size(); ++i) {
      if (blocked_[i] || !(left[i] < keep_right)) continue;
      const Real closeness = 1 - left[i] / keep_right;
      cost[i] += kLaneCost * closeness * closeness;
    }
    march(cost, buffers, true);
    point_downhill();
  }
  std::vector<Real>().swap(way_out_);  // the directions hold what it was for
}

NavigationField NavigationField::from_cells(Vec2 origin, Real cell, Real clearance, int columns, int rows,
                                            std::vector<Vec2> goals, std::vector<Bounds> goal_areas,
                                            std::vector<Real> distances, std::vector<Real> directions,
                                            std::vector<std::uint8_t> blocked, std::vector<Real> costs) {
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
  if (costs.empty()) {
    costs.assign(cells, 1);
  } else {
    require_size(costs.size(), cells, "costs");
  }
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
    if (!(costs[i] >= 1 && costs[i] <= kMaxCost)) {
      throw std::invalid_argument("costs: expected values from 1 to " + format_real(kMaxCost) + ", got " +
                                  format_real(costs[i]) + " at cell " + std::to_string(i));
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
  field.costs_ = std::move(costs);
  return field;
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
  // A blocked corner leads out of its wall on its own side, which beside a door's jamb
  // may be back into the room: where a free corner with a direction is among the four,
  // only free corners count (blocked ones only when all are).
  bool free_way = false;
  for_each_corner(p, [&](std::size_t i, Real w) {
    free_way = free_way || (w > 0 && !blocked_[i] && (directions_[2 * i] != 0 || directions_[2 * i + 1] != 0));
  });
  const auto counts = [&](std::size_t i) { return !free_way || !blocked_[i]; };
  // On a ridge between two ways round an obstacle, the corners on either side point
  // apart, and their blend would point along the ridge, straight at the obstacle: blend
  // only the corners that agree with the nearest one (all of them elsewhere).
  Vec2 nearest{};
  Real nearest_weight = -1;
  for_each_corner(p, [&](std::size_t i, Real w) {
    if (counts(i) && w > nearest_weight) nearest = load(directions_.data(), i), nearest_weight = w;
  });
  const bool has_side = nearest.x != 0 || nearest.y != 0;
  Vec2 sum{};
  for_each_corner(p, [&](std::size_t i, Real w) {
    const Vec2 d = load(directions_.data(), i);
    if (counts(i) && (!has_side || dot(d, nearest) > 0)) sum = sum + w * d;
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
