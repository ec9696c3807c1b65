#include "contextsteer/navigation/crowd_cost.hpp"

#include <algorithm>
#include <cmath>

namespace contextsteer {

void crowd_cost(const NavigationField& base, const SceneView& scene, std::int32_t group, Real home,
                const CrowdCost& cost, Real* extra) {
  const int columns = base.columns(), rows = base.rows();
  const Real cell = base.cell();
  const Vec2 origin = base.origin();
  const std::size_t cells = static_cast<std::size_t>(columns) * rows;
  std::fill(extra, extra + cells, Real(0));
  const Real* way = base.directions().data();
  const Real r2 = cost.radius * cost.radius;
  // The cells around an agent: those whose centres may lie within the radius.
  const int reach = static_cast<int>(std::ceil(cost.radius / cell));
  for (int a = 0; a < scene.agents; ++a) {
    const Vec2 p = scene.position(a);
    if ((group < 0 || scene.group_of(a) == group) && base.distance_at(p) <= home) continue;
    const Vec2 v = scene.velocity(a);
    // In cells from the first centre; an agent off the grid is spread from its edge.
    const Real u = std::clamp((p.x - origin.x) / cell - Real(0.5), Real(-1), Real(columns));
    const Real w = std::clamp((p.y - origin.y) / cell - Real(0.5), Real(-1), Real(rows));
    const int c0 = static_cast<int>(std::floor(u)), r0 = static_cast<int>(std::floor(w));
    auto weight = [&](int c, int r) {
      const Real dx = (c - u) * cell, dy = (r - w) * cell;
      const Real q = 1 - (dx * dx + dy * dy) / r2;
      return q > 0 ? q * q : Real(0);
    };
    // The weights' sum over the whole stencil, on the grid or not: an agent near the
    // edge puts on the grid only its share of it.
    Real sum = 0;
    for (int r = r0 - reach; r <= r0 + reach + 1; ++r) {
      for (int c = c0 - reach; c <= c0 + reach + 1; ++c) sum += weight(c, r);
    }
    auto add = [&](int c, int r, Real share) {
      if (c < 0 || c >= columns || r < 0 || r >= rows) return;
      const std::size_t i = static_cast<std::size_t>(r) * columns + c;
      const Real against = std::max(Real(0), -(v.x * way[2 * i] + v.y * way[2 * i + 1]));
      extra[i] += share * (cost.density + cost.counterflow * against);
    };
    const Real per_m2 = 1 / (cell * cell);
    if (!(sum > 0)) {
      add(static_cast<int>(std::lround(u)), static_cast<int>(std::lround(w)), per_m2);
      continue;
    }
    for (int r = std::max(0, r0 - reach); r <= std::min(rows - 1, r0 + reach + 1); ++r) {
      for (int c = std::max(0, c0 - reach); c <= std::min(columns - 1, c0 + reach + 1); ++c) {
        const Real wt = weight(c, r);
        if (wt > 0) add(c, r, wt / sum * per_m2);
      }
    }
  }
  for (std::size_t i = 0; i < cells; ++i) extra[i] = std::min(extra[i], kMaxCrowdCost);
}

}  // namespace contextsteer
