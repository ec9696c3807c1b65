// The lane maps and decisions of free-standing cars (RacingLanes::lane_maps in Python):
// every car sees every other, as RacingLanes::decide over a grid of them gives, in about
// n log n time however densely the cars crowd the track.
//
// A car's danger on lane j is the largest falloff(ds / lookahead) of the cars ds metres
// ahead (0 < ds <= lookahead) whose body, widened by the two radii, meets the lane.
// Rather than every car near it, each car reads, for each lane, the cars that may span
// that lane (with the largest radius of all) in order along the track from its own arc
// length, and stops once further cars cannot raise the lane's danger:
// - beyond lookahead (or half a closed track) ahead, with a margin for rounding;
// - for the falloffs whose float value never rises with ds (step, linear,
//   inverse_square), beyond the first car that puts danger on the lane, with the same
//   margin. (smoothstep and exponential read every such car within the lookahead.)
// Each car read passes the same tests as in decide(), so the maps are the same to the bit.
#pragma once

#include <cstdint>

#include "contextsteer/behaviors/racing_lanes.hpp"

namespace contextsteer {

// Outputs for n cars with L lanes; rows are (n, L), target (n, 2).
struct LaneMapsOut {
  Real* interest;
  Real* danger;
  Real* final_map;
  Real* lateral;
  Real* target;
  Real* strength;
  std::uint8_t* blocked;
};

// Cars at (n, 2) positions with (n,) radii, on no layers (each senses all).
void racing_lane_maps(const RacingLanes& lanes, const Real* positions, const Real* radius, int n, LaneMapsOut out);

}  // namespace contextsteer
