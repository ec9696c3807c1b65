#include "follow_path.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../cosine_lobes.hpp"
#include "../geometry.hpp"
#include "targets.hpp"

namespace contextsteer {

FollowPath::FollowPath(std::vector<Vec2> waypoints, Real lookahead, Real arrive_radius, Real slowing_radius,
                       Real window, Real weight)
    : Behavior(weight),
      waypoints_(std::move(waypoints)),
      lookahead_(lookahead),
      arrive_radius_(arrive_radius),
      slowing_radius_(slowing_radius),
      window_(window) {
  if (waypoints_.empty()) throw std::invalid_argument("waypoints: expected at least one waypoint");
  Targets{waypoints_, false}.check("waypoints");
  if (!(lookahead >= 0) || std::isinf(lookahead)) throw std::invalid_argument("lookahead: expected a finite distance >= 0");
  if (!(arrive_radius >= 0) || std::isinf(arrive_radius)) {
    throw std::invalid_argument("arrive_radius: expected a finite distance >= 0");
  }
  check_positive_distance(slowing_radius, "slowing_radius");
  check_positive_distance(window, "window");
  cumulative_.assign(waypoints_.size(), 0);
  for (std::size_t i = 1; i < waypoints_.size(); ++i) {
    cumulative_[i] = cumulative_[i - 1] + contextsteer::length(waypoints_[i] - waypoints_[i - 1]);
  }
}

Real FollowPath::progress(Vec2 p, Real last) const {
  const bool anywhere = std::isnan(last);
  const Real from = anywhere ? Real(0) : std::clamp(last, Real(0), length());
  const Real to = anywhere ? length() : from + window_;
  // The closest point of each segment's part within [from, to]; the first of equals.
  Real best_d2 = kInfinity, best_s = from;
  for (std::size_t i = 0; i + 1 < waypoints_.size(); ++i) {
    const Real s0 = cumulative_[i], s1 = cumulative_[i + 1];
    if (s1 < from || s0 > to) continue;
    const Real len = s1 - s0;
    const Vec2 a = waypoints_[i], ab = waypoints_[i + 1] - a;
    Real t = 0;  // along the segment, metres
    if (len > 0) t = std::clamp(dot(p - a, ab) / len, std::max(Real(0), from - s0), std::min(len, to - s0));
    const Real d2 = length_squared(p - (len > 0 ? a + ab * (t / len) : a));
    if (d2 < best_d2) best_d2 = d2, best_s = s0 + t;
  }
  return std::max(best_s, from);  // rounding never takes progress back
}

Vec2 FollowPath::point_at(Real s) const {
  if (s >= length()) return waypoints_.back();
  if (!(s > 0)) return waypoints_.front();
  const auto seg = std::upper_bound(cumulative_.begin(), cumulative_.end(), s) - cumulative_.begin() - 1;
  const Vec2 a = waypoints_[seg], b = waypoints_[seg + 1];
  const Real len = cumulative_[seg + 1] - cumulative_[seg];
  return len > 0 ? a + (b - a) * ((s - cumulative_[seg]) / len) : a;
}

Vec2 FollowPath::aim(Real s, bool& at_end) const {
  const Real ahead = std::min(s + lookahead_, length());
  at_end = ahead >= length();
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
