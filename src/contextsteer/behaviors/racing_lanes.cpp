#include "contextsteer/behaviors/racing_lanes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "contextsteer/maps/cosine_lobes.hpp"
#include "contextsteer/scene/evaluation_cache.hpp"

namespace contextsteer {

RacingLanes::RacingLanes(std::shared_ptr<const Track> track, const RacingLanesParams& params)
    : BehaviorWith(params), track_(std::move(track)) {
  if (!track_) throw std::invalid_argument("track: expected a track");
}

void RacingLanes::prepare(const SceneView& scene, const int*, int count, const SlotDirections& dirs) const {
  // Worth it when most agents are cars (the others would be located for no one), and
  // once per pipeline.
  if (!scene.grid || !scene.cache || 2 * static_cast<long long>(count) < scene.agents) return;
  if (scene.cache->find(this, &dirs)) return;
  Real* placed = scene.cache->store(this, &dirs, 2 * static_cast<std::size_t>(scene.agents));
  constexpr int kChunk = 64;
  const int chunks = (scene.agents + kChunk - 1) / kChunk;
  auto body = [&](int chunk, int) {
    const int end = std::min(scene.agents, (chunk + 1) * kChunk);
    for (int a = chunk * kChunk; a < end; ++a) track_->locate(scene.position(a), placed[2 * a], placed[2 * a + 1]);
  };
  scene.cache->pool().run(chunks, body);
}

void RacingLanes::locate_car(const SceneView& scene, int a, Real& s, Real& e) const {
  const Real* kept = scene.memory_of(a);
  track_->locate_after(scene.position(a), kept ? kept[0] : std::numeric_limits<Real>::quiet_NaN(), params_.window, s,
                       e);
}

void RacingLanes::start_lanes(Real s, Real* interest, Real* danger) const {
  const Real w = track_->half_width();
  const int lanes = params_.lanes;
  const Real line_width = std::isnan(params_.line_width) ? 2 * w : params_.line_width;
  const Real lane_width = 2 * w / static_cast<Real>(lanes);
  const Real line = track_->racing_offset(s + params_.lookahead);
  for (int j = 0; j < lanes; ++j) {
    const Real centre = -w + (static_cast<Real>(j) + Real(0.5)) * lane_width;
    interest[j] = std::max(Real(0), 1 - std::fabs(centre - line) / line_width);
    danger[j] = 0;
  }
}

Real RacingLanes::sensing_distance(Real e, Real radius, Real max_radius) const {
  return params_.lookahead + std::fabs(e) + track_->half_width() + radius + max_radius;
}

bool RacingLanes::lanes_spanned(Real e_other, Real reach, int& first, int& last) const {
  const Real w = track_->half_width();
  const int lanes = params_.lanes;
  const Real lane_width = 2 * w / static_cast<Real>(lanes);
  // Clamped before the cast, which keeps every lane index as it was and no int overflows.
  const Real low = std::clamp(std::floor((e_other - reach + w) / lane_width), Real(-1), static_cast<Real>(lanes));
  const Real high = std::clamp(std::floor((e_other + reach + w) / lane_width), Real(-1), static_cast<Real>(lanes));
  first = std::max(0, static_cast<int>(low));
  last = std::min(lanes - 1, static_cast<int>(high));
  return first <= last;
}

LaneDecision RacingLanes::decide(const SceneView& scene, int a, Real* interest, Real* danger, Real* final_map,
                                 const Real* placed) const {
  const Track& track = *track_;
  const Real lookahead = params_.lookahead;
  Real s = 0, e = 0;
  locate_car(scene, a, s, e);
  start_lanes(s, interest, danger);
  if (scene.grid) {
    const Real r = scene.radius_of(a);
    const LayerMask senses = scene.senses(a);
    // Every car that can put danger on a lane lies within this distance: its centreline
    // point is at most lookahead further along (a chord is no longer than its arc), each
    // car lies |e| from its own point, and a car more than w plus the two radii off the
    // centreline spans no lane. (A car on the far side of a wide track is farther than
    // lookahead though only a few metres ahead.)
    const Real within = sensing_distance(e, r, scene.max_radius);
    scene.grid->for_each_within(scene.position(a), within, [&](const Neighbor& n) {
      if (n.agent == a || !(senses & n.layer)) return;
      Real s_other = 0, e_other = 0;
      if (placed) {
        s_other = placed[2 * n.agent], e_other = placed[2 * n.agent + 1];
      } else {
        track.locate(n.position, s_other, e_other);
      }
      const Real ds = track.ahead(s, s_other);
      if (!(ds > 0) || ds > lookahead) return;
      const Real value = falloff_value(params_.falloff, ds, lookahead);
      // Lanes whose span [-w + j * lane_width, -w + (j + 1) * lane_width] meets the car's.
      int first = 0, last = -1;
      lanes_spanned(e_other, r + n.radius, first, last);
      for (int j = first; j <= last; ++j) danger[j] = std::max(danger[j], value);
    });
  }
  return settle(s, e, interest, danger, final_map);
}

LaneDecision RacingLanes::settle(Real s, Real e, const Real* interest, const Real* danger, Real* final_map) const {
  const Real w = track_->half_width();
  const int lanes = params_.lanes;
  const Real lane_width = 2 * w / static_cast<Real>(lanes);
  // Subtract, then the best lane refined by the parabola through its neighbors. Lanes
  // are not circular: the track's two edges are not neighbors, unlike a map's slots.
  for (int j = 0; j < lanes; ++j) final_map[j] = std::max(Real(0), interest[j] - danger[j]);
  const int best = static_cast<int>(std::max_element(final_map, final_map + lanes) - final_map);
  LaneDecision out;
  out.progress = s;
  out.blocked = !(final_map[best] > 0);
  out.strength = out.blocked ? Real(0) : std::min(Real(1), final_map[best]);
  Real lane = static_cast<Real>(best);
  if (!out.blocked && best > 0 && best + 1 < lanes) {
    const Real l = final_map[best - 1], c = final_map[best], r = final_map[best + 1];
    const Real curvature = l - 2 * c + r;
    if (curvature < 0) lane += std::clamp(Real(0.5) * (l - r) / curvature, Real(-0.5), Real(0.5));
  }
  out.lateral = out.blocked ? e : -w + (lane + Real(0.5)) * lane_width;
  out.target = track_->point_at(s + params_.lookahead, out.lateral);
  return out;
}

void RacingLanes::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                       Real*) const {
  Real lane_interest[kMaxLanes], lane_danger[kMaxLanes], lane_final[kMaxLanes];
  const Real* placed = scene.cache ? scene.cache->find(this, &dirs) : nullptr;
  add_block_lobes(interest, dirs, count, false, [&](int k, auto&& add) {
    const int a = agents[k];
    const LaneDecision d = decide(scene, a, lane_interest, lane_danger, lane_final, placed);
    if (Real* out = scene.memory_out_of(a)) out[0] = d.progress;
    const Vec2 to = d.target - scene.position(a);
    const Real dist = length(to);
    if (d.blocked || dist < Real(1e-6)) return;
    add(to.x * d.strength / dist, to.y * d.strength / dist);
  });
}

}  // namespace contextsteer
