// Distance and ray queries against segments and polygons, in metres.
#pragma once

#include <algorithm>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"

namespace contextsteer {

struct Circle {
  Vec2 centre;
  Real radius = 0;  // metres; 0 for a point
};

struct Segment {
  Vec2 a;
  Vec2 b;
};

// An axis-aligned rectangle, min <= max on both axes.
struct Bounds {
  Vec2 min;
  Vec2 max;
};

// The point of segment s closest to p. Inline: the obstacle loops call it for every wall
// they meet.
inline Vec2 closest_point_on_segment(const Segment& s, Vec2 p) {
  const Vec2 ab = s.b - s.a;
  const Real len2 = length_squared(ab);
  if (len2 <= 0) return s.a;
  const Real t = std::clamp(dot(p - s.a, ab) / len2, Real(0), Real(1));
  return s.a + ab * t;
}

// Distance along the unit ray (origin o, direction d) to the first point within
// `radius` of segment s (the segment inflated to a capsule); kInfinity when the ray
// misses it, 0 when o is already inside.
Real ray_capsule_distance(Vec2 o, Vec2 d, const Segment& s, Real radius);
// The same for an origin o known to lie outside the capsule (farther than `radius` from
// s): what ray_capsule_distance returns after it has checked that.
Real ray_capsule_distance_from_outside(Vec2 o, Vec2 d, const Segment& s, Real radius);

// Distance along the unit ray to a circle; kInfinity on a miss, 0 from inside.
Real ray_circle_distance(Vec2 o, Vec2 d, Vec2 centre, Real radius);

// Even-odd test: is p inside the closed polygon `vertices` (convex or concave)?
bool point_in_polygon(const Vec2* vertices, int count, Vec2 p);

}  // namespace contextsteer
