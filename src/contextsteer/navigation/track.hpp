// A race track: a centreline polyline with a half-width, and a racing line given as a
// lateral offset at each centreline point. Positions are located on it by arc length s
// along the centreline and lateral offset e (metres, positive to the left).
#pragma once

#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/navigation/polyline.hpp"

namespace contextsteer {

class Track {
 public:
  // Throws std::invalid_argument for fewer than 2 points, a half-width that is not > 0,
  // a racing line of another length or beyond the half-width.
  Track(std::vector<Vec2> centreline, Real half_width, std::vector<Real> racing_line, bool closed);

  Real half_width() const { return half_width_; }
  Real length() const { return centreline_.length(); }
  bool closed() const { return centreline_.closed(); }
  // The centreline's points, the first repeated at the end on a closed track.
  const std::vector<Vec2>& centreline() const { return centreline_.vertices(); }
  const std::vector<Real>& racing_line() const { return racing_line_; }

  // Arc length and lateral offset of the centreline point closest to p.
  void locate(Vec2 p, Real& s, Real& e) const;
  // The same for a car last located at arc length `last` (NaN when unknown): the closest
  // point within [last, last + window] (Polyline::closest_after).
  void locate_after(Vec2 p, Real last, Real window, Real& s, Real& e) const;
  // The point at arc length s (wrapped on a closed track, clamped on an open one) and
  // lateral offset e; `tangent` receives the unit direction of travel there.
  Vec2 point_at(Real s, Real e, Vec2* tangent = nullptr) const;
  // The racing line's lateral offset at arc length s, interpolated between points.
  Real racing_offset(Real s) const;
  // s2 - s1 as a distance along the track: in (-length/2, length/2] on a closed track.
  Real ahead(Real s1, Real s2) const;

 private:
  Polyline centreline_;
  std::vector<Real> racing_line_;  // lateral offset at each centreline vertex, metres
  Real half_width_;
};

}  // namespace contextsteer
