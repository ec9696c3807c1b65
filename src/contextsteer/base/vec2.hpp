// A plain 2D vector for the geometry the behaviours and the world need.
#pragma once

#include <cmath>

#include "contextsteer/base/real.hpp"

namespace contextsteer {

struct Vec2 {
  Real x = 0;
  Real y = 0;
};

inline Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
inline Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
inline Vec2 operator*(Vec2 a, Real s) { return {a.x * s, a.y * s}; }
inline Vec2 operator*(Real s, Vec2 a) { return {a.x * s, a.y * s}; }
inline Real dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
inline Real length_squared(Vec2 a) { return dot(a, a); }
inline Real length(Vec2 a) { return std::sqrt(dot(a, a)); }
inline bool within_bound(Vec2 a) { return within_bound(a.x) && within_bound(a.y); }

// Shortens `v` to at most `max_length`; returns it unchanged when already shorter.
inline Vec2 truncate(Vec2 v, Real max_length) {
  const Real len2 = length_squared(v);
  if (len2 <= max_length * max_length) return v;
  return v * (max_length / std::sqrt(len2));
}

// Reads the i-th point of an interleaved (n, 2) array.
inline Vec2 load(const Real* xy, std::size_t i) { return {xy[2 * i], xy[2 * i + 1]}; }
inline void store(Real* xy, std::size_t i, Vec2 v) {
  xy[2 * i] = v.x;
  xy[2 * i + 1] = v.y;
}

}  // namespace contextsteer
