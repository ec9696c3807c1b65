#include "contextsteer/behaviors/support/moving_shapes.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace contextsteer {
namespace {

Real cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }

// The squared distance between segments [0, q] and e.
Real squared_distance_from_sweep(Vec2 q, const Segment& e) {
  const Vec2 ab = e.b - e.a;
  const Real side_a = cross(q, e.a), side_b = cross(q, e.b);
  const Real side_o = cross(ab, Vec2{0, 0} - e.a), side_q = cross(ab, q - e.a);
  if (((side_a > 0 && side_b < 0) || (side_a < 0 && side_b > 0)) &&
      ((side_o > 0 && side_q < 0) || (side_o < 0 && side_q > 0))) {
    return 0;  // they cross
  }
  const Segment sweep{{0, 0}, q};
  return std::min({length_squared(closest_point_on_segment(e, {0, 0})),
                   length_squared(closest_point_on_segment(e, q) - q),
                   length_squared(closest_point_on_segment(sweep, e.a) - e.a),
                   length_squared(closest_point_on_segment(sweep, e.b) - e.b)});
}

}  // namespace

NearestOnShape nearest_on_shape(const SeenShape& shape) {
  NearestOnShape near{{0, 0}, kInfinity, false};
  bool inside = false;
  for (int j = 0; j < shape.count; ++j) {
    const Segment e = shape.edge(j);
    const Vec2 q = closest_point_on_segment(e, {0, 0});
    const Real d = length(q);
    if (d < near.distance) near.point = q, near.distance = d;
    // Even-odd: edges crossing the positive x-axis from the origin.
    if ((e.a.y > 0) != (e.b.y > 0) && e.a.x + (e.b.x - e.a.x) * (0 - e.a.y) / (e.b.y - e.a.y) > 0) inside = !inside;
  }
  near.inside = shape.closed && inside;
  return near;
}

Real first_contact_time(const SeenShape& shape, Real reach, Vec2 w) {
  const NearestOnShape near = nearest_on_shape(shape);
  if (near.inside || near.distance <= reach) return 0;
  const Real speed = length(w);
  if (!(speed > 0)) return kInfinity;
  const Vec2 d = w * (Real(1) / speed);
  Real nearest = kInfinity;
  for (int j = 0; j < shape.count; ++j) {
    nearest = std::min(nearest, ray_capsule_distance_from_outside({0, 0}, d, shape.edge(j), reach));
  }
  return nearest / speed;
}

bool meets_edge(const Segment& e, Real reach, Real horizon, Vec2 w) {
  return squared_distance_from_sweep(w * horizon, e) <= reach * reach;
}

SpeedInterval speeds_meeting_edge(const Segment& e, Real reach, Real horizon, Vec2 w0, Vec2 d) {
  // The boundary's pieces, in the space of relative velocities: the cap (the capsule
  // scaled by 1 / horizon: two circles and two sides) and the legs (lines from the origin
  // tangent to the end discs). At most ten crossings.
  Real crossings[10];
  int count = 0;
  const Real inv_h = Real(1) / horizon;
  const Real rho = reach * inv_h;
  for (const Vec2 end : {e.a, e.b}) {
    const Vec2 m = w0 - end * inv_h;
    const Real b = dot(m, d);
    const Real discriminant = b * b - (length_squared(m) - rho * rho);
    if (discriminant >= 0) {
      const Real root = std::sqrt(discriminant);
      crossings[count++] = -b - root;
      crossings[count++] = -b + root;
    }
    const Real dist = length(end);
    if (dist > reach) {  // the legs
      const Vec2 u = end * (Real(1) / dist);
      const Real sin_a = reach / dist, cos_a = std::sqrt(1 - sin_a * sin_a);
      for (const Real side : {Real(1), Real(-1)}) {
        const Vec2 leg{u.x * cos_a - side * u.y * sin_a, side * u.x * sin_a + u.y * cos_a};
        const Real denom = cross(leg, d);
        if (std::fabs(denom) > Real(1e-12)) crossings[count++] = -cross(leg, w0) / denom;
      }
    }
  }
  const Vec2 along = e.b - e.a;
  const Real len = length(along);
  if (len > 0) {  // the sides
    const Vec2 u = along * (Real(1) / len), n{-u.y, u.x};
    const Real denom = cross(u, d);
    if (std::fabs(denom) > Real(1e-12)) {
      for (const Real side : {Real(1), Real(-1)}) {
        const Vec2 on = (e.a + n * (side * reach)) * inv_h;
        crossings[count++] = cross(u, on - w0) / denom;
      }
    }
  }
  for (int i = 1; i < count; ++i) {
    for (int j = i; j > 0 && crossings[j] < crossings[j - 1]; --j) std::swap(crossings[j], crossings[j - 1]);
  }
  const auto inside_after = [&](Real s) {
    const Real past = s + Real(1e-4) * (Real(1) + s);
    return meets_edge(e, reach, horizon, w0 + d * past);
  };
  SpeedInterval speeds{kInfinity, kInfinity};
  int i = 0;
  if (meets_edge(e, reach, horizon, w0)) {
    speeds.enter = 0;
  } else {
    for (; i < count && !(crossings[i] >= 0 && inside_after(crossings[i])); ++i) {
    }
    if (i == count) return speeds;
    speeds.enter = crossings[i++];
  }
  for (; i < count; ++i) {
    if (crossings[i] > speeds.enter && !inside_after(crossings[i])) {
      speeds.leave = crossings[i];
      break;
    }
  }
  return speeds;
}

}  // namespace contextsteer
