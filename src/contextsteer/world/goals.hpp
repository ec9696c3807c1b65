// How a world follows each agent on its way to its goal (the progress stage,
// stage_progress.cpp): the agent's state, when it arrived, what it does there, and how a
// face-off that nobody wins is resolved.
//
// Progress: an agent progresses when it has moved progress_distance metres from the
// place it last progressed at (its anchor, progress_anchor); waiting_time counts the
// seconds since. Net displacement, not speed: an agent shaking in place does not
// progress. An agent within arrival_radius of its target (World.targets, or its target
// agent) has arrived.
//
// States (scene/agent_state.hpp), written once per step:
//   moving      on its way, progressing within stall_time
//   waiting     no progress for stall_time seconds or more
//   giving_way  stepping toward give_way (a unit direction) for give_way_time seconds;
//               its pipeline's interest is a lobe that way alone (the danger is its own),
//               so it steps there only as far as that way is free
//   arrived     within arrival_radius of its target
//
// Face-offs: an agent waiting for patience seconds or more looks for blockers, agents
// whose discs come within `reach` metres of its own and whose centres lie within 60
// degrees of its way (an arrived one also within 60 degrees of the straight line to its
// target). Its way is the peak of its last interest map (where its behaviours led it,
// round corners), or that straight line when the world keeps no maps or the agent had no
// interest. In the world's row order:
//   - an arrived blocker, when arrival is give_way, steps aside off the waiting agent's
//     line (the side it already stands on) and comes back once it has given way;
//   - an oncoming blocker (its way points more than 135 degrees from the waiting agent's,
//     and each of the two is nearer the other's target than the other is), or a merging
//     one (waiting past patience too, each within 60 degrees of the other's way: two led
//     into one gap from either side, each holding the other), and the waiting
//     agent settle who gives way by a priority both compute alike: the one that has waited
//     longer passes, equal waits by the smaller id; the other gives way, to its right,
//     left or back: the first of these its last danger map holds below 0.5, else the
//     freest. When the other has no such free way and the passer has, the passer gives
//     way instead (a leader pinned at a corner by its follower: the follower backs off).
// An agent gives way at most once per patience; followers (blockers going its way)
// are queued behind, not yielded to.
//
// Arrival (ArrivalMode): stay (the agent holds its place, as reactive steering leaves
// it), give_way (holds it, and steps aside for a waiting agent it blocks) or leave (the
// agent is removed from the world at the end of the step it arrives in). Arrivals,
// departures and the start of each giving way are events (StepEvent).
#pragma once

#include <cstdint>
#include <tuple>

#include "contextsteer/base/real.hpp"
#include "contextsteer/behaviors/support/parameters.hpp"
#include "contextsteer/scene/agent_state.hpp"

namespace contextsteer {

enum class ArrivalMode { stay, give_way, leave };
template <>
struct Names<ArrivalMode> {
  static constexpr NamedValue<ArrivalMode> values[] = {
      {"stay", ArrivalMode::stay}, {"give_way", ArrivalMode::give_way}, {"leave", ArrivalMode::leave}};
};

struct GoalParams {
  ArrivalMode arrival = ArrivalMode::stay;
  Real arrival_radius = 0.5;      // metres from its target within which an agent has arrived
  Real progress_distance = 0.25;  // metres an agent must move from its anchor to progress
  Real stall_time = 1.0;          // seconds without progress before an agent is waiting
  Real patience = kInfinity;      // seconds waiting before it settles a face-off (inf: never)
  Real give_way_time = 1.0;       // seconds an agent gives way for
  Real reach = 0.3;               // metres between two discs within which one blocks the other

  static constexpr auto fields() {
    return std::make_tuple(
        field("arrival", &GoalParams::arrival, "", "what an agent does at its goal: stay, give_way or leave"),
        field("arrival_radius", &GoalParams::arrival_radius, "m", "an agent within it of its target has arrived",
              above(0)),
        field("progress_distance", &GoalParams::progress_distance, "m",
              "how far an agent must move from where it last progressed to progress again", above(0)),
        field("stall_time", &GoalParams::stall_time, "s", "seconds without progress before an agent is waiting",
              above(0)),
        field("patience", &GoalParams::patience, "s", "seconds waiting before an agent settles a face-off (inf: never)",
              above_or_infinite(0)),
        field("give_way_time", &GoalParams::give_way_time, "s", "seconds an agent gives way for", above(0)),
        field("reach", &GoalParams::reach, "m", "gap between two discs within which one blocks the other",
              at_least(0)));
  }
};

// arrived, left, gave_way: the progress stage; agent_contact, obstacle_contact: the
// contact stage (contact.hpp); removed: World::remove_agents.
enum class EventKind : std::int32_t {
  arrived = 0,
  left = 1,
  gave_way = 2,
  agent_contact = 3,
  obstacle_contact = 4,
  removed = 5
};
template <>
struct Names<EventKind> {
  static constexpr NamedValue<EventKind> values[] = {{"arrived", EventKind::arrived},
                                                     {"left", EventKind::left},
                                                     {"gave_way", EventKind::gave_way},
                                                     {"agent_contact", EventKind::agent_contact},
                                                     {"obstacle_contact", EventKind::obstacle_contact},
                                                     {"removed", EventKind::removed}};
};

// Something that happened to an agent during a step.
struct StepEvent {
  long long step;      // the world's step count once the step was taken (1 for the first)
  double time;         // seconds, the world's time once the step was taken
  std::int64_t agent;  // the agent's id
  EventKind kind;
  std::int64_t other = -1;  // the other agent's id (agent_contact), else -1
  double depth = 0;         // metres (agent_contact, obstacle_contact), else 0
};

}  // namespace contextsteer
