// Rays from one point in many directions at once, against discs and capsules: Rays
// casts one per slot at the obstacles near an agent, Avoid one per slot edge at a wall.
#pragma once

#include "contextsteer/geometry/geometry.hpp"

namespace contextsteer {

// A reach (metres) a little longer than `reach`, against rounding: a ray that misses the
// disc of the widened reach surely misses the disc of `reach`, and an obstacle beyond it
// surely lies beyond `reach`.
inline Real widened(Real reach) { return reach * Real(1.001) + Real(1e-4); }

// Lowers t[i] (metres) to the distance along ray i, from p in the unit direction
// (dx[i], dy[i]), to its first hit on any of the discs circles[0 .. circle_count) (0 when
// p lies within one) and the capsules of radius r round walls[0 .. wall_count), for i in
// [0, count). p must lie outside every capsule (as ray_capsule_distance_from_outside
// needs). The numbers are those of ray_circle_distance and
// ray_capsule_distance_from_outside, to the bit, whether the rays go 8 at a time (AVX2),
// 4 at a time or one by one (when count is not a multiple of 4, or vectors are off).
void lower_to_first_hits(Vec2 p, const Real* dx, const Real* dy, int count, const Circle* circles, int circle_count,
                         const Segment* walls, int wall_count, Real r, Real* t);

}  // namespace contextsteer
