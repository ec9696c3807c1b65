#include "contextsteer/navigation/polyline.hpp"

#include <algorithm>
#include <cmath>

namespace contextsteer {

Polyline::Polyline(std::vector<Vec2> points, bool closed) : vertices_(std::move(points)), closed_(closed) {
  if (closed_ && !vertices_.empty()) vertices_.push_back(vertices_.front());
  cumulative_.assign(std::max<std::size_t>(vertices_.size(), 1), 0);
  for (std::size_t i = 1; i < vertices_.size(); ++i) {
    cumulative_[i] = cumulative_[i - 1] + contextsteer::length(vertices_[i] - vertices_[i - 1]);
  }
  std::vector<Segment> legs;
  for (std::size_t i = 0; i + 1 < vertices_.size(); ++i) legs.push_back({vertices_[i], vertices_[i + 1]});
  legs_.add_segments(legs);
  legs_.prepare_index(CellSizing::kSpread);  // for closest(p), below
}

Real Polyline::on_path(Real s) const {
  if (closed_ && length() > 0) return s - length() * std::floor(s / length());
  return std::clamp(s, Real(0), length());
}

int Polyline::leg_of(Real s, Real& fraction) const {
  fraction = 0;
  const int legs = static_cast<int>(vertices_.size()) - 1;
  if (legs < 1) return 0;
  const auto after = std::upper_bound(cumulative_.begin(), cumulative_.end(), s);
  const int leg = std::clamp(static_cast<int>(after - cumulative_.begin()) - 1, 0, legs - 1);
  const Real len = cumulative_[leg + 1] - cumulative_[leg];
  if (len > 0) fraction = std::clamp((s - cumulative_[leg]) / len, Real(0), Real(1));
  return leg;
}

Vec2 Polyline::point_at(Real s, Vec2* tangent) const {
  Real fraction = 0;
  const int leg = leg_of(on_path(s), fraction);
  if (vertices_.size() < 2) {
    if (tangent) *tangent = {1, 0};
    return vertices_.front();
  }
  const Vec2 a = vertices_[leg], ab = vertices_[leg + 1] - a;
  const Real len = cumulative_[leg + 1] - cumulative_[leg];
  if (tangent) *tangent = len > 0 ? ab * (1 / len) : Vec2{1, 0};
  return a + ab * fraction;
}

Polyline::Closest Polyline::closest_on_leg(Vec2 p, std::size_t i, Real offset, Real from, Real to) const {
  const Real s0 = cumulative_[i] + offset, s1 = cumulative_[i + 1] + offset;
  const Real len = s1 - s0;
  const Vec2 a = vertices_[i], ab = vertices_[i + 1] - a;
  Real t = 0;  // metres along the leg, within its part of [from, to]
  if (len > 0) t = std::clamp(dot(p - a, ab) / len, std::max(Real(0), from - s0), std::min(len, to - s0));
  Closest c;
  c.point = len > 0 ? a + ab * (t / len) : a;
  c.s = s0 + t;
  c.tangent = len > 0 ? ab * (1 / len) : Vec2{1, 0};
  c.distance_squared = length_squared(p - c.point);
  return c;
}

Polyline::Closest Polyline::closest(Vec2 p, Real from, Real to) const {
  const Real span = std::max(Real(0), to - from);
  from = on_path(from);
  to = from + span;
  Closest best;
  best.s = from;
  best.point = point_at(from, &best.tangent);
  best.distance_squared = kInfinity;
  if (vertices_.size() < 2) {
    best.distance_squared = length_squared(p - best.point);
    return best;
  }
  // On a closed polyline the range may run on into the next lap: legs are met again, a
  // length further on.
  const int laps = closed_ && to > length() ? 2 : 1;
  const std::size_t legs = vertices_.size() - 1;
  for (int lap = 0; lap < laps; ++lap) {
    const Real offset = static_cast<Real>(lap) * length();
    // The legs that meet [from, to] follow one another: from the first that does not end
    // before `from` (found by halving, as ends only grow) to the last that starts by `to`.
    std::size_t i = std::partition_point(cumulative_.begin() + 1, cumulative_.end(),
                                         [&](Real end) { return end + offset < from; }) -
                    (cumulative_.begin() + 1);
    for (; i < legs && cumulative_[i] + offset <= to; ++i) {
      const Closest c = closest_on_leg(p, i, offset, from, to);
      if (c.distance_squared < best.distance_squared) best = c;
    }
  }
  best.s = on_path(std::max(best.s, from));  // rounding never takes s below `from`
  return best;
}

Polyline::Closest Polyline::closest(Vec2 p) const {
  if (!legs_.indexed() || !std::isfinite(p.x) || !std::isfinite(p.y)) return closest(p, 0, length());
  // The legs within `reach` of p, for a reach doubled until the closest of them lies
  // well inside it: no leg beyond reach can then be as close, so the result is that of
  // every leg. Equally close legs go to the first, as in closest(p, from, to). Far from
  // the polyline the rounds would measure more legs than it has: it is measured whole.
  const std::size_t legs = vertices_.size() - 1;
  std::size_t measured = 0;
  for (Real reach = legs_.index().cell(); measured < legs / 2; reach *= 2) {
    Closest best;
    best.distance_squared = kInfinity;
    std::size_t best_leg = 0;
    legs_.for_each_near(
        p, reach, [](int) {},
        [&](int leg) {
          const std::size_t i = static_cast<std::size_t>(leg);
          const Closest c = closest_on_leg(p, i, 0, 0, length());
          ++measured;
          if (c.distance_squared < best.distance_squared ||
              (c.distance_squared == best.distance_squared && i < best_leg)) {
            best = c;
            best_leg = i;
          }
        });
    // Half the reach: a margin far above the rounding of the distances.
    if (best.distance_squared <= Real(0.25) * reach * reach) {
      best.s = on_path(std::max(best.s, Real(0)));
      return best;
    }
  }
  return closest(p, 0, length());
}

}  // namespace contextsteer
