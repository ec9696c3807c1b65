#include "shaping.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "format_real.hpp"
#include "parameter_checks.hpp"

namespace contextsteer {

CircularBlur::CircularBlur(Real width) : width_(width) {
  require_nonnegative(width, "blur width", "a number of slots");
  // Beyond 3 standard deviations the weights are below 1.2% of the centre; the cap
  // keeps absurd widths from building huge kernels (a circle has few distinct offsets).
  // The cap is taken before the conversion: a width of 1e30 slots must not overflow the int.
  const int radius = width == 0 ? 0 : static_cast<int>(std::min(std::ceil(3.0 * width), 4.0 * kMaxSlots));
  weights_.resize(radius + 1);
  double total = 0;
  for (int k = 0; k <= radius; ++k) {
    const double z = radius == 0 ? 0.0 : k / static_cast<double>(width);  // width 0: the identity kernel
    const double g = std::exp(-0.5 * z * z);
    weights_[k] = static_cast<Real>(g);
    total += k == 0 ? g : 2 * g;
  }
  for (Real& w : weights_) w = static_cast<Real>(w / total);
}

void CircularBlur::apply(const Real* in, Real* out, int slots) const {
  const int radius = static_cast<int>(weights_.size()) - 1;
  for (int i = 0; i < slots; ++i) {
    Real acc = weights_[0] * in[i];
    for (int k = 1; k <= radius; ++k) {
      // Offsets may exceed the slot count for wide kernels; they wrap around again.
      const int left = ((i - k) % slots + slots) % slots;
      const int right = (i + k) % slots;
      acc += weights_[k] * (in[left] + in[right]);
    }
    out[i] = acc;
  }
}

void blur(ConstMapBatch in, Real width, MapBatch out) {
  const CircularBlur kernel(width);
  for (int a = 0; a < in.agents; ++a) kernel.apply(in.row(a), out.row(a), in.slots);
}

void check_smooth_factor(Real factor, const char* argument) {
  if (!(factor >= 0 && factor <= 1)) {
    throw std::invalid_argument(std::string(argument) + ": expected a factor in [0, 1], got " + format_real(factor));
  }
}

void smooth(const Real* current, const Real* previous, std::size_t count, Real factor, Real* out) {
  check_smooth_factor(factor, "factor");
  const Real keep = Real(1) - factor;
  for (std::size_t j = 0; j < count; ++j) out[j] = keep * current[j] + factor * previous[j];
}

ResampleMethod parse_resample_method(const std::string& name, const char* argument) {
  if (name == "linear") return ResampleMethod::Linear;
  if (name == "max") return ResampleMethod::Max;
  throw std::invalid_argument(std::string(argument) + ": expected one of 'linear', 'max', got '" + name + "'");
}

void resample(ConstMapBatch in, ResampleMethod method, MapBatch out) {
  const int s_in = in.slots;
  const int s_out = out.slots;
  // Position of output slot j on the input's slot axis.
  const double ratio = static_cast<double>(s_in) / s_out;
  for (int a = 0; a < in.agents; ++a) {
    const Real* src = in.row(a);
    Real* dst = out.row(a);
    for (int j = 0; j < s_out; ++j) {
      const double pos = j * ratio;
      const int i0 = static_cast<int>(std::floor(pos)) % s_in;
      const Real t = static_cast<Real>(pos - std::floor(pos));
      Real value = (1 - t) * src[i0] + t * src[(i0 + 1) % s_in];
      if (method == ResampleMethod::Max) {
        // Input slots within half an output slot: |i - pos| <= ratio / 2, wrapping.
        const int first = static_cast<int>(std::ceil(pos - ratio / 2 - 1e-9));
        const int last = static_cast<int>(std::floor(pos + ratio / 2 + 1e-9));
        for (int i = first; i <= last; ++i) value = std::max(value, src[((i % s_in) + s_in) % s_in]);
      }
      dst[j] = value;
    }
  }
}

}  // namespace contextsteer
