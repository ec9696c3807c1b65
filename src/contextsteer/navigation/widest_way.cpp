#include "contextsteer/navigation/widest_way.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/geometry/geometry.hpp"
#include "contextsteer/navigation/obstacle_gaps.hpp"

namespace contextsteer {
namespace {

// Metres from p to the nearest obstacle (0 inside a circle or polygon), kInfinity with none.
Real clear_radius(const Obstacles& obstacles, Vec2 p) {
  Real best = kInfinity;
  for (const Circle& k : obstacles.circles()) best = std::min(best, std::max(Real(0), length(p - k.centre) - k.radius));
  for (const Segment& s : obstacles.walls()) best = std::min(best, length(p - closest_point_on_segment(s, p)));
  const Vec2* vertices = obstacles.polygon_vertices().data();
  for (int k = 0; k < obstacles.polygon_count(); ++k) {
    const int begin = obstacles.polygon_start(k);
    if (point_in_polygon(vertices + begin, obstacles.polygon_start(k + 1) - begin, p)) return 0;
  }
  return best;
}

// Whether an obstacle's box comes within `reach` of the area.
bool obstacle_near(const Obstacles& obstacles, const Bounds& area, Real reach) {
  auto overlaps = [&](Vec2 lo, Vec2 hi) {
    return lo.x <= area.max.x + reach && hi.x >= area.min.x - reach && lo.y <= area.max.y + reach &&
           hi.y >= area.min.y - reach;
  };
  for (const Circle& k : obstacles.circles()) {
    const Vec2 r{k.radius, k.radius};
    if (overlaps(k.centre - r, k.centre + r)) return true;
  }
  for (const Segment& s : obstacles.walls()) {
    if (overlaps({std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)}, {std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)})) {
      return true;
    }
  }
  return false;  // a polygon's edges are walls
}

}  // namespace

Real widest_way(const Obstacles& obstacles, const Bounds& area, Real cell, const std::vector<Bounds>& goal_areas,
                const std::vector<Vec2>& starts, Real cap) {
  if (!within_bound(area.min) || !within_bound(area.max) || !(area.min.x < area.max.x) || !(area.min.y < area.max.y)) {
    throw std::invalid_argument(
        "area: expected (xmin, ymin, xmax, ymax) within -1e9 to 1e9 with xmin < xmax and ymin < ymax, got " +
        format_reals({area.min.x, area.min.y, area.max.x, area.max.y}));
  }
  require_positive(cell, "cell", "a size", " in metres");
  require_positive(cap, "cap", "a distance", " in metres");
  if (goal_areas.empty()) throw std::invalid_argument("goal_areas: expected at least one goal area");
  for (const Bounds& b : goal_areas) {
    if (!within_bound(b.min) || !within_bound(b.max)) {
      throw std::invalid_argument("goal_areas: expected rectangles within -1e9 to 1e9");
    }
  }
  for (const Vec2 s : starts) {
    if (!within_bound(s)) throw std::invalid_argument("starts: expected points within -1e9 to 1e9");
  }
  if (starts.empty()) return cap;
  // The lattice's points, from area.min to past area.max: the centres of cells of the
  // same size from half a cell before area.min.
  const double columns = std::ceil((double(area.max.x) - area.min.x) / cell) + 1;
  const double rows = std::ceil((double(area.max.y) - area.min.y) / cell) + 1;
  if (columns * rows > double(kMaxWayCells)) {
    throw std::invalid_argument("cell: " + format_real(cell) + " m makes " + format_real(Real(columns)) + " x " +
                                format_real(Real(rows)) + " cells over the area, more than " +
                                std::to_string(kMaxWayCells) + "; take a larger cell");
  }
  // With no obstacle within the cap of the area, every way keeps it.
  if (!obstacle_near(obstacles, area, cap)) return cap;
  const CellGrid grid{area.min - Vec2{cell / 2, cell / 2}, cell, static_cast<int>(columns), static_cast<int>(rows)};
  std::vector<Real> gap = obstacle_gaps_on(grid, obstacles, kAllLayers, cap);
  // A cell within half its diagonal of an obstacle is shut (gap 0), as a field blocks it:
  // no wall slips between two open cells.
  const Real shut = cell * Real(0.70710678) * Real(1.0001);
  for (Real& g : gap) g = g <= shut ? Real(0) : std::min(g, cap);
  // With no cell narrower than the cap, every way keeps it.
  if (std::all_of(gap.begin(), gap.end(), [cap](Real g) { return g >= cap; })) return cap;

  // Widest cells first: each cell's widest way to a goal area is its own gap in a goal
  // area, else the widest of its neighbours' capped by its gap. -1: not reached.
  const std::size_t cells = gap.size();
  std::vector<Real> width(cells, Real(-1));
  using Entry = std::pair<Real, std::int64_t>;  // width, and -index: ties go to the lower index
  std::priority_queue<Entry> trial;
  for (int r = 0; r < grid.rows; ++r) {
    for (int c = 0; c < grid.columns; ++c) {
      const Vec2 p = grid.centre(c, r);
      const std::size_t i = static_cast<std::size_t>(r) * grid.columns + c;
      for (const Bounds& b : goal_areas) {
        if (gap[i] > 0 && p.x >= b.min.x && p.x <= b.max.x && p.y >= b.min.y && p.y <= b.max.y) {
          width[i] = gap[i];
          trial.push({gap[i], -static_cast<std::int64_t>(i)});
          break;
        }
      }
    }
  }
  std::vector<std::uint8_t> done(cells, 0);
  while (!trial.empty()) {
    const Entry top = trial.top();
    trial.pop();
    const Real w = top.first;
    const std::size_t i = static_cast<std::size_t>(-top.second);
    if (done[i]) continue;
    done[i] = 1;
    const int c = static_cast<int>(i % grid.columns), r = static_cast<int>(i / grid.columns);
    auto reach = [&](int cc, int rr) {
      if (cc < 0 || cc >= grid.columns || rr < 0 || rr >= grid.rows) return;
      const std::size_t j = static_cast<std::size_t>(rr) * grid.columns + cc;
      const Real kept = std::min(w, gap[j]);
      if (done[j] || !(kept > 0) || !(kept > width[j])) return;
      width[j] = kept;
      trial.push({kept, -static_cast<std::int64_t>(j)});
    };
    reach(c - 1, r), reach(c + 1, r), reach(c, r - 1), reach(c, r + 1);
  }

  // Each start: the widest way to a cell within its clear disc (and 2 (cap + cell)).
  Real widest = cap;
  for (const Vec2 s : starts) {
    const Real disc = std::min(clear_radius(obstacles, s), 2 * (cap + cell));
    Real best = 0;
    const int c0 = std::max(0, static_cast<int>(std::floor((s.x - disc - grid.origin.x) / cell)));
    const int r0 = std::max(0, static_cast<int>(std::floor((s.y - disc - grid.origin.y) / cell)));
    const int c1 = std::min(grid.columns - 1, static_cast<int>(std::floor((s.x + disc - grid.origin.x) / cell)));
    const int r1 = std::min(grid.rows - 1, static_cast<int>(std::floor((s.y + disc - grid.origin.y) / cell)));
    for (int r = r0; r <= r1; ++r) {
      for (int c = c0; c <= c1; ++c) {
        if (length(grid.centre(c, r) - s) < disc)
          best = std::max(best, width[static_cast<std::size_t>(r) * grid.columns + c]);
      }
    }
    widest = std::min(widest, best);
  }
  return widest;
}

}  // namespace contextsteer
