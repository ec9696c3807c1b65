#include "contextsteer/maps/shaping.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/base/real_math.hpp"
#include "contextsteer/maps/slots.hpp"

namespace contextsteer {

CircularBlur::CircularBlur(Real width, int slots) : width_(width), slots_(slots) {
  require_nonnegative(width, "blur width", "a number of slots");
  check_slot_count(slots, "slots");
  // Beyond 3 standard deviations the weights are below 1.2% of the centre. The cap is
  // taken before the conversion: a width of 1e30 slots must not overflow the int.
  const int reach = width == 0 ? 0 : static_cast<int>(std::min(std::ceil(3.0 * width), 4.0 * kMaxSlots));
  // Offsets k and k + slots reach the same slot: a kernel wider than the circle is
  // folded onto its half, so that applying it costs at most `slots` taps a slot, and a
  // very wide blur tends to the mean of the row instead of taking ages to get there.
  // apply() weighs in[i - e] + in[i + e] by weights_[e]: offsets +k and -k, which land
  // e slots either side, give it g(k) between them; when k is a whole number of turns
  // both land on the centre, which takes 2 g(k).
  const int half = slots / 2;
  std::vector<double> folded(std::min(reach, half) + 1, 0.0);
  double total = 0;
  for (int k = 0; k <= reach; ++k) {
    const double z = reach == 0 ? 0.0 : k / static_cast<double>(width);  // width 0: the identity kernel
    const double g = math::exp(static_cast<Real>(-0.5 * z * z));
    const int turn = k % slots;
    const int e = std::min(turn, slots - turn);
    folded[e] += k == 0 ? g : (e == 0 ? 2 * g : g);
    total += k == 0 ? g : 2 * g;
  }
  weights_.resize(folded.size());
  for (std::size_t d = 0; d < folded.size(); ++d) {
    weights_[d] = static_cast<Real>(static_cast<Real>(folded[d]) / total);
  }
}

void CircularBlur::apply(const Real* in, Real* out) const {
  const int slots = slots_;
  const int radius = static_cast<int>(weights_.size()) - 1;  // at most slots / 2
  for (int i = 0; i < slots; ++i) {
    Real acc = weights_[0] * in[i];
    for (int k = 1; k <= radius; ++k) {
      const int left = i - k < 0 ? i - k + slots : i - k;
      const int right = i + k >= slots ? i + k - slots : i + k;
      acc += weights_[k] * (in[left] + in[right]);
    }
    out[i] = acc;
  }
}

void blur(ConstMapBatch in, Real width, MapBatch out) {
  const CircularBlur kernel(width, in.slots);
  for (int a = 0; a < in.agents; ++a) kernel.apply(in.row(a), out.row(a));
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
