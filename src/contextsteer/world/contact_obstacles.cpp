// keep_out (contact.hpp): a disc's move swept against the obstacles, then pushed out of
// those it still overlaps. Reads the obstacles only: safe on several threads at once.
#include <algorithm>
#include <cmath>

#include "contextsteer/geometry/geometry.hpp"
#include "contextsteer/world/contact.hpp"

namespace contextsteer {

namespace {

Real cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }

// Up to this many passes of pushing a disc out of what it overlaps: a corner of two walls
// takes two; a gap narrower than the disc has no way out, and the disc stays where the
// last pass put it.
constexpr int kPushPasses = 4;

// The skin for a disc at p: kSkin, or more far from the origin, where float spacing grows.
Real skin_at(Vec2 p) { return kSkin + Real(1e-6) * (std::abs(p.x) + std::abs(p.y)); }

// The unit normal of wall (a, b) on the side of `from`; the side the move d comes from
// when `from` lies on the wall's line.
Vec2 side_normal(const Segment& w, Vec2 from, Vec2 d) {
  const Vec2 e = w.b - w.a;
  const Real len = length(e);
  if (len <= 0) return length(d) > 0 ? d * (-1 / length(d)) : Vec2{1, 0};
  Vec2 n{-e.y / len, e.x / len};  // left of a -> b
  Real side = cross(e, from - w.a);
  if (side == 0) side = -cross(e, d);
  return side >= 0 ? n : n * Real(-1);
}

// Where a disc (radius r) moving from `from` to `to` stops: at the first sensed wall its
// centre would cross (put r + skin off it, on the side it came from) or sensed circle grown
// by r it would enter; `to` when it meets none.
Vec2 sweep(const Obstacles& o, Vec2 from, Vec2 to, Real r, LayerMask mask) {
  const Vec2 d = to - from;
  const Real len = length(d);
  if (!(len > 0)) return to;
  const Real skin = skin_at(to);
  Real first = 2;  // the move's fraction at the first hit; > 1: none
  Vec2 stop = to;
  auto wall = [&](int j) {
    if (!(mask & o.wall_layers()[j])) return;
    const Segment& w = o.walls()[j];
    const Vec2 e = w.b - w.a;
    const Real denominator = cross(d, e);
    if (denominator == 0) return;  // parallel: never crosses
    const Vec2 fa = w.a - from;
    if (cross(e, fa) == 0) return;  // from on the wall's line: leaving it, not crossing
    const Real t = cross(fa, e) / denominator;
    const Real u = cross(fa, d) / denominator;
    if (t < 0 || t > 1 || u < 0 || u > 1 || t >= first) return;
    first = t;
    stop = from + d * t + side_normal(w, from, d) * (r + skin);
  };
  auto circle = [&](int i) {
    if (!(mask & o.circle_layers()[i])) return;
    const Circle& c = o.circles()[i];
    const Real reach = c.radius + r;
    const Vec2 fc = from - c.centre;
    const Real c0 = length_squared(fc) - reach * reach;
    const Vec2 u = d * (1 / len);
    const Real b = dot(fc, u);
    const Real disc = b * b - c0;
    if (b >= 0 || disc < 0) return;  // moving away, or missing it
    // Already within (a disc that started inside): it stays, and the push out settles it.
    const Real t = c0 <= 0 ? Real(0) : (-b - std::sqrt(disc)) / len;
    if (t > 1 || t >= first) return;
    first = std::max(t, Real(0));
    const Vec2 touch = from + d * first - c.centre;
    const Real distance = length(touch);
    stop = c0 <= 0 || !(distance > 0) ? from : c.centre + touch * ((reach + skin) / distance);
  };
  o.for_each_near(from + d * Real(0.5), len * Real(0.5) + r + skin, circle, wall);
  return stop;
}

// The nearest point of the edges of polygon k to p.
Vec2 nearest_edge_point(const Obstacles& o, int k, Vec2 p) {
  const Vec2* v = o.polygon_vertices().data() + o.polygon_start(k);
  const int count = o.polygon_start(k + 1) - o.polygon_start(k);
  Vec2 best = v[0];
  Real best2 = kInfinity;
  for (int i = 0; i < count; ++i) {
    const Vec2 q = closest_point_on_segment({v[i], v[(i + 1) % count]}, p);
    const Real d2 = length_squared(q - p);
    if (d2 < best2) best2 = d2, best = q;
  }
  return best;
}

// One pass of pushing the disc at p out of what it overlaps; true when it moved.
bool push_out(const Obstacles& o, Vec2 from, Vec2& p, Real r, LayerMask mask) {
  const Vec2 before = p;
  const Real skin = skin_at(p);
  auto wall = [&](int j) {
    if (!(mask & o.wall_layers()[j])) return;
    const Segment& w = o.walls()[j];
    const Vec2 q = closest_point_on_segment(w, p);
    const Vec2 away = p - q;
    const Real distance = length(away);
    if (distance >= r) return;
    const Vec2 n = distance > 0 ? away * (1 / distance) : side_normal(w, from, p - from);
    p = sweep(o, p, q + n * (r + skin), r, mask);
  };
  auto circle = [&](int i) {
    if (!(mask & o.circle_layers()[i])) return;
    const Circle& c = o.circles()[i];
    const Vec2 away = p - c.centre;
    const Real distance = length(away);
    if (distance >= c.radius + r) return;
    const Vec2 back = from - c.centre;
    const Vec2 n = distance > 0 ? away * (1 / distance) : length(back) > 0 ? back * (1 / length(back)) : Vec2{1, 0};
    p = sweep(o, p, c.centre + n * (c.radius + r + skin), r, mask);
  };
  o.for_each_near(p, r + skin, circle, wall);
  auto polygon = [&](int k) {
    if (!(mask & o.polygon_layers()[k])) return;
    const Vec2* v = o.polygon_vertices().data() + o.polygon_start(k);
    if (!point_in_polygon(v, o.polygon_start(k + 1) - o.polygon_start(k), p)) return;
    const Vec2 q = nearest_edge_point(o, k, p);
    const Vec2 out = q - p;
    const Real distance = length(out);
    p = distance > 0 ? q + out * ((r + skin) / distance) : q;
  };
  if (o.indexed()) {
    o.index().for_each_polygon_at(p, polygon);
  } else {
    for (int k = 0; k < o.polygon_count(); ++k) polygon(k);
  }
  if (o.has_bounds()) {
    // Bounds hold every agent, whatever it senses; a disc wider than them sits at their centre.
    const Bounds& b = o.bounds();
    const Real inset = r + skin;
    auto clamp_axis = [&](Real v, Real low, Real high) {
      return low + inset <= high - inset ? std::clamp(v, low + inset, high - inset) : (low + high) / 2;
    };
    p = {clamp_axis(p.x, b.min.x, b.max.x), clamp_axis(p.y, b.min.y, b.max.y)};
  }
  return p.x != before.x || p.y != before.y;
}

}  // namespace

Vec2 keep_out(const Obstacles& obstacles, Vec2 from, Vec2 to, Real r, LayerMask mask) {
  if (obstacles.empty()) return to;
  Vec2 p = sweep(obstacles, from, to, r, mask);
  for (int pass = 0; pass < kPushPasses && push_out(obstacles, from, p, r, mask); ++pass) {
  }
  return p;
}

}  // namespace contextsteer
