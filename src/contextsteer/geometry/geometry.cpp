#include "contextsteer/geometry/geometry.hpp"

#include <algorithm>
#include <cmath>

namespace contextsteer {

Real ray_circle_distance(Vec2 o, Vec2 d, Vec2 centre, Real radius) {
  const Vec2 m = o - centre;
  const Real c = length_squared(m) - radius * radius;
  if (c <= 0) return 0;
  const Real b = dot(m, d);
  if (b > 0) return kInfinity;  // outside and pointing away
  const Real disc = b * b - c;
  if (disc < 0) return kInfinity;
  return -b - std::sqrt(disc);
}

Real ray_capsule_distance(Vec2 o, Vec2 d, const Segment& s, Real radius) {
  if (length(o - closest_point_on_segment(s, o)) <= radius) return 0;
  return ray_capsule_distance_from_outside(o, d, s, radius);
}

Real ray_capsule_distance_from_outside(Vec2 o, Vec2 d, const Segment& s, Real radius) {
  // The capsule is the union of the two end discs and the band between the two lines
  // offset by `radius`; the first hit is the nearest of those.
  Real best = std::min(ray_circle_distance(o, d, s.a, radius), ray_circle_distance(o, d, s.b, radius));
  const Vec2 ab = s.b - s.a;
  const Real len = length(ab);
  if (len > 0) {
    const Vec2 u = ab * (1 / len);
    const Vec2 n{-u.y, u.x};
    const Real denom = dot(d, n);
    if (denom != 0) {
      for (Real side : {Real(-1), Real(1)}) {
        // Line through s.a + side*radius*n, parallel to the segment.
        const Real t = dot(s.a + n * (side * radius) - o, n) / denom;
        if (t < 0 || t >= best) continue;
        const Real along = dot(o + d * t - s.a, u);
        if (along >= 0 && along <= len) best = t;
      }
    }
  }
  return best;
}

bool point_in_polygon(const Vec2* v, int count, Vec2 p) {
  bool inside = false;
  for (int i = 0, j = count - 1; i < count; j = i++) {
    if ((v[i].y > p.y) != (v[j].y > p.y)) {
      const Real x = v[j].x + (p.y - v[j].y) * (v[i].x - v[j].x) / (v[i].y - v[j].y);
      if (p.x < x) inside = !inside;
    }
  }
  return inside;
}

}  // namespace contextsteer
