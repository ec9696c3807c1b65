// A polyline measured by arc length: open, from its first point to its last, or closed,
// back to its first. FollowPath's path and a Track's centreline are polylines.
//
// Arc lengths s are metres from the first point. On a closed polyline they wrap around
// its length; on an open one they are clamped to it.
#pragma once

#include <cmath>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/scene/obstacles.hpp"

namespace contextsteer {

class Polyline {
 public:
  // points: at least one, finite (callers check, naming their argument).
  Polyline(std::vector<Vec2> points, bool closed);

  bool closed() const { return closed_; }
  // Metres; a closed polyline's closing leg included.
  Real length() const { return cumulative_.back(); }
  // The points, then the first again when closed.
  const std::vector<Vec2>& vertices() const { return vertices_; }

  // s wrapped into [0, length) when closed, clamped to [0, length] when open.
  Real on_path(Real s) const;
  // The point at arc length s; `tangent` receives the unit direction of travel there
  // ((1, 0) on a polyline of one point).
  Vec2 point_at(Real s, Vec2* tangent = nullptr) const;
  // The leg s (on the path) lies on, and how far along it: vertices i and i + 1, and a
  // fraction in [0, 1]. A polyline of one point has leg 0 of fraction 0.
  int leg_of(Real s, Real& fraction) const;

  struct Closest {
    Real s = 0;                 // arc length, on the path
    Vec2 point;                 // the closest point
    Vec2 tangent{1, 0};         // the direction of travel there
    Real distance_squared = 0;  // to it, m^2
  };
  // The point closest to p among those with arc length in [from, to] (`from` taken onto
  // the path first; on a closed polyline the range may run on into the next lap). The
  // first of equally close points wins. Only the legs that meet the range are measured.
  Closest closest(Vec2 p, Real from, Real to) const;
  // The closest point of the whole polyline: the same as closest(p, 0, length()), to the
  // bit, but from the legs near p alone on a polyline of many legs.
  Closest closest(Vec2 p) const;
  // Where something last seen at arc length `last` is now, at p: the closest point
  // within [last, last + window], or of the whole polyline when `last` is NaN (unknown).
  // Followed step by step, it never goes back, nor jumps to another part of the path
  // that passes close by.
  Closest closest_after(Vec2 p, Real last, Real window) const {
    return std::isnan(last) ? closest(p) : closest(p, last, last + window);
  }

 private:
  // The point of leg i (met `offset` metres further on, on a later lap) closest to p
  // within arc lengths [from, to], which the leg must meet.
  Closest closest_on_leg(Vec2 p, std::size_t i, Real offset, Real from, Real to) const;

  std::vector<Vec2> vertices_;
  std::vector<Real> cumulative_;  // arc length at each vertex, metres
  bool closed_;
  // The legs as walls (wall i is leg i), indexed from Obstacles::kIndexFrom legs on: a
  // track of thousands of points locates a car from the few legs near it.
  Obstacles legs_;
};

}  // namespace contextsteer
