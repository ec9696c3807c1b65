// A moving segment or polygon as TimeToCollision and Anticipate see it from an agent: its
// true shape (the segment; the polygon's edges and its inside) moving at the body's
// velocity, not the disc round it. Coordinates are relative to the agent, turned by the
// angle the behaviour turns what it sees (Anticipate's keep_right). The body's turning
// (its angular velocity) is not carried over the horizon: it moves as it stands.
//
// An agent of radius r moving at velocity u meets the shape within `horizon` seconds
// when the segment its centre sweeps, [0, horizon * w] with w = u - v the velocity
// relative to the body, comes within r of the shape: of one of its edges (from outside a
// polygon, the sweep reaches its inside only across an edge).
#pragma once

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/geometry/geometry.hpp"

namespace contextsteer {

struct SeenShape {
  const Segment* walls = nullptr;  // where the body stands (metres): a segment's one, a polygon's edges
  int count = 0;
  bool closed = false;  // a polygon: its inside counts as met
  Vec2 from;            // the agent's position, metres
  Vec2 turn{1, 0};      // the cosine and sine of the angle it is turned by

  Vec2 seen(Vec2 q) const {
    const Vec2 d = q - from;
    return {turn.x * d.x - turn.y * d.y, turn.y * d.x + turn.x * d.y};
  }
  Segment edge(int j) const { return {seen(walls[j].a), seen(walls[j].b)}; }
};

// The point of the shape's edges nearest the agent (relative, metres), and whether the
// agent's centre lies inside the shape (a polygon's, even-odd).
struct NearestOnShape {
  Vec2 point;
  Real distance;
  bool inside;
};
NearestOnShape nearest_on_shape(const SeenShape& shape);

// The first time t >= 0 (seconds) at which an agent moving at w (m/s, relative to the
// shape) comes within `reach` metres of it: 0 when it is within reach already, kInfinity
// when it never comes (w = 0 out of reach, or moving past).
Real first_contact_time(const SeenShape& shape, Real reach, Vec2 w);

// Whether an agent moving at relative velocity w meets edge e within `horizon` seconds:
// the segment [0, horizon * w] comes within `reach` of e.
bool meets_edge(const Segment& e, Real reach, Real horizon, Vec2 w);

// The speeds s >= 0 at which an agent whose relative velocity is w0 + s d (d a unit
// direction) meets edge e within `horizon` seconds, an agent out of reach of e now: an
// interval, as those velocities form a convex set (the cap of the edge's capsule scaled
// by 1 / horizon, and the legs tangent to it from the origin), [enter, leave); enter is
// kInfinity when no speed meets it, leave when no speed past enter leaves it. Each end is
// found among the crossings of the set's boundary by the ray, sorted, as the first where
// the ray is inside just past it (or outside, for leave).
struct SpeedInterval {
  Real enter, leave;
};
SpeedInterval speeds_meeting_edge(const Segment& e, Real reach, Real horizon, Vec2 w0, Vec2 d);

// The last few bodies one agent's query met (MovingObstacles::for_each_body_near meets a
// polygon once per edge within reach): each body's shape is swept once per agent, unless
// more than kHeld bodies came between (it is swept again then, which the row's maximum
// takes the same).
class RecentBodies {
 public:
  bool first_time(int body) {
    for (int k = 0; k < count_; ++k) {
      if (held_[k] == body) return false;
    }
    held_[next_] = body;
    next_ = next_ + 1 == kHeld ? 0 : next_ + 1;
    count_ = count_ < kHeld ? count_ + 1 : kHeld;
    return true;
  }

 private:
  static constexpr int kHeld = 8;
  int held_[kHeld];
  int count_ = 0, next_ = 0;
};

}  // namespace contextsteer
