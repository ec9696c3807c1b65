#include "contextsteer/behaviors/follow_path.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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

// The path through `waypoints`, looped or not; throws std::invalid_argument for a loop of
// fewer than two distinct waypoints.
Polyline path_through(const std::vector<Vec2>& waypoints, bool loop) {
  Polyline path(waypoints, loop);
  if (loop && !(path.length() > 0))
    throw std::invalid_argument("waypoints: a loop needs two distinct waypoints or more");
  return path;
}

}  // namespace

FollowPath::FollowPath(std::vector<Vec2> waypoints, const FollowPathParams& params)
    : BehaviorWith(params), waypoints_(checked_waypoints(waypoints)), path_(path_through(waypoints_, params.loop)) {}

void FollowPath::set_params(const FollowPathParams& params, const char* what) {
  Polyline path = path_through(waypoints_, params.loop);
  BehaviorWith::set_params(params, what, [&] { path_ = std::move(path); });
}

Real FollowPath::progress(Vec2 p, Real last) const { return path_.closest_after(p, last, params_.window).s; }

Vec2 FollowPath::aim(Real s, bool& at_end) const {
  const Real lookahead = params_.lookahead;
  const Real ahead = loop() ? s + lookahead : std::min(s + lookahead, length());
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
    Vec2 to = aim(s, at_end) - p;
    if (at_end && params_.to_target) to = scene.target_of(a) - p;
    const Real d = contextsteer::length(to);
    if (d < Real(1e-6)) return;
    Real strength = 1;
    if (at_end) strength = d <= params_.arrive_radius ? Real(0) : std::min(Real(1), d / params_.slowing_radius);
    add_lobe(add, to, d, strength, params_.sideways);
  });
}

}  // namespace contextsteer
