// What each stage of a world's step hands to the stages after it. The world owns one of
// each; a stage writes only its own product (and the agent store), and reads only the
// products of the stages before it. All are sized when agents, steerings or threads
// change, and reused by every step.
#pragma once

#include <cstdint>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/scene/close_agents.hpp"
#include "contextsteer/world/contact.hpp"
#include "contextsteer/world/goals.hpp"

namespace contextsteer {

// Written by the index stage (stage_index.cpp), also when explain() or neighbors() bring
// the world up to its current state; read by evaluate, measure and the scene views.
struct IndexProduct {
  std::vector<int> target_index;  // (agents,) row of each agent's target agent, or -1
  Real max_radius = 0;            // metres, the largest agent radius
  Real usual_radius = 0;          // metres, the grid's usual_radius(), which sizes its rows
  Real fastest = 0;               // m/s, the largest max_speed
};

// Written by the evaluate stage (stage_evaluate.cpp).
struct EvaluateProduct {
  // Classic steering outputs, read by the integrate stage; context decisions go to the
  // agent store (direction, strength, slot, blocked).
  std::vector<Real> classic_linear;   // (agents, 2) m/s^2
  std::vector<Real> classic_angular;  // (agents,) rad/s^2
  // The agents that may overlap another once the step has moved them
  // (scene/close_agents.hpp). Writer: Avoid's pass by pairs, during the evaluate stage,
  // through SceneView::close_agents, which the evaluate stage points at `close_agents`
  // after zeroing `close_flags` and setting the slack from this step's dt and fastest
  // agent. Reader: the measure stage of the same step, which then queries only the
  // flagged agents for overlap when the pass was complete and no agent moved farther
  // than half the slack. Valid from the end of the evaluate stage to the end of the
  // measure stage, which clears `complete`; World::overlap_queries() reads the flags
  // afterwards, for the record of the last step.
  CloseAgents close_agents;
  std::vector<std::uint8_t> close_flags;  // (agents,) what close_agents.flags points at
};

// Written by the integrate stage (stage_integrate.cpp); read by the measure stage.
struct IntegrateProduct {
  std::vector<Real> farthest_move;  // (threads,) m^2, the largest squared move of an agent, per worker
};

// Written by the contact stage (stage_contact.cpp) when contact is on; `start` by
// contact_start() before the integrate stage. Read by World::contact_report(); the
// stage appends its events to the step's (World::events()).
struct ContactProduct {
  std::vector<Real> start;       // (agents, 2) m, the positions before the motion
  std::vector<Real> moved;       // (agents, 2) m, the positions the motion gave
  std::vector<Real> correction;  // (agents, 2) m, of the pass under way
  std::vector<Real> deepest;     // (blocks,) m, the deepest overlap a block met; after the moves, 1 if it moved one
  // The agents near each agent, found on the grid once for several passes: agent a's are
  // near[near_span[2a], near_span[2a + 1]), in the grid's order, found while the agents
  // stood at near_from; drift is each block's farthest move from there, m^2. Each block
  // owns kNearPerAgent entries a member, sized with the agents; a block whose agents have
  // more is not listed (near_full) and its passes ask the same grid from near_from again.
  static constexpr int kNearPerAgent = 16;
  std::vector<int> near;        // (blocks * kBlockAgents * kNearPerAgent,)
  std::vector<char> near_full;  // (blocks,)
  std::vector<int> near_span;   // (agents, 2)
  std::vector<Real> near_from;  // (agents, 2) m
  std::vector<Real> drift;      // (blocks,) m^2
  // The events a pass reports (with events on), by rows, before they join the step's
  // events: each block owns kEventsPerAgent entries a member in event_room, sized with
  // the agents, and puts the ones past them in its own event_more, kept from step to step.
  struct Event {
    int agent;       // row
    int other;       // row of the other agent (agent_contact), else -1
    Real depth;      // metres
    EventKind kind;  // agent_contact or obstacle_contact
  };
  static constexpr int kEventsPerAgent = 4;
  std::vector<Event> event_room;               // (blocks * kBlockAgents * kEventsPerAgent,)
  std::vector<int> event_count;                // (blocks,) events of the pass under way
  std::vector<std::vector<Event>> event_more;  // (blocks,)
  ContactReport report;
};

// Written by the measure stage (stage_measure.cpp); read by World::overlap_queries().
struct MeasureProduct {
  bool overlap_of_close_only = false;  // whether only the close agents were queried
  int overlap_measured = 0;            // agents in the stage
  // The agents within reach of a moving obstacle, each once (flagged while listed), for
  // their penetration: room for every agent, kept from step to step.
  std::vector<int> near_bodies;               // (up to agents,) rows
  std::vector<std::uint8_t> near_body_flags;  // (agents,) 1 while listed
};

// Written by the progress stage (stage_progress.cpp), which appends its events to the
// step's (World::events()).
struct ProgressProduct {
  std::vector<std::uint8_t> arrived_now;  // (agents,) 1 for an agent that arrived in this step
};

}  // namespace contextsteer
