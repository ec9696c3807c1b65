#include "follow_path.hpp"

#include <algorithm>
#include <cmath>

#include "../cosine_lobes.hpp"
#include "../geometry.hpp"
#include "targets.hpp"

namespace contextsteer {

FollowPath::FollowPath(std::vector<Vec2> waypoints, Real lookahead, Real arrive_radius, Real slowing_radius,
                       Real weight)
    : Behavior(weight),
      waypoints_(std::move(waypoints)),
      lookahead_(lookahead),
      arrive_radius_(arrive_radius),
      slowing_radius_(slowing_radius) {
  if (waypoints_.empty()) throw std::invalid_argument("waypoints: expected at least one waypoint");
  Targets{waypoints_, false}.check("waypoints");
  if (!(lookahead >= 0) || std::isinf(lookahead)) throw std::invalid_argument("lookahead: expected a finite distance >= 0");
  if (!(arrive_radius >= 0) || std::isinf(arrive_radius)) {
    throw std::invalid_argument("arrive_radius: expected a finite distance >= 0");
  }
  check_positive_distance(slowing_radius, "slowing_radius");
  cumulative_.assign(waypoints_.size(), 0);
  for (std::size_t i = 1; i < waypoints_.size(); ++i) {
    cumulative_[i] = cumulative_[i - 1] + length(waypoints_[i] - waypoints_[i - 1]);
  }
}

Vec2 FollowPath::aim(Vec2 p, bool& at_end) const {
  // The closest point of the path, as an arc length.
  Real best_d2 = kInfinity, best_s = 0;
  for (std::size_t i = 0; i + 1 < waypoints_.size(); ++i) {
    const Vec2 c = closest_point_on_segment({waypoints_[i], waypoints_[i + 1]}, p);
    const Real d2 = length_squared(p - c);
    if (d2 < best_d2) best_d2 = d2, best_s = cumulative_[i] + length(c - waypoints_[i]);
  }
  const Real total = cumulative_.back();
  const Real s = std::min(best_s + lookahead_, total);
  at_end = s >= total;
  if (at_end) return waypoints_.back();
  const auto seg = std::upper_bound(cumulative_.begin(), cumulative_.end(), s) - cumulative_.begin() - 1;
  const Vec2 a = waypoints_[seg], b = waypoints_[seg + 1];
  const Real len = cumulative_[seg + 1] - cumulative_[seg];
  return len > 0 ? a + (b - a) * ((s - cumulative_[seg]) / len) : a;
}

void FollowPath::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs,
                      Real* interest, Real*) const {
  add_block_lobes(interest, dirs, count, false, [&](int k, auto&& add) {
    const Vec2 p = scene.position(agents[k]);
    bool at_end = false;
    const Vec2 to = aim(p, at_end) - p;
    const Real d = length(to);
    if (d < Real(1e-6)) return;
    Real strength = 1;
    if (at_end) strength = d <= arrive_radius_ ? Real(0) : std::min(Real(1), d / slowing_radius_);
    add(to.x * strength / d, to.y * strength / d);
  });
}

}  // namespace contextsteer
