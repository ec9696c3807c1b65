#include "track.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "geometry.hpp"

namespace contextsteer {

Track::Track(std::vector<Vec2> centreline, Real half_width, std::vector<Real> racing_line, bool closed)
    : points_(std::move(centreline)), racing_line_(std::move(racing_line)), half_width_(half_width), closed_(closed) {
  if (points_.size() < 2) throw std::invalid_argument("centreline: expected at least 2 points");
  for (const Vec2& p : points_) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) throw std::invalid_argument("centreline: expected finite points");
  }
  if (!(half_width > 0) || std::isinf(half_width)) {
    throw std::invalid_argument("half_width: expected a finite width > 0 in metres, got " + std::to_string(half_width));
  }
  if (racing_line_.empty()) racing_line_.assign(points_.size(), 0);
  if (racing_line_.size() != points_.size()) {
    throw std::invalid_argument("racing_line: expected one offset per centreline point, got " +
                                std::to_string(racing_line_.size()) + " for " + std::to_string(points_.size()));
  }
  for (Real e : racing_line_) {
    if (!(std::fabs(e) <= half_width)) throw std::invalid_argument("racing_line: expected offsets within the half-width");
  }
  if (closed_) {
    points_.push_back(points_.front());
    racing_line_.push_back(racing_line_.front());
  }
  cumulative_.assign(points_.size(), 0);
  for (std::size_t i = 1; i < points_.size(); ++i) cumulative_[i] = cumulative_[i - 1] + contextsteer::length(points_[i] - points_[i - 1]);
  if (!(length() > 0)) throw std::invalid_argument("centreline: expected a track of non-zero length");
}

void Track::locate(Vec2 p, Real& s, Real& e) const {
  Real best = kInfinity;
  for (std::size_t i = 0; i + 1 < points_.size(); ++i) {
    const Segment seg{points_[i], points_[i + 1]};
    const Vec2 c = closest_point_on_segment(seg, p);
    const Real d2 = length_squared(p - c);
    if (d2 < best) {
      best = d2;
      s = cumulative_[i] + contextsteer::length(c - points_[i]);
      const Vec2 t = seg.b - seg.a;
      const Real cross = t.x * (p.y - c.y) - t.y * (p.x - c.x);  // > 0 on the left
      e = std::copysign(std::sqrt(d2), cross);
    }
  }
}

int Track::segment_of(Real& s) const {
  const Real total = length();
  if (closed_) {
    s = std::fmod(s, total);
    if (s < 0) s += total;
  } else {
    s = std::clamp(s, Real(0), total);
  }
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), s);
  return std::clamp(static_cast<int>(it - cumulative_.begin()) - 1, 0, static_cast<int>(points_.size()) - 2);
}

Vec2 Track::point_at(Real s, Real e, Vec2* tangent) const {
  const int i = segment_of(s);
  const Vec2 a = points_[i], b = points_[i + 1];
  const Real len = cumulative_[i + 1] - cumulative_[i];
  const Vec2 t = len > 0 ? (b - a) * (1 / len) : Vec2{1, 0};
  if (tangent) *tangent = t;
  return a + t * (s - cumulative_[i]) + Vec2{-t.y, t.x} * e;
}

Real Track::racing_offset(Real s) const {
  const int i = segment_of(s);
  const Real len = cumulative_[i + 1] - cumulative_[i];
  const Real f = len > 0 ? (s - cumulative_[i]) / len : 0;
  return racing_line_[i] * (1 - f) + racing_line_[i + 1] * f;
}

Real Track::ahead(Real s1, Real s2) const {
  Real d = s2 - s1;
  if (closed_) {
    const Real total = length();
    d = std::remainder(d, total);
    if (d <= -total / 2) d += total;
  }
  return d;
}

}  // namespace contextsteer
