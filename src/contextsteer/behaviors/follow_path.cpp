#include "follow_path.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../cosine_lobes.hpp"
#include "../geometry.hpp"
#include "targets.hpp"

namespace contextsteer {

FollowPath::FollowPath(std::vector<Vec2> waypoints, Real lookahead, Real arrive_radius, Real slowing_radius,
                       Real window, bool loop, Real weight)
    : Behavior(weight),
      waypoints_(std::move(waypoints)),
      lookahead_(lookahead),
      arrive_radius_(arrive_radius),
      slowing_radius_(slowing_radius),
      window_(window),
      loop_(loop) {
  if (waypoints_.empty()) throw std::invalid_argument("waypoints: expected at least one waypoint");
  Targets{waypoints_, false}.check("waypoints");
  if (!(lookahead >= 0) || std::isinf(lookahead)) throw std::invalid_argument("lookahead: expected a finite distance >= 0");
  if (!(arrive_radius >= 0) || std::isinf(arrive_radius)) {
    throw std::invalid_argument("arrive_radius: expected a finite distance >= 0");
  }
  check_positive_distance(slowing_radius, "slowing_radius");
  check_positive_distance(window, "window");
  points_ = waypoints_;
  if (loop_) points_.push_back(waypoints_.front());
  cumulative_.assign(points_.size(), 0);
  for (std::size_t i = 1; i < points_.size(); ++i) {
    cumulative_[i] = cumulative_[i - 1] + contextsteer::length(points_[i] - points_[i - 1]);
  }
  if (loop_ && !(length() > 0)) throw std::invalid_argument("waypoints: a loop needs two distinct waypoints or more");
}

Real FollowPath::on_path(Real s) const {
  if (loop_) return s - length() * std::floor(s / length());
  return std::clamp(s, Real(0), length());
}

Real FollowPath::progress(Vec2 p, Real last) const {
  const bool anywhere = std::isnan(last);
  const Real from = anywhere ? Real(0) : on_path(last);
  const Real to = anywhere ? length() : from + window_;
  // The closest point of each segment's part within [from, to]; the first of equals. On
  // a loop the window may run on into the next lap: segments are met again, a length on.
  Real best_d2 = kInfinity, best_s = from;
  const int laps = loop_ && to > length() ? 2 : 1;
  for (int lap = 0; lap < laps; ++lap) {
    const Real offset = lap * length();
    for (std::size_t i = 0; i + 1 < points_.size(); ++i) {
      const Real s0 = cumulative_[i] + offset, s1 = cumulative_[i + 1] + offset;
      if (s1 < from || s0 > to) continue;
      const Real len = s1 - s0;
      const Vec2 a = points_[i], ab = points_[i + 1] - a;
      Real t = 0;  // along the segment, metres
      if (len > 0) t = std::clamp(dot(p - a, ab) / len, std::max(Real(0), from - s0), std::min(len, to - s0));
      const Real d2 = length_squared(p - (len > 0 ? a + ab * (t / len) : a));
      if (d2 < best_d2) best_d2 = d2, best_s = s0 + t;
    }
  }
  return on_path(std::max(best_s, from));  // rounding never takes progress back
}

Vec2 FollowPath::point_at(Real s) const {
  s = on_path(s);
  if (s >= length()) return points_.back();
  if (!(s > 0)) return points_.front();
  const auto seg = std::upper_bound(cumulative_.begin(), cumulative_.end(), s) - cumulative_.begin() - 1;
  const Vec2 a = points_[seg], b = points_[seg + 1];
  const Real len = cumulative_[seg + 1] - cumulative_[seg];
  return len > 0 ? a + (b - a) * ((s - cumulative_[seg]) / len) : a;
}

Vec2 FollowPath::aim(Real s, bool& at_end) const {
  const Real ahead = loop_ ? s + lookahead_ : std::min(s + lookahead_, length());
  at_end = !loop_ && ahead >= length();
  return point_at(ahead);
}

void FollowPath::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs,
                      Real* interest, Real*) const {
  add_block_lobes(interest, dirs, count, false, [&](int k, auto&& add) {
    const int a = agents[k];
    const Vec2 p = scene.position(a);
    const Real* kept = scene.memory_of(a);
    const Real s = progress(p, kept ? kept[0] : std::numeric_limits<Real>::quiet_NaN());
    if (Real* out = scene.memory_out_of(a)) out[0] = s;
    bool at_end = false;
    const Vec2 to = aim(s, at_end) - p;
    const Real d = contextsteer::length(to);
    if (d < Real(1e-6)) return;
    Real strength = 1;
    if (at_end) strength = d <= arrive_radius_ ? Real(0) : std::min(Real(1), d / slowing_radius_);
    add(to.x * strength / d, to.y * strength / d);
  });
}

}  // namespace contextsteer
