// Anticipate: danger from other agents by how fast the agent could walk each way without
// touching one of them within `horizon` seconds, given where they are going.
//
// For slot direction d, the agent's candidate velocity is s * d. A neighbor at relative
// position p moving at velocity v is touched within the horizon when, for some t in
// (0, horizon], |s d t - (p + v t)| < r_a + r_b: the candidate lies in the truncated
// velocity obstacle of the pair. safe(d) is the lowest s >= 0 at which the ray s * d
// enters it (0 when standing already leads into a touch, infinite when no speed does),
// over every sensed neighbor within `radius`. The slot's danger is
//     1 - min(1, safe(d) / max_speed)
// (where standing still already leads into a touch, as a follower closing in from behind:
// kEscapeRank * s / max_speed when s, the speed along d that gets clear, is at most
// max_speed, and 1 when it is not: the ways out rank by the speed they need, and the
// multiply mode leaves at least 1 - kEscapeRank of the pace the interest asks for, which
// gets clear at full interest whenever s <= max_speed / (1 + kEscapeRank): a leader keeps
// its pace ahead of a follower closing in)
// so that with the pipeline's "multiply" danger mode the chosen strength is the share of
// max_speed that stays clear: an agent walks behind a neighbor at the neighbor's pace
// (a follower at the same speed sees no danger), slows for one that stands, and sees an
// oncoming one earlier than a standing one at the same distance. A neighbor already
// touched (|p| <= r_a + r_b) is tested by the distance's rate alone: safe(d) is the speed
// that keeps the distance, max(0, v.p / d.p) where d.p > 0 (any speed where d.p <= 0), and
// the danger is min(1, sqrt(2) cos a) (1 - min(1, safe(d) / max_speed)), a the angle
// between d and p: a way more than 45 degrees off the line to the neighbor slides past it
// (as the contact stage lets it), its danger fading to 0 at 90 degrees. So an agent
// pressed against one walking off follows it at its pace, one that stands shuts the ways
// within 45 degrees of it, and two pressed together in a narrow bend slide past each
// other instead of holding each other.
//
// Moving circles are seen as neighbors are. A moving wall or polygon is seen as its shape
// (behaviors/support/moving_shapes.hpp), with the same danger: safe(d) is the lowest speed
// along d whose sweep over the horizon comes within the agent's radius of the shape, the
// way out (standing touched) the speed past which no sweep does; an agent touching it
// already is tested as touching a disc at the shape's nearest point.
//
// keep_right (radians) turns every neighbor's position and velocity counter-clockwise
// before the test, so that in a face-off both agents find their right side clearer and
// pass on it.
//
// responsibility: the share of avoiding another agent this agent takes on itself (moving
// obstacles are always avoided wholly). With share a < 1 the agent expects the other to
// take the rest, as reciprocal velocity obstacles do (a = 1/2 is RVO): a candidate
// velocity u counts as the velocity u / a - (1 - a) / a * v_self tested against the
// neighbor at its velocity, the agent's change being a share a of the change the pair
// needs. In the test above this is the neighbor's velocity taken as
// v + (1 - a) / a * v_self and the top speed as max_speed / a. Two agents that both
// take half then each turn half as far as one that expects the other to keep going:
// neither over-reacts, and a face-off does not flip from side to side. a = 1 (the
// default) is the test above unchanged.
//
// make_way: an agent that some neighbor would touch within the horizon if it stood still
// gets this much interest in every slot, so that it steps out of the way (the least
// dangerous way, by its danger) even when it has arrived or its goal lies behind.
//
// arc_edges: a slot's danger is the least of the dangers along its direction and along
// the two edges of its arc (each the greatest over the neighbors), so that a slot is as
// open as the clearest of the three: a neighbor just off a slot's direction no longer
// shuts the whole slot, which on coarse maps (8 slots: 45 degrees each) shuts the way
// past it. The chosen direction may then graze a neighbor by up to half a slot.
//
// right_of_way: the agent nearer its goal goes first. A neighbor of the agent's group
// whose way left (scene/way_left.hpp: its distance along the navigation field it
// follows, written by FollowField) exceeds the agent's by more than kRightOfWayMargin
// is behind it: the agent takes it as standing still, at its full top speed, and is not
// made to make way by it; the neighbor, which sees the agent ahead, avoids it. So at a
// door the front of a crowd does not hold back for those pressing behind it. An agent
// that has arrived (SceneView::states) and agents without a way left (no FollowField,
// or no cache) test their neighbors as usual.
#pragma once

#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/behaviors/support/moving_shapes.hpp"

namespace contextsteer {

struct AnticipateParams {
  Real radius = 3;            // metres; farther neighbors are not sensed
  Real horizon = 1.5;         // seconds looked ahead
  Real keep_right = 0;        // radians by which neighbors are turned counter-clockwise
  Real make_way = 0;          // interest in every slot of an agent that standing would not keep clear
  Real responsibility = 1;    // share of avoiding another agent taken on by this one
  bool arc_edges = false;     // a slot as open as the clearest of its direction and its arc's edges
  bool right_of_way = false;  // the group's agents farther back along their way are taken as standing
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(
        field("radius", &AnticipateParams::radius, "m", "farther neighbors are not sensed", above(0)),
        field("horizon", &AnticipateParams::horizon, "s", "how far ahead a touch counts", above(0)),
        field("keep_right", &AnticipateParams::keep_right, "rad", "neighbors turned counter-clockwise by this",
              from_to(-kMaxKeepRight, kMaxKeepRight)),
        field("make_way", &AnticipateParams::make_way, "", "interest of an agent that standing would not keep clear",
              from_to(0, 1)),
        field("responsibility", &AnticipateParams::responsibility, "",
              "share of avoiding another agent taken on by this one (1/2: reciprocal)", Accepts{0, true, 1, false}),
        field("arc_edges", &AnticipateParams::arc_edges, "",
              "a slot's danger is the least along its direction and its arc's two edges"),
        field("right_of_way", &AnticipateParams::right_of_way, "",
              "neighbors of its group farther back along their way are taken as standing"),
        weight_field<AnticipateParams>());
  }
};

// How much of the danger of a way out (standing touched, the way gets clear within top
// speed) its needed speed makes: enough to rank the ways, little enough to keep the pace.
constexpr Real kEscapeRank = Real(0.1);
// Metres by which a neighbor's way left must exceed the agent's for right_of_way to take
// it as behind: half a body of the crowds it is made for, so that agents abreast do not
// flip between ahead and behind.
constexpr Real kRightOfWayMargin = Real(0.3);
// sqrt(2): a touched disc's danger is min(1, kHeadOn cos a) times the rest, a the angle off it.
constexpr Real kHeadOn = Real(1.4142135623730951);

// The danger of walking along unit direction d, for an agent whose top speed is `top`,
// from a disc at relative position p moving at velocity v, touched within `horizon`
// seconds when closer than `reach`: when standing stays clear of it, 1 - min(1, s / top)
// with s the lowest speed along d that touches it (0 when none does); when standing does
// not, kEscapeRank * s / top with s the speed along d that gets clear of it, if s <= top,
// else 1; when touching it already, min(1, sqrt(2) d.p / |p|) (1 - min(1, s / top)) with
// s = max(0, v.p / d.p) the speed that keeps the distance (0 when d.p <= 0).
Real anticipated_danger(Vec2 p, Vec2 v, Real reach, Real horizon, Vec2 d, Real top);
// Whether an agent standing still comes within `reach` of that disc within `horizon` seconds
// (one already within reach is touched unless the disc moves away from it).
bool standing_is_touched(Vec2 p, Vec2 v, Real reach, Real horizon);

// One disc as seen by one agent: what anticipated_danger needs that does not depend on the
// way d, found once (anticipated_disc), then read for every slot (the overload on a disc,
// which the wide kernel mirrors lane by lane). Same arguments and units as above.
struct AnticipatedDisc {
  bool quiet;             // every way's danger is 0 (out of reach, or top <= 0): skip it
  bool standing_touched;  // standing_is_touched
  bool touching;          // |p| <= reach
  Vec2 p, v;
  Real reach, horizon, top;
  Real dist;       // |p|
  Real v_dot_p;    // v.p, m^2/s
  Vec2 w0, m;      // relative velocity when standing (-v); w0 - p / horizon, the cap's centre offset
  Real cap;        // |m|^2 - (reach / horizon)^2
  Vec2 legs[2];    // unit directions of the velocity obstacle's legs
  Real leg_w0[2];  // -cross(w0, leg): the crossing of leg k along d is leg_w0[k] / cross(d, leg)
};
// The disc's per-way quantities; with `cull`, a disc that no speed up to top along any way
// (nor standing) touches within the horizon is marked quiet without the rest
// (out_of_reach: a conservative test, so culling never changes a danger).
AnticipatedDisc anticipated_disc(Vec2 p, Vec2 v, Real reach, Real horizon, Real top, bool cull = true);
Real anticipated_danger(const AnticipatedDisc& disc, Vec2 d);
// True only when |p + v t| stays beyond reach + top t, with margins of 1% and 1 cm that
// cover float rounding and the crossing test's nudge past a crossing, for every t in
// [0, horizon]: then the disc is touched neither standing nor at any speed up to top.
bool out_of_reach(Vec2 p, Vec2 v, Real reach, Real horizon, Real top);

// A moving wall or polygon as seen by one agent (its danger as a disc's above, with the
// shape's true extent): the shape relative to the agent, its velocity v, the agent's
// radius `reach`, the horizon and the top speed.
struct AnticipatedShape {
  SeenShape shape;
  Vec2 w0;  // the agent's velocity relative to the shape when standing: -v
  Real reach, horizon, top;
  bool quiet;             // every way's danger is 0 (top <= 0)
  bool touching;          // the agent is within reach of it (or inside a polygon)
  bool standing_touched;  // standing still meets it within the horizon
  AnticipatedDisc touch;  // touching: as a disc touched at the shape's nearest point
};
AnticipatedShape anticipated_shape(const SeenShape& shape, Vec2 v, Real reach, Real horizon, Real top);
Real anticipated_danger(const AnticipatedShape& shape, Vec2 d);

// Fills danger, and interest (zero rows but where it makes way): both kinds always, so
// that make_way may change on a live behaviour.
class Anticipate : public BehaviorWith<AnticipateParams, Behavior> {
 public:
  explicit Anticipate(const AnticipateParams& params = {});

  bool fills_interest() const override { return true; }
  bool fills_danger() const override { return true; }
  Real neighbor_radius() const override { return params_.radius; }
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;
};

}  // namespace contextsteer
