#include "contextsteer/maps/resolve.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/base/real_math.hpp"
#include "contextsteer/kernels/dispatch.hpp"
#include "contextsteer/kernels/slot_sweep.hpp"
#include "contextsteer/maps/final_map.hpp"

namespace contextsteer {

DangerMode parse_danger_mode(const std::string& name, const char* argument) {
  if (name == "subtract") return DangerMode::Subtract;
  if (name == "threshold") return DangerMode::Threshold;
  if (name == "min_mask") return DangerMode::MinMask;
  if (name == "multiply") return DangerMode::Multiply;
  throw std::invalid_argument(std::string(argument) +
                              ": expected one of 'subtract', 'threshold', 'min_mask', 'multiply', got '" + name + "'");
}

SelectMethod parse_select_method(const std::string& name, const char* argument) {
  if (name == "argmax") return SelectMethod::Argmax;
  if (name == "blend") return SelectMethod::Blend;
  if (name == "average") return SelectMethod::Average;
  if (name == "parabolic") return SelectMethod::Parabolic;
  if (name == "gradient") return SelectMethod::Gradient;
  throw std::invalid_argument(std::string(argument) +
                              ": expected one of 'argmax', 'blend', 'average', 'parabolic', 'gradient', got '" + name +
                              "'");
}

void check_resolve_params(const ResolveParams& params) {
  require_bounded(params.threshold, "threshold", "a danger level");
  require_nonnegative(params.margin, "margin", "a danger margin");
  require_nonnegative(params.hysteresis, "hysteresis");
}

namespace {

void build_final(const Real* interest, const Real* danger, int slots, const ResolveParams& p, Real* final_row) {
  if (!danger) {
    for (int i = 0; i < slots; ++i) final_row[i] = std::max(Real(0), interest[i]);
    return;
  }
  const Real limit = mask_limit(p, danger, slots);
  combine_row(interest, danger, slots, final_row,
              [&](auto in, auto dn) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE { return masked(p.danger_mode, limit, in, dn); });
}

// Offset in slots from the best slot, in [-0.5, 0.5], for the sub-slot methods.
Real sub_slot_offset(SelectMethod method, Real l, Real c, Real r) {
  if (method == SelectMethod::Parabolic) {
    const Real curvature = l - 2 * c + r;
    if (curvature >= 0) return 0;  // flat: c is the max, so curvature < 0 unless l == c == r
    return std::clamp(Real(0.5) * (l - r) / curvature, Real(-0.5), Real(0.5));
  }
  const Real slope = c - std::min(l, r);
  if (slope <= 0) return 0;
  return std::clamp((r - l) / (2 * slope), Real(-0.5), Real(0.5));
}

Real wrap_slot(Real s, int slots) {
  const Real n = static_cast<Real>(slots);
  s = std::fmod(s, n);
  if (s < 0) s += n;
  return s >= n ? 0 : s;
}

Real value_at(const Real* final_row, int slots, Real fractional_slot) {
  const int i0 = static_cast<int>(std::floor(fractional_slot)) % slots;
  const Real t = fractional_slot - std::floor(fractional_slot);
  const Real v = (1 - t) * final_row[i0] + t * final_row[(i0 + 1) % slots];
  return std::clamp(v, Real(0), Real(1));
}

}  // namespace

Decision resolve_row(const Real* interest, const Real* danger, const SlotDirections& dirs, const ResolveParams& params,
                     Real* final_row, Vec2 current, Real* work) {
  const int slots = dirs.slots();
  build_final(interest, danger, slots, params, final_row);

  // The map the selection runs on: the final map, or a copy biased toward the current
  // direction. The copy lives on the stack up to kStackSlots slots; past that, in the
  // caller's `work`, or in a vector made here when it gave none.
  constexpr int kStackSlots = 256;
  Real on_stack[kStackSlots];
  std::vector<Real> own;
  const Real* choice = final_row;
  const Real current_length = params.hysteresis > 0 ? length(current) : Real(0);
  if (current_length > Real(1e-6)) {
    Real* biased = on_stack;
    if (slots > kStackSlots) {
      if (!work) own.resize(static_cast<std::size_t>(slots));
      biased = work ? work : own.data();
    }
    const Vec2 c = current * (1 / current_length);
    for (int i = 0; i < slots; ++i) {
      biased[i] = final_row[i] * (1 + params.hysteresis * std::max(Real(0), c.x * dirs.x()[i] + c.y * dirs.y()[i]));
    }
    choice = biased;
  }

  const int best = first_max_index(choice, slots);
  Decision d;
  if (!(choice[best] > 0)) return d;  // blocked: nothing left to want
  d.blocked = false;

  // Neighboring slots around the circle (no integer division: this runs per agent).
  const int left = best == 0 ? slots - 1 : best - 1;
  const int right = best == slots - 1 ? 0 : best + 1;
  const bool has_neighbors = slots >= 3;
  Real slot = static_cast<Real>(best);

  switch (params.select) {
    case SelectMethod::Argmax:
      break;
    case SelectMethod::Blend:
      if (has_neighbors) {
        const Vec2 v = choice[left] * dirs[left] + choice[best] * dirs[best] + choice[right] * dirs[right];
        slot = dirs.slot_of_angle(math::atan2(v.y, v.x));
      }
      break;
    case SelectMethod::Average: {
      Vec2 v;
      Real total = 0;
      for (int i = 0; i < slots; ++i) {
        v = v + choice[i] * dirs[i];
        total += choice[i];
      }
      // A resultant much shorter than the total weight means the lobes cancel out.
      if (length(v) > Real(1e-3) * total) slot = dirs.slot_of_angle(math::atan2(v.y, v.x));
      break;
    }
    case SelectMethod::Parabolic:
    case SelectMethod::Gradient:
      if (has_neighbors) {
        slot = wrap_slot(best + sub_slot_offset(params.select, choice[left], choice[best], choice[right]), slots);
      }
      break;
  }
  d.slot = slot;
  if (slot == static_cast<Real>(best)) {  // the common case needs no trigonometry or interpolation
    d.direction = dirs[best];
    d.strength = std::min(final_row[best], Real(1));
  } else {
    d.direction = dirs.direction_at(slot);
    d.strength = value_at(final_row, slots, slot);
  }
  return d;
}

void resolve_rows(const Real* interest, const Real* danger, int count, const SlotDirections& dirs,
                  const ResolveParams& params, Real* final_rows, const Vec2* current, Decision* decisions, Real* work) {
  const int slots = dirs.slots();
  const bool plain_argmax = params.select == SelectMethod::Argmax && params.hysteresis == 0 && danger;
  const KernelTable* kernels = plain_argmax ? vector_kernels() : nullptr;
  if (kernels && slots % kernels->lanes == 0 && slots <= 64) {
    return kernels->argmax_rows(interest, danger, count, dirs, params, final_rows, decisions);
  }
  for (int k = 0; k < count; ++k) {
    const std::size_t row = static_cast<std::size_t>(k) * slots;
    decisions[k] = resolve_row(interest + row, danger ? danger + row : nullptr, dirs, params, final_rows + row,
                               current ? current[k] : Vec2{}, work);
  }
}

void resolve(ConstMapBatch interest, const Real* danger, const SlotDirections& dirs, const ResolveParams& params,
             DecisionBatch out, const Real* current) {
  if (interest.slots != dirs.slots()) {
    throw std::invalid_argument("interest: has " + std::to_string(interest.slots) +
                                " slots but the slot directions have " + std::to_string(dirs.slots()));
  }
  check_resolve_params(params);
  const int slots = interest.slots;
  for (int a = 0; a < interest.agents; ++a) {
    const std::size_t row = static_cast<std::size_t>(a) * slots;
    const Vec2 c = current ? load(current, a) : Vec2{};
    store_decision(resolve_row(interest.row(a), danger ? danger + row : nullptr, dirs, params, out.final_map + row, c),
                   a, out);
  }
}

}  // namespace contextsteer
