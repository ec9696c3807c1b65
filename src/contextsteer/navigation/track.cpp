#include "contextsteer/navigation/track.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/base/parameter_checks.hpp"

namespace contextsteer {

namespace {

// The centreline, checked before it becomes a polyline.
std::vector<Vec2> checked_centreline(std::vector<Vec2> points) {
  if (points.size() < 2)
    throw std::invalid_argument("centreline: expected at least 2 points, got " + std::to_string(points.size()));
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (!within_bound(points[k])) {
      throw std::invalid_argument("centreline: expected points within -1e9 to 1e9 in metres, got " +
                                  format_reals({points[k].x, points[k].y}) + " for point " + std::to_string(k));
    }
  }
  return points;
}

}  // namespace

Track::Track(std::vector<Vec2> centreline, Real half_width, std::vector<Real> racing_line, bool closed)
    : centreline_(checked_centreline(std::move(centreline)), closed),
      racing_line_(std::move(racing_line)),
      half_width_(half_width) {
  const std::size_t points = centreline_.vertices().size() - (closed ? 1 : 0);
  require_positive(half_width, "half_width", "a width", " in metres");
  if (racing_line_.empty()) racing_line_.assign(points, 0);
  if (racing_line_.size() != points) {
    throw std::invalid_argument("racing_line: expected one offset per centreline point, got " +
                                std::to_string(racing_line_.size()) + " for " + std::to_string(points));
  }
  for (std::size_t k = 0; k < racing_line_.size(); ++k) {
    if (!(std::fabs(racing_line_[k]) <= half_width)) {
      throw std::invalid_argument("racing_line: expected offsets within the half-width " + format_real(half_width) +
                                  " m, got " + format_real(racing_line_[k]) + " for point " + std::to_string(k));
    }
  }
  if (closed) racing_line_.push_back(racing_line_.front());
  if (!(length() > 0)) throw std::invalid_argument("centreline: expected a track of non-zero length");
}

void Track::locate(Vec2 p, Real& s, Real& e) const { locate_after(p, std::numeric_limits<Real>::quiet_NaN(), 0, s, e); }

void Track::locate_after(Vec2 p, Real last, Real window, Real& s, Real& e) const {
  const Polyline::Closest c = centreline_.closest_after(p, last, window);
  s = c.s;
  const Vec2 off = p - c.point;
  const Real cross = c.tangent.x * off.y - c.tangent.y * off.x;  // > 0 on the left
  e = std::copysign(std::sqrt(c.distance_squared), cross);
}

Vec2 Track::point_at(Real s, Real e, Vec2* tangent) const {
  Vec2 t;
  const Vec2 c = centreline_.point_at(s, &t);
  if (tangent) *tangent = t;
  return c + Vec2{-t.y, t.x} * e;
}

Real Track::racing_offset(Real s) const {
  Real f = 0;
  const int i = centreline_.leg_of(centreline_.on_path(s), f);
  return racing_line_[i] * (1 - f) + racing_line_[i + 1] * f;
}

Real Track::ahead(Real s1, Real s2) const {
  Real d = s2 - s1;
  if (closed()) {
    const Real total = length();
    d = std::remainder(d, total);
    if (d <= -total / 2) d += total;
  }
  return d;
}

}  // namespace contextsteer
