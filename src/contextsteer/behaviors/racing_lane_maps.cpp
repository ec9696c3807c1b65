#include "contextsteer/behaviors/racing_lane_maps.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace contextsteer {

namespace {

struct Placed {
  Real s;
  int car;
};

bool falls_with_distance(Falloff f) {
  return f == Falloff::Step || f == Falloff::Linear || f == Falloff::InverseSquare;
}

}  // namespace

void racing_lane_maps(const RacingLanes& r, const Real* positions, const Real* radius, int n, LaneMapsOut out) {
  const Track& track = r.track();
  const int lanes = r.lanes();
  const RacingLanesParams& params = r.params();
  const Real lookahead = params.lookahead;
  Real max_radius = 0;
  for (int a = 0; a < n; ++a) max_radius = std::max(max_radius, radius[a]);
  SceneView scene;
  scene.agents = n;
  scene.positions = positions;
  scene.radius = radius;
  scene.max_radius = max_radius;

  // Every car's place on the whole track, and per lane the cars that may span it, by s.
  std::vector<Real> s_of(n), e_of(n);
  for (int a = 0; a < n; ++a) track.locate(load(positions, a), s_of[a], e_of[a]);
  std::vector<std::vector<Placed>> by_lane(lanes);
  for (int o = 0; o < n; ++o) {
    int first = 0, last = -1;
    if (!r.lanes_spanned(e_of[o], radius[o] + max_radius, first, last)) continue;
    for (int j = first; j <= last; ++j) by_lane[j].push_back({s_of[o], o});
  }
  for (auto& cars : by_lane)
    std::sort(cars.begin(), cars.end(),
              [](const Placed& x, const Placed& y) { return x.s < y.s || (x.s == y.s && x.car < y.car); });

  const bool closed = track.closed();
  const double total = track.length();
  // Arc lengths (up to a few 1e9 m) round at a relative 6e-8 in float: far within this.
  const double margin = 1e-5 * (total + static_cast<double>(lookahead)) + 1e-6;
  const double reach_limit = (closed ? std::min(static_cast<double>(lookahead), total / 2) : lookahead) + margin;
  const bool stop_at_first = falls_with_distance(params.falloff);

  for (int a = 0; a < n; ++a) {
    Real* interest = out.interest + static_cast<std::size_t>(a) * lanes;
    Real* danger = out.danger + static_cast<std::size_t>(a) * lanes;
    Real* final_map = out.final_map + static_cast<std::size_t>(a) * lanes;
    Real s = 0, e = 0;
    r.locate_car(scene, a, s, e);
    r.start_lanes(s, interest, danger);
    const Vec2 p = load(positions, a);
    const Real within = r.sensing_distance(e, radius[a], max_radius);
    const Real within2 = within * within;
    for (int j = 0; j < lanes; ++j) {
      const std::vector<Placed>& cars = by_lane[j];
      const std::size_t m = cars.size();
      if (m == 0) continue;
      const std::size_t start =
          std::lower_bound(cars.begin(), cars.end(), s, [](const Placed& x, Real v) { return x.s < v; }) - cars.begin();
      double found_at = -1;  // the gap of the first car that put danger here
      for (std::size_t t = 0; t < m; ++t) {
        const std::size_t i = start + t < m ? start + t : start + t - m;
        if (!closed && i < start) break;
        const double gap = static_cast<double>(cars[i].s) - s + (i < start ? total : 0.0);
        if (gap > reach_limit || (found_at >= 0 && gap > found_at + margin)) break;
        const int o = cars[i].car;
        if (o == a) continue;
        // The tests of decide(), in its order, on the same numbers.
        const Vec2 q = load(positions, o);
        const Real dx = q.x - p.x, dy = q.y - p.y;
        if (!(dx * dx + dy * dy <= within2)) continue;
        const Real ds = track.ahead(s, s_of[o]);
        if (!(ds > 0) || ds > lookahead) continue;
        int first = 0, last = -1;
        r.lanes_spanned(e_of[o], radius[a] + radius[o], first, last);
        if (j < first || j > last) continue;
        danger[j] = std::max(danger[j], falloff_value(params.falloff, ds, lookahead));
        if (stop_at_first && found_at < 0) found_at = gap;
      }
    }
    const LaneDecision d = r.settle(s, e, interest, danger, final_map);
    out.lateral[a] = d.lateral;
    store(out.target, a, d.target);
    out.strength[a] = d.strength;
    out.blocked[a] = d.blocked ? 1 : 0;
  }
}

}  // namespace contextsteer
