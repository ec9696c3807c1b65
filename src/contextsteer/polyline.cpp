#include "polyline.hpp"

#include <algorithm>
#include <cmath>

namespace contextsteer {

Polyline::Polyline(std::vector<Vec2> points, bool closed) : vertices_(std::move(points)), closed_(closed) {
  if (closed_ && !vertices_.empty()) vertices_.push_back(vertices_.front());
  cumulative_.assign(std::max<std::size_t>(vertices_.size(), 1), 0);
  for (std::size_t i = 1; i < vertices_.size(); ++i) {
    cumulative_[i] = cumulative_[i - 1] + contextsteer::length(vertices_[i] - vertices_[i - 1]);
  }
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
  for (int lap = 0; lap < laps; ++lap) {
    const Real offset = static_cast<Real>(lap) * length();
    for (std::size_t i = 0; i + 1 < vertices_.size(); ++i) {
      const Real s0 = cumulative_[i] + offset, s1 = cumulative_[i + 1] + offset;
      if (s1 < from || s0 > to) continue;
      const Real len = s1 - s0;
      const Vec2 a = vertices_[i], ab = vertices_[i + 1] - a;
      Real t = 0;  // metres along the leg, within its part of [from, to]
      if (len > 0) t = std::clamp(dot(p - a, ab) / len, std::max(Real(0), from - s0), std::min(len, to - s0));
      const Vec2 c = len > 0 ? a + ab * (t / len) : a;
      const Real d2 = length_squared(p - c);
      if (d2 < best.distance_squared) {
        best.distance_squared = d2;
        best.s = s0 + t;
        best.point = c;
        best.tangent = len > 0 ? ab * (1 / len) : Vec2{1, 0};
      }
    }
  }
  best.s = on_path(std::max(best.s, from));  // rounding never takes s below `from`
  return best;
}

}  // namespace contextsteer
