// Cosine lobes added to the rows of a block of maps, many at once.
//
// Every interest behaviour made of cosine lobes (toward or away from points, along a
// heading, with or against neighbors) adds, per agent, lobes max(0, dot(v, d_i) + b) to
// its row: v points where the agent should go; with b = 0 its length is the lobe's peak
// (b > 0 widens the lobe, see add_lobe).
// Collected for a whole block and added in one call, the lobes run W slots at a time
// (kernels/wide/add_cosine_lobes.inl; the lanes chosen once per block, not per lobe).
#pragma once

#include <algorithm>
#include <cstddef>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/kernels/lane_sincos.hpp"
#include "contextsteer/maps/slots.hpp"

namespace contextsteer {

struct Lobe {
  int row;    // the row of the block it goes to
  Real x, y;  // v: direction times peak value
  Real bias;  // b, added to every slot's dot product
};

// For each lobe in order, for every slot i, with c_i = x * d_i.x + y * d_i.y + bias:
// row[i] = max(row[i], c_i), or row[i] += max(0, c_i) when `sum`; rows are (*, slots)
// with slots = dirs.slots(). Same numbers as cosine_lobe (slot_sweep.hpp) one lobe at a
// time.
void add_cosine_lobes(Real* rows, const SlotDirections& dirs, const Lobe* lobes, int count, bool sum);

// Lobes are collected in chunks of this many, each added to the rows when full: a
// fixed buffer per thread, so that collecting them never allocates, however many lobes
// a block has. (Chunks keep the lobes' order, so the sums and maxima are the same.)
inline constexpr int kLobeChunk = 512;
Lobe* lobe_buffer();  // this thread's kLobeChunk lobes

// The way behaviours use the two above: lobes_of(k, add) calls add(x, y) or add(x, y,
// bias) for each lobe of row k (none, one or several), for every k in [0, count); then
// all are added to the rows.
template <class LobesOf>
void add_block_lobes(Real* rows, const SlotDirections& dirs, int count, bool sum, LobesOf&& lobes_of) {
  Lobe* const lobes = lobe_buffer();
  int held = 0;
  for (int k = 0; k < count; ++k) {
    lobes_of(k, [&](Real x, Real y, Real bias = 0) {
      if (held == kLobeChunk) {
        add_cosine_lobes(rows, dirs, lobes, held, sum);
        held = 0;
      }
      // Field by field: a Lobe built whole on the stack and copied in would be read back by
      // a load spanning two of its stores, which stalls on store forwarding.
      Lobe& lobe = lobes[held++];
      lobe.row = k;
      lobe.x = x;
      lobe.y = y;
      lobe.bias = bias;
    });
  }
  add_cosine_lobes(rows, dirs, lobes, held, sum);
}

// The lobe of peak `peak` toward `to` (length d > 0) through add (as add_block_lobes
// hands it out): slot i gets peak * max(0, w + (1 - w) dot(to / d, d_i)), w = `sideways`
// in [0, 1), the share of the peak left at right angles to `to`. w = 0 is the plain
// cosine lobe, nothing at right angles; w = 0.5 leaves nothing only straight away; above
// 0.5 even that gets some. With w > 0 an agent whose way ahead is blocked still has an
// interest in going round, not only in stopping. (With w = 0 the numbers are those of
// add(to.x * peak / d, to.y * peak / d).)
template <class Add>
void add_lobe(Add&& add, Vec2 to, Real d, Real peak, Real sideways) {
  const Real k = peak * (1 - sideways);
  add(to.x * k / d, to.y * k / d, peak * sideways);
}

// Throws std::invalid_argument unless sideways is in [0, 1).
void check_sideways(Real sideways);

// One lobe of peak `strength` per row k in [0, count), along angle_of(k) (radians from
// +x, finite), kept by max: the direction of a heading (Forward, Wander). The sines and
// cosines of up to 128 angles are taken at once, W at a time (lane_sincos.hpp).
template <class AngleOf>
void add_angle_lobes(Real* rows, const SlotDirections& dirs, int count, Real strength, AngleOf&& angle_of) {
  constexpr int kChunk = 128;
  Real angles[kChunk], sines[kChunk], cosines[kChunk];
  for (int first = 0; first < count; first += kChunk) {
    const int n = std::min(kChunk, count - first);
    for (int k = 0; k < n; ++k) angles[k] = angle_of(first + k);
    sincos_rows(angles, n, sines, cosines);
    add_block_lobes(rows + static_cast<std::size_t>(first) * dirs.slots(), dirs, n, false,
                    [&](int k, auto&& add) { add(strength * cosines[k], strength * sines[k]); });
  }
}

}  // namespace contextsteer
