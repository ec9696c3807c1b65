#include "contextsteer/behaviors/follow_path.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/behaviors/support/targets.hpp"
#include "contextsteer/maps/cosine_lobes.hpp"

namespace contextsteer {

namespace {

// The waypoints, checked before they become a polyline.
std::vector<Vec2> checked_waypoints(const std::vector<Vec2>& waypoints) {
  if (waypoints.empty()) throw std::invalid_argument("waypoints: expected at least one waypoint, got none");
  Targets{waypoints, false}.check("waypoints");
  return waypoints;
}

}  // namespace

FollowPath::FollowPath(std::vector<Vec2> waypoints, Real lookahead, Real arrive_radius, Real slowing_radius,
                       Real window, bool loop, Real weight, Real sideways)
    : InterestBehavior(weight),
      waypoints_(checked_waypoints(waypoints)),
      path_(std::move(waypoints), loop),
      lookahead_(lookahead),
      arrive_radius_(arrive_radius),
      slowing_radius_(slowing_radius),
      window_(window),
      sideways_(sideways) {
  check_sideways(sideways);
  require_nonnegative(lookahead, "lookahead", "a distance", " in metres");
  require_nonnegative(arrive_radius, "arrive_radius", "a distance", " in metres");
  require_positive(slowing_radius, "slowing_radius", "a distance", " in metres");
  require_positive(window, "window", "a distance", " in metres");
  if (loop && !(length() > 0)) throw std::invalid_argument("waypoints: a loop needs two distinct waypoints or more");
}

Real FollowPath::progress(Vec2 p, Real last) const { return path_.closest_after(p, last, window_).s; }

Vec2 FollowPath::aim(Real s, bool& at_end) const {
  const Real ahead = loop() ? s + lookahead_ : std::min(s + lookahead_, length());
  at_end = !loop() && ahead >= length();
  return path_.point_at(ahead);
}

void FollowPath::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                      Real*) const {
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
    add_lobe(add, to, d, strength, sideways_);
  });
}

}  // namespace contextsteer
