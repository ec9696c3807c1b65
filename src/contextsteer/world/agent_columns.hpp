// Every per-agent column of a world, declared once. The agent store, the spawn values
// (AgentSpawn), the checks of add_agents and of every step, the scene view, reset(),
// copy/restore and pickling, run()'s recording, and the Python views and add_agents
// checks (through _core.AGENT_COLUMNS) are all produced from this list.
//
// Adding a column is one line here, plus what is truly new about it: the code of the
// stage that computes or reads it, and, for a column agents are spawned with, its
// keyword argument (and default) in World.add_agents in Python.
//
// A row is KIND(name, type, width, fill, check, scene, record, doc):
//   name    the C++ member and the Python name (World.<name>, add_agents(<name>=...))
//   type    Real (float32), std::int64_t, std::int32_t, LayerMask (uint32) or
//           std::uint8_t (a flag, bool in Python)
//   width   values per agent: 1, 2 or kSlotsWide (a map: the world's slot count)
//   fill    the value of an agent the spawn gives none for, and of a result after reset()
//   check   what a value must be (ValueCheck), for spawned columns; checked at add_agents
//           and at every step, as the Python views are writable
//   scene   the SceneView member behaviours read it through, or nullptr
//   record  the name World.run records it under, or nullptr (not recordable)
//   doc     meaning and units, for the Python docstrings
// and KIND says who writes it:
//   STATE      given at spawn, writable from Python, changed by the steps, kept as it
//              was at spawn (a spawn_<name> column) for reset()
//   PARAMETER  given at spawn, writable from Python, not changed by the steps
//   IDENTITY   set by the world, read-only from Python
//   RESULT     written by every step, read-only from Python; reset() puts back the fill
// The order of the rows is the order of the columns in a saved state (pickles): append.
#pragma once

#include <cstdint>
#include <limits>

#include "contextsteer/base/real.hpp"
#include "contextsteer/scene/obstacles.hpp"
#include "contextsteer/scene/scene.hpp"

namespace contextsteer {

// The fill of a value not known until the first step.
constexpr Real kNotYet = std::numeric_limits<Real>::quiet_NaN();

// A map column's width: the world's slot count (0 until it has a context pipeline).
constexpr int kSlotsWide = 0;

// What a spawned column's values must be.
enum class ValueCheck {
  none,         // any value (set by the world, or written by the steps)
  coordinate,   // from -1e9 to 1e9
  nonnegative,  // from 0 to 1e9
  limit,        // from 0 to 1e9, or +inf for no limit
  mass,         // from kMinMass to 1e9
  agent_id,     // -1 or the id of an agent in the world
  layer_bits,   // any bit mask
  group,        // from 0 to kMaxGroup (scene.hpp)
};

// The range of a ValueCheck of real values, and how the messages say it.
struct ValueRange {
  Real lowest;
  bool allow_inf;
  const char* expected;
};
constexpr ValueRange value_range(ValueCheck check) {
  switch (check) {
    case ValueCheck::nonnegative:
      return {0, false, "from 0 to 1e9"};
    case ValueCheck::limit:
      return {0, true, "from 0 to 1e9 or inf"};
    case ValueCheck::mass:
      return {kMinMass, false, "from 1e-9 to 1e9"};
    default:
      return {-kMaxMagnitude, false, "from -1e9 to 1e9"};
  }
}

// clang-format off
#define CONTEXTSTEER_AGENT_COLUMNS(STATE, PARAMETER, IDENTITY, RESULT)                                                \
  STATE(positions, Real, 2, 0, coordinate, &SceneView::positions, "positions", "metres")                              \
  STATE(velocities, Real, 2, 0, coordinate, &SceneView::velocities, "velocities", "m/s")                             \
  STATE(heading, Real, 1, 0, coordinate, &SceneView::headings, "headings", "radians from +x")                         \
  STATE(angular_velocity, Real, 1, 0, coordinate, &SceneView::angular_velocities, nullptr, "rad/s")                   \
  PARAMETER(radius, Real, 1, Real(0.5), nonnegative, &SceneView::radius, nullptr, "metres")                           \
  PARAMETER(max_speed, Real, 1, Real(1), nonnegative, &SceneView::max_speed, nullptr, "m/s")                          \
  PARAMETER(max_acceleration, Real, 1, kInfinity, limit, &SceneView::max_acceleration, nullptr, "m/s^2 (inf: none)")  \
  PARAMETER(max_turn_rate, Real, 1, kInfinity, limit, &SceneView::max_turn_rate, nullptr, "rad/s (inf: none)")        \
  PARAMETER(mass, Real, 1, Real(1), mass, nullptr, nullptr, "kg (from 1e-9 to 1e9)")                                  \
  PARAMETER(max_force, Real, 1, kInfinity, limit, nullptr, nullptr, "N (inf: none)")                                  \
  STATE(targets, Real, 2, 0, coordinate, &SceneView::targets, nullptr, "each agent's target point, metres")           \
  PARAMETER(target_ids, std::int64_t, 1, -1, agent_id, nullptr, nullptr, "id of each agent's target agent or -1")     \
  PARAMETER(layers, LayerMask, 1, 1u, layer_bits, &SceneView::layer, nullptr, "layer bits of each agent")             \
  PARAMETER(sense_masks, LayerMask, 1, kAllLayers, layer_bits, &SceneView::sense_mask, nullptr,                       \
            "bits of the layers each agent senses")                                                                   \
  IDENTITY(steering_index, std::int32_t, 1, 0, none, nullptr, nullptr, "index into steerings of each agent")          \
  IDENTITY(ids, std::int64_t, 1, -1, none, &SceneView::ids, nullptr, "id of the agent in each row")                   \
  RESULT(interest, Real, kSlotsWide, 0, none, nullptr, "interest", "combined interest of the last step")              \
  RESULT(danger, Real, kSlotsWide, 0, none, nullptr, "danger", "combined danger of the last step")                    \
  RESULT(final, Real, kSlotsWide, 0, none, nullptr, "final", "the map each agent decided on")                         \
  RESULT(direction, Real, 2, 0, none, nullptr, "direction", "chosen unit directions, (0, 0) where blocked")           \
  RESULT(strength, Real, 1, 0, none, nullptr, "strength", "chosen strengths in [0, 1]")                               \
  RESULT(slot, Real, 1, Real(-1), none, nullptr, "slot", "chosen fractional slots, -1 where blocked")                 \
  RESULT(blocked, std::uint8_t, 1, 0, none, nullptr, "blocked", "True where no slot was left")                        \
  RESULT(penetration, Real, 1, 0, none, nullptr, "penetration", "metres into the deepest sensed obstacle")            \
  RESULT(overlap, Real, 1, 0, none, nullptr, "overlap", "metres of the deepest overlap with a sensed agent")           \
  RESULT(state, std::int32_t, 1, 0, none, &SceneView::states, "state",                                                \
         "0 moving, 1 waiting, 2 giving way, 3 arrived (goals.hpp)")                                               \
  RESULT(waiting_time, Real, 1, 0, none, &SceneView::waiting_time, "waiting_time", "seconds since the agent last progressed")          \
  RESULT(arrival_time, Real, 1, Real(-1), none, nullptr, "arrival_time",                                              \
         "the world's time at the agent's first arrival, seconds; -1 before")                                         \
  RESULT(progress_anchor, Real, 2, kNotYet, none, nullptr, nullptr,                                                   \
         "where the agent last progressed, metres (NaN before its first step)")                                       \
  RESULT(give_way, Real, 2, 0, none, &SceneView::give_way, "give_way",                                                \
         "unit direction an agent giving way steps toward, (0, 0) for the others")                                    \
  RESULT(give_way_left, Real, 1, 0, none, nullptr, nullptr, "seconds of giving way left")                            \
  PARAMETER(groups, std::int32_t, 1, 0, group, &SceneView::groups, nullptr,                                           \
            "group of each agent, 0 to 65535 (FollowField's field for it)")
// clang-format on

// A KIND for the macro above that produces nothing: to take some kinds and skip others.
#define CONTEXTSTEER_SKIP_COLUMN(...)

}  // namespace contextsteer
