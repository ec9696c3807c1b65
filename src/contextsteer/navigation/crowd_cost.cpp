#include "contextsteer/navigation/crowd_cost.hpp"

#include <algorithm>
#include <cmath>

namespace contextsteer {

void crowd_cost(const NavigationField& base, const SceneView& scene, std::int32_t group, Real home,
                const CrowdCost& cost, Real* extra, std::vector<Real>& stencil) {
  const int columns = base.columns(), rows = base.rows();
  const Real cell = base.cell();
  const Vec2 origin = base.origin();
  const std::size_t cells = static_cast<std::size_t>(columns) * rows;
  std::fill(extra, extra + cells, Real(0));
  const Real* way = base.directions().data();
  const Real r2 = cost.radius * cost.radius;
  // The cells around an agent: those whose centres may lie within the radius, `side` a
  // side, from `reach` before the agent's first centre to reach + 1 after it.
  const int reach = static_cast<int>(std::ceil(cost.radius / cell));
  const int side = 2 * reach + 2;
  // Scratch: each column's and row's squared offset from the agent, m^2, then the
  // weights of the stencil's cells, row by row.
  const std::size_t room = static_cast<std::size_t>(side) * (side + 2);
  if (stencil.size() < room) stencil.resize(room);
  Real* dx2 = stencil.data();
  Real* dy2 = dx2 + side;
  Real* weights = dy2 + side;
  const Real per_m2 = 1 / (cell * cell);
  for (int a = 0; a < scene.agents; ++a) {
    const Vec2 p = scene.position(a);
    if ((group < 0 || scene.group_of(a) == group) && base.distance_at(p) <= home) continue;
    // An agent farther off the grid than it is spread reaches none of its cells.
    if (p.x < origin.x - cost.radius || p.y < origin.y - cost.radius || p.x > origin.x + columns * cell + cost.radius ||
        p.y > origin.y + rows * cell + cost.radius) {
      continue;
    }
    const Vec2 v = scene.velocity(a);
    // In cells from the first centre; an agent just off the grid is spread from its edge.
    const Real u = std::clamp((p.x - origin.x) / cell - Real(0.5), Real(-1), Real(columns));
    const Real w = std::clamp((p.y - origin.y) / cell - Real(0.5), Real(-1), Real(rows));
    const int c0 = static_cast<int>(std::floor(u)), r0 = static_cast<int>(std::floor(w));
    const int c_first = c0 - reach, r_first = r0 - reach;
    for (int k = 0; k < side; ++k) {
      const Real dx = (c_first + k - u) * cell, dy = (r_first + k - w) * cell;
      dx2[k] = dx * dx;
      dy2[k] = dy * dy;
    }
    // The weight (1 - d^2 / radius^2)^2 of each cell, 0 beyond the radius; a row whose
    // offset alone reaches the radius is 0 throughout, and left out.
    auto row_is_empty = [&](int j) { return !(dy2[j] < r2); };
    // The weights' sum over the whole stencil, on the grid or not, in row order: an agent
    // near the edge puts on the grid only its share of it.
    Real sum = 0;
    for (int j = 0; j < side; ++j) {
      if (row_is_empty(j)) continue;
      Real* row = weights + static_cast<std::size_t>(j) * side;
      for (int k = 0; k < side; ++k) {
        const Real q = 1 - (dx2[k] + dy2[j]) / r2;
        row[k] = q > 0 ? q * q : Real(0);
      }
      for (int k = 0; k < side; ++k) sum += row[k];
    }
    auto add = [&](int c, int r, Real share) {
      const std::size_t i = static_cast<std::size_t>(r) * columns + c;
      const Real against = std::max(Real(0), -(v.x * way[2 * i] + v.y * way[2 * i + 1]));
      extra[i] += share * (cost.density + cost.counterflow * against);
    };
    if (!(sum > 0)) {
      const int c = static_cast<int>(std::lround(u)), r = static_cast<int>(std::lround(w));
      if (c >= 0 && c < columns && r >= 0 && r < rows) add(c, r, per_m2);
      continue;
    }
    for (int r = std::max(0, r_first); r <= std::min(rows - 1, r0 + reach + 1); ++r) {
      if (row_is_empty(r - r_first)) continue;
      const Real* row = weights + static_cast<std::size_t>(r - r_first) * side;
      for (int c = std::max(0, c_first); c <= std::min(columns - 1, c0 + reach + 1); ++c) {
        const Real wt = row[c - c_first];
        if (wt > 0) add(c, r, wt / sum * per_m2);
      }
    }
  }
  for (std::size_t i = 0; i < cells; ++i) extra[i] = std::min(extra[i], kMaxCrowdCost);
}

}  // namespace contextsteer
