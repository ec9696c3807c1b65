// Contact: an optional stage of a world's step (stage_contact.cpp), after the agents moved
// and before they are measured, that keeps every body out of the obstacles and separates
// overlapping agents by moving them (position correction). An agent's velocity then loses
// its part against the agent's correction (never gaining speed): an agent pressed into a
// wall or a crowd stops pressing, rather than pressing again with its full speed.
//
// Obstacles (keep_out below): each agent's move of the step, from where it stood to where
// the motion put it, is swept against the walls (free segments, polygon edges, bounds
// sides) and circles it senses: a move whose centre would cross a wall, or enter a circle
// grown by the agent's radius, stops at the first one, on the side it came from. The disc
// is then pushed out of every wall, circle and polygon it still overlaps and into the
// bounds, to kSkin beyond touching. So no move of any length passes through an obstacle
// (no tunnelling at any speed or step). Moving obstacles are treated alike where they
// stand after the step's move (a disc a body moved onto is pushed out of it), then the
// static ones again.
//
// Agents: up to `iterations` Jacobi passes (a pile of k agents pressed together takes about
// k to settle). Each pass finds every pair of discs overlapping by
// more than `slop` (agent a is pushed by b when a senses b, as overlap is measured) from
// the positions at the start of the pass, and moves each agent by the sum of its shares of
// (depth - slop) along the line between the centres: a share of m_b / (m_a + m_b) when both
// sense each other, all of it when only a senses b. With `motion_share` s, a pair that
// senses each other splits s of it instead by how far each agent's move of the step went
// toward the other (a's part: its move's component toward b over the sum of both; by mass
// when neither moved toward the other), so an agent that walks into a standing one is the
// one moved back. Each agent's correction is then swept and pushed out of the obstacles
// as above. Every agent's new position depends only on the positions at the start of the
// pass and the step's moves, summed in a fixed order: the same results at any thread
// count. The passes stop early once no pair overlaps by more than slop.
//
// Events (when `events`): each agent pair overlapping by more than slop once the agents
// moved (kind agent_contact: the agent, the other agent, the depth in metres; once per
// pair, by the agent of the smaller id when both sense each other), and each agent the
// obstacle pass moved by more than slop (kind obstacle_contact: the distance it was moved
// back, metres).
#pragma once

#include <tuple>

#include "contextsteer/base/real.hpp"
#include "contextsteer/behaviors/support/parameters.hpp"
#include "contextsteer/scene/obstacles.hpp"

namespace contextsteer {

struct ContactParams {
  int iterations = 64;    // at most this many Jacobi passes of agent-agent correction per step
  Real slop = 0.001f;     // metres of agent-agent overlap left uncorrected
  bool events = true;     // whether contacts deeper than slop are events
  Real motion_share = 0;  // share of each correction split by the moves into the overlap, not by mass

  static constexpr int kMaxIterations = 1000;
  static constexpr auto fields() {
    return std::make_tuple(
        field("iterations", &ContactParams::iterations, "passes", "passes of agent-agent position correction per step",
              count_from_to(1, kMaxIterations)),
        field("slop", &ContactParams::slop, "m", "agent-agent overlap left uncorrected (and not reported)",
              from_to(0, 1)),
        field("events", &ContactParams::events, "",
              "whether each contact deeper than slop is an event (agent_contact, obstacle_contact)"),
        field("motion_share", &ContactParams::motion_share, "",
              "share of each overlap's correction split by how far each agent moved into it, not by mass",
              from_to(0, 1)));
  }
};

// How much the contact stage of the last step moved the agents, metres.
struct ContactReport {
  double total = 0;  // sum over agents of the distance each was moved
  double max = 0;    // the most any agent was moved
  int agents = 0;    // agents moved at all
  int passes = 0;    // agent-agent passes run
};

// Metres beyond touching that a disc pushed out of an obstacle is put, at least: the
// measured penetration is then 0 despite float rounding (1e-6 of the coordinates' size
// more for coordinates far from the origin).
constexpr Real kSkin = 1e-4f;

// Metres: two agents whose moves toward each other sum to less than this split their
// overlap by mass alone (neither walked into the other).
constexpr Real kStill = 1e-6f;

// Where a disc (radius r, on an agent sensing `mask`) moving from `from` to `to` ends when
// kept out of the obstacles: stopped at the first wall it would cross or circle it would
// enter, then pushed out of those it overlaps and into the bounds (contact.hpp's header).
Vec2 keep_out(const Obstacles& obstacles, Vec2 from, Vec2 to, Real r, LayerMask mask);

}  // namespace contextsteer
