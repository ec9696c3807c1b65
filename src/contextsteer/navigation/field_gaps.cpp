// How far each cell of a navigation field lies from the obstacles: the gaps that block
// cells and price the clearance margin, and the gaps to the obstacles on the left of the
// field's ways that price keeping right (navigation_field.hpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include "contextsteer/geometry/geometry.hpp"
#include "contextsteer/navigation/navigation_field.hpp"

namespace contextsteer {
namespace {

// A column or row counted from the grid's origin, clamped to [-1, count] before it becomes
// an int: a box that reaches far past the grid (a clearance or keep_right of many cells)
// still covers the whole grid instead of overflowing the cast.
int cell_index(Real cells, int count) { return static_cast<int>(std::clamp(cells, Real(-1), Real(count))); }

// Calls visit(column, row) for every cell of a columns x rows grid of `cell` metres from
// `origin` whose centre lies in the box [lo, hi].
template <class Visit>
void for_each_cell_in(Vec2 lo, Vec2 hi, Vec2 origin, Real cell, int columns, int rows, Visit&& visit) {
  const int c0 = std::max(0, cell_index(std::floor((lo.x - origin.x) / cell - Real(0.5)), columns));
  const int r0 = std::max(0, cell_index(std::floor((lo.y - origin.y) / cell - Real(0.5)), rows));
  const int c1 = std::min(columns - 1, cell_index(std::ceil((hi.x - origin.x) / cell - Real(0.5)), columns));
  const int r1 = std::min(rows - 1, cell_index(std::ceil((hi.y - origin.y) / cell - Real(0.5)), rows));
  for (int r = r0; r <= r1; ++r) {
    for (int c = c0; c <= c1; ++c) visit(c, r);
  }
}

}  // namespace

std::vector<Real> obstacle_gaps_on(const CellGrid& grid, const Obstacles& obstacles, LayerMask mask, Real reach) {
  std::vector<Real> gaps(static_cast<std::size_t>(grid.columns) * grid.rows, kInfinity);
  // Lowers the gap of the cells whose centre lies in the box [lo, hi] to gap_at(centre).
  auto near_box = [&](Vec2 lo, Vec2 hi, auto&& gap_at) {
    for_each_cell_in(lo, hi, grid.origin, grid.cell, grid.columns, grid.rows, [&](int c, int r) {
      Real& gap = gaps[static_cast<std::size_t>(r) * grid.columns + c];
      gap = std::min(gap, gap_at(grid.centre(c, r)));
    });
  };
  const Vec2 margin{reach, reach};
  const auto& circles = obstacles.circles();
  for (std::size_t i = 0; i < circles.size(); ++i) {
    if (!(mask & obstacles.circle_layers()[i])) continue;
    const Circle k = circles[i];
    const Vec2 extent{k.radius + reach, k.radius + reach};
    near_box(k.centre - extent, k.centre + extent,
             [&](Vec2 p) { return std::max(Real(0), length(p - k.centre) - k.radius); });
  }
  // Walls: free segments, polygon edges and the bounds' sides.
  const auto& walls = obstacles.walls();
  for (std::size_t i = 0; i < walls.size(); ++i) {
    if (!(mask & obstacles.wall_layers()[i])) continue;
    const Segment s = walls[i];
    const Vec2 lo{std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)}, hi{std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)};
    near_box(lo - margin, hi + margin, [&](Vec2 p) { return length(p - closest_point_on_segment(s, p)); });
  }
  // Polygon insides (their edges are walls above).
  const Vec2* vertices = obstacles.polygon_vertices().data();
  for (int k = 0; k < obstacles.polygon_count(); ++k) {
    if (!(mask & obstacles.polygon_layers()[k])) continue;
    const int begin = obstacles.polygon_start(k), count = obstacles.polygon_start(k + 1) - begin;
    Vec2 lo = vertices[begin], hi = vertices[begin];
    for (int i = begin; i < begin + count; ++i) {
      lo = {std::min(lo.x, vertices[i].x), std::min(lo.y, vertices[i].y)};
      hi = {std::max(hi.x, vertices[i].x), std::max(hi.y, vertices[i].y)};
    }
    near_box(lo, hi, [&](Vec2 p) { return point_in_polygon(vertices + begin, count, p) ? Real(0) : kInfinity; });
  }
  return gaps;
}

std::vector<Real> NavigationField::obstacle_gaps(const Obstacles& obstacles, LayerMask mask) const {
  std::vector<Real> gaps =
      obstacle_gaps_on({origin_, cell_, columns_, rows_}, obstacles, mask, clearance_ + half_diagonal());
  // Outside the bounds, whatever the mask (its sides are walls above, on every layer).
  if (obstacles.has_bounds()) {
    const Bounds& b = obstacles.bounds();
    for (int r = 0; r < rows_; ++r) {
      for (int c = 0; c < columns_; ++c) {
        const Vec2 p = centre(c, r);
        if (p.x < b.min.x || p.x > b.max.x || p.y < b.min.y || p.y > b.max.y) gaps[index(c, r)] = 0;
      }
    }
  }
  return gaps;
}

std::vector<Real> NavigationField::left_gaps(const Obstacles& obstacles, LayerMask mask, Real reach) const {
  std::vector<Real> gaps(static_cast<std::size_t>(columns_) * rows_, kInfinity);
  // Lowers the gap of the cells whose centre lies in the box [lo, hi] to the distance to
  // nearest(centre), where that point lies on the left of the cell's direction.
  auto near_box = [&](Vec2 lo, Vec2 hi, auto&& nearest) {
    for_each_cell_in(lo, hi, origin_, cell_, columns_, rows_, [&](int c, int r) {
      const std::size_t i = index(c, r);
      const Vec2 way{directions_[2 * i], directions_[2 * i + 1]};
      if (way.x == 0 && way.y == 0) return;
      const Vec2 p = centre(c, r);
      const Vec2 to = nearest(p) - p;
      if (way.x * to.y - way.y * to.x > 0) gaps[i] = std::min(gaps[i], length(to));
    });
  };
  const Vec2 margin{reach, reach};
  const auto& circles = obstacles.circles();
  for (std::size_t i = 0; i < circles.size(); ++i) {
    if (!(mask & obstacles.circle_layers()[i])) continue;
    const Circle k = circles[i];
    const Vec2 extent{k.radius + reach, k.radius + reach};
    near_box(k.centre - extent, k.centre + extent, [&](Vec2 p) {
      const Vec2 out = p - k.centre;
      const Real d = length(out);
      return d > 0 ? k.centre + out * (k.radius / d) : k.centre;
    });
  }
  // Walls: free segments, polygon edges and the bounds' sides.
  const auto& walls = obstacles.walls();
  for (std::size_t i = 0; i < walls.size(); ++i) {
    if (!(mask & obstacles.wall_layers()[i])) continue;
    const Segment s = walls[i];
    const Vec2 lo{std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)}, hi{std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)};
    near_box(lo - margin, hi + margin, [&](Vec2 p) { return closest_point_on_segment(s, p); });
  }
  return gaps;
}

}  // namespace contextsteer
