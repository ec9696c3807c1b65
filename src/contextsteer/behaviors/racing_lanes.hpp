// RacingLanes (Fray's racing use): a context map whose slots are lateral offsets across
// the track `lookahead` metres ahead, not headings.
//
// Lane j of L spans the track's width evenly; its centre is at lateral offset
// e_j = -w + (j + 0.5) * 2w / L (w the half-width). For a car at arc length s:
//   interest_j = max(0, 1 - |e_j - line(s + lookahead)| / line_width), peaking on the
//                racing line there;
//   danger_j   = falloff(ds / lookahead) for every lane whose span meets
//                [e_o - reach, e_o + reach] of another car ds metres ahead
//                (0 < ds <= lookahead, reach = the two radii), max over cars.
// The lanes resolve by subtract, the best lane and the parabola through its two
// neighbors (lanes are not circular: the edges are not neighbors) into a fractional
// lane, hence a lateral target; the behaviour then fills the pipeline's interest with a cosine lobe
// toward the track point at (s + lookahead, that target), times the lane's final value.
// A car with no lane left aims straight ahead at its present offset, with strength 0.
//
// A car's s is its closest centreline point. In a world it is kept from step to step and
// sought along the `window` metres of track after the last one, so a track that crosses
// itself (a figure of eight) is driven in order; other cars, and a car outside a world
// or at its first step, are located on the whole track.
#pragma once

#include <limits>
#include <memory>

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/behaviors/support/falloff.hpp"
#include "contextsteer/navigation/track.hpp"

namespace contextsteer {

struct LaneDecision {
  Real progress = 0;  // the car's arc length s, metres
  Real lateral = 0;   // chosen lateral offset, metres
  Vec2 target;        // the track point aimed at
  Real strength = 0;
  bool blocked = false;
};

constexpr int kMaxLanes = 256;

struct RacingLanesParams {
  int lanes = 7;        // lateral offsets across the track, from 1 to kMaxLanes
  Real lookahead = 10;  // metres ahead of the car where the lanes lie
  // Metres over which interest falls to 0 away from the racing line; unset (NaN): the
  // track's whole width, 2 * half_width.
  Real line_width = std::numeric_limits<Real>::quiet_NaN();
  Real window = 20;  // metres of track after the car's last s where the next is sought
  Falloff falloff = Falloff::Linear;
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(
        field("lanes", &RacingLanesParams::lanes, "lanes", "lateral offsets across the track",
              count_from_to(1, kMaxLanes)),
        field("lookahead", &RacingLanesParams::lookahead, "m", "how far ahead of the car the lanes lie", above(0)),
        field("line_width", &RacingLanesParams::line_width, "m",
              "over which interest falls to 0 away from the racing line; None: the track's whole width",
              above_or_absent(0)),
        field("window", &RacingLanesParams::window, "m",
              "track after the car's last place where the next is sought; more than a car travels in a step", above(0)),
        field("falloff", &RacingLanesParams::falloff, "", "how a car ahead's danger fades with ds / lookahead"),
        weight_field<RacingLanesParams>());
  }
};

class RacingLanes : public BehaviorWith<RacingLanesParams, InterestBehavior> {
 public:
  // Throws std::invalid_argument for a null track or a field out of its bounds.
  RacingLanes(std::shared_ptr<const Track> track, const RacingLanesParams& params);

  Real neighbor_radius() const override { return params_.lookahead; }
  int memory_width() const override { return 1; }  // the car's s
  Real window() const override { return params_.window; }
  // Where every agent lies on the whole track, once per evaluation, where most agents are
  // cars: each car otherwise locates every car within its lookahead, at every step.
  void prepare(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs) const override;
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;

  // The lane maps of agent a, each (lanes,), and its decision. `placed`: every agent's
  // arc length and lateral offset on the whole track, (agents, 2), as prepare() finds
  // them; null, each car within the lookahead is located here.
  LaneDecision decide(const SceneView& scene, int a, Real* interest, Real* danger, Real* final_map,
                      const Real* placed = nullptr) const;

  // The parts of decide(), for racing_lane_maps() too:
  // the car's s and e (its kept s, if any, sought within the window after);
  void locate_car(const SceneView& scene, int a, Real& s, Real& e) const;
  // interest on the lanes for a car at s, and danger 0;
  void start_lanes(Real s, Real* interest, Real* danger) const;
  // the distance within which every car that can put danger on a car at lateral offset e
  // of this radius lies (max_radius: the largest radius of the other cars);
  Real sensing_distance(Real e, Real radius, Real max_radius) const;
  // the lanes [first, last] a car at lateral offset e_other spans, its body widened by
  // reach (the two radii); false for none;
  bool lanes_spanned(Real e_other, Real reach, int& first, int& last) const;
  // the decision from the lane maps: final = max(0, interest - danger), its best lane
  // refined by the parabola through its neighbours.
  LaneDecision settle(Real s, Real e, const Real* interest, const Real* danger, Real* final_map) const;

  int lanes() const { return params_.lanes; }
  const Track& track() const { return *track_; }

 private:
  std::shared_ptr<const Track> track_;
};

}  // namespace contextsteer
