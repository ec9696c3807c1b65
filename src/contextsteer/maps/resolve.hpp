// Turning an interest map and a danger map into a decision: a direction and a strength.
//
// Two stages, per agent:
// 1. Masking builds the `final` map (net desire per slot, never negative):
//      Subtract:  final[i] = max(0, interest[i] - danger[i])
//      Threshold: final[i] = max(0, interest[i]) if danger[i] <= threshold, else 0
//      MinMask:   final[i] = max(0, interest[i]) if danger[i] <= min_j danger[j] + margin, else 0
//      Multiply:  final[i] = max(0, interest[i]) * (1 - clamp(danger[i], 0, 1))
//    Without a danger map, final[i] = max(0, interest[i]).
// 2. Selection picks a direction from `final`. b is the best slot (the first index of
//    the largest value), l, c, r the values at b-1, b, b+1 (wrapping):
//      Argmax:    slot b.
//      Blend:     the direction of l*d[b-1] + c*d[b] + r*d[b+1] (d = slot directions).
//      Average:   the direction of sum_i final[i]*d[i]; where that sum vanishes
//                 (opposite lobes cancel), slot b.
//      Parabolic: b + 0.5*(l - r)/(l - 2c + r), the vertex of the parabola through the
//                 three values (b itself where they are flat).
//      Gradient:  b + (r - l)/(2*(c - min(l, r))), where a line rising to the best slot
//                 from the lower neighbor and a line of the opposite slope through the
//                 other neighbor meet (b itself where they are flat).
//    Blend, Parabolic and Gradient stay within half a slot of b; with fewer than 3
//    slots they reduce to Argmax.
// Hysteresis (h >= 0) with a current direction c (the agent's direction of motion): the
// selection runs on final[i] * (1 + h * max(0, dot(unit(c), d_i))), so that slots near
// the way the agent already goes win ties and near-ties and the choice does not flicker;
// `final` and the strength are reported without that factor.
// The decision: `slot` is the fractional slot index in [0, S) of the chosen direction,
// `direction` its unit vector, `strength` = final linearly interpolated at `slot` and
// clamped to [0, 1]. When no slot has final > 0 the agent is `blocked`: direction
// (0, 0), strength 0, slot -1 (it brakes).
#pragma once

#include <cstdint>
#include <string>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/maps/map_batch.hpp"
#include "contextsteer/maps/slots.hpp"

namespace contextsteer {

enum class DangerMode { Subtract, Threshold, MinMask, Multiply };
enum class SelectMethod { Argmax, Blend, Average, Parabolic, Gradient };

DangerMode parse_danger_mode(const std::string& name, const char* argument);
SelectMethod parse_select_method(const std::string& name, const char* argument);

struct ResolveParams {
  DangerMode danger_mode = DangerMode::Subtract;
  Real threshold = Real(0.5);  // Threshold: largest danger a slot may carry and stay open
  Real margin = 0;             // MinMask: how far above the least danger a slot stays open
  SelectMethod select = SelectMethod::Argmax;
  Real hysteresis = 0;  // bias toward the current direction, >= 0
};

// Throws std::invalid_argument when threshold is not finite, or margin or hysteresis is
// negative or not finite.
void check_resolve_params(const ResolveParams& params);

// Where the decisions of a batch of agents go; every pointer covers the batch's agents.
struct DecisionBatch {
  Real* direction = nullptr;        // (agents, 2) unit vectors, or (0, 0) when blocked
  Real* strength = nullptr;         // (agents,) in [0, 1]
  Real* slot = nullptr;             // (agents,) fractional slot index, -1 when blocked
  std::uint8_t* blocked = nullptr;  // (agents,) 1 when no slot is left
  Real* final_map = nullptr;        // (agents, slots) the map the choice was made on
};

struct Decision {
  Vec2 direction;
  Real strength = 0;
  Real slot = -1;
  bool blocked = true;
};

// Writes one agent's decision (not its final map) at row `agent` of `out`. Inline: the
// pipeline calls it for every agent of every step.
inline void store_decision(const Decision& d, int agent, DecisionBatch out) {
  store(out.direction, agent, d.direction);
  out.strength[agent] = d.strength;
  out.slot[agent] = d.slot;
  out.blocked[agent] = d.blocked ? 1 : 0;
}

// Decides for one agent. `danger` may be null; `final_row` receives the final map;
// `current` is the agent's current direction for hysteresis (ignored when zero). `work`
// is null or room for `slots` values, which hysteresis past 256 slots works in (it
// allocates them otherwise).
Decision resolve_row(const Real* interest, const Real* danger, const SlotDirections& dirs, const ResolveParams& params,
                     Real* final_row, Vec2 current = {}, Real* work = nullptr);

// resolve_row for `count` agents whose maps are consecutive (count, slots) rows of
// `interest` and `danger` (or null); their final maps go to consecutive rows of
// `final_rows` and their decisions to decisions[0 .. count). `current` is null or
// (count,) directions for hysteresis. Argmax without hysteresis runs W slots at a time
// (kernels/wide/argmax_rows.inl), with the same numbers. `work` as resolve_row takes it.
void resolve_rows(const Real* interest, const Real* danger, int count, const SlotDirections& dirs,
                  const ResolveParams& params, Real* final_rows, const Vec2* current, Decision* decisions,
                  Real* work = nullptr);

// Decides for every agent of the batch. `danger` is null or has the shape of `interest`,
// whose slot count must equal dirs.slots(); `current` is null or (agents, 2).
void resolve(ConstMapBatch interest, const Real* danger, const SlotDirections& dirs, const ResolveParams& params,
             DecisionBatch out, const Real* current = nullptr);

}  // namespace contextsteer
