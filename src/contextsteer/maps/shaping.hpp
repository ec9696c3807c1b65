// Shaping of context maps before a decision: circular blur across slots, temporal
// smoothing against the previous step, and resampling to another slot count.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/maps/map_batch.hpp"

namespace contextsteer {

// A circular Gaussian blur across the slots of one row.
//
// out[i] = sum_k g(k) * in[(i + k) mod S] / sum_k g(k), for k in [-R, R], where
// g(k) = exp(-k^2 / (2 width^2)) and R = ceil(3 width). `width` is the standard
// deviation in slots; width 0 leaves a map unchanged. The kernel is built once for rows
// of S slots, folded onto the circle (so at most S taps a slot, whatever the width), and
// applying it allocates nothing.
class CircularBlur {
 public:
  // Throws std::invalid_argument unless width is finite and >= 0 and slots is a valid
  // slot count.
  CircularBlur(Real width, int slots);

  Real width() const { return width_; }
  int slots() const { return slots_; }
  bool is_identity() const { return weights_.size() == 1; }
  // `in` and `out` are rows of slots() values and must not alias.
  void apply(const Real* in, Real* out) const;

 private:
  Real width_;
  int slots_;
  std::vector<Real> weights_;  // by offset 0..min(R, S / 2), normalised: the row's total is kept
};

// Blurs every row of `in` into `out` (same shape, no aliasing).
void blur(ConstMapBatch in, Real width, MapBatch out);

// out = (1 - factor) * current + factor * previous, elementwise over `count` values.
// `factor` in [0, 1] is how much of the previous step's map is kept; `out` may alias
// `current` or `previous`.
void smooth(const Real* current, const Real* previous, std::size_t count, Real factor, Real* out);
void check_smooth_factor(Real factor, const char* argument);

// How a map is carried to another slot count. Maps are periodic functions of angle and
// both resolutions share slot 0's angle.
//   Linear: out[j] is the linear interpolation of `in` at angle 2*pi*j/S_out.
//   Max:    out[j] is the largest of that interpolation and of every input slot whose
//           angle lies within half an output slot of it, so that coarsening never
//           loses a narrow peak (use it for danger).
enum class ResampleMethod { Linear, Max };
ResampleMethod parse_resample_method(const std::string& name, const char* argument);

void resample(ConstMapBatch in, ResampleMethod method, MapBatch out);

}  // namespace contextsteer
