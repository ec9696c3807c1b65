#include "contextsteer/steering/avoidance.hpp"

#include <algorithm>
#include <cmath>

#include "contextsteer/base/real_math.hpp"
#include "contextsteer/geometry/geometry.hpp"
#include "contextsteer/steering/classic_support.hpp"
#include "contextsteer/steering/steering.hpp"

namespace contextsteer {

using classic_support::full_acceleration;
using classic_support::unit;

namespace {

// Below this speed (m/s) an agent counts as at rest.
constexpr Real kAtRest = Real(1e-6);

// The agent's direction of travel: along its velocity, or its heading at rest.
Vec2 travel_direction(const SceneView& scene, int a) {
  const Vec2 v = scene.velocity(a);
  const Real s = length(v);
  if (s > kAtRest) return v * (1 / s);
  return {math::cos(scene.heading(a)), math::sin(scene.heading(a))};
}

// The outward normal of wall w at point h near it; `fallback` when h lies on it.
Vec2 wall_normal(const Segment& w, Vec2 h, Vec2 fallback) {
  const Vec2 n = unit(h - closest_point_on_segment(w, h));
  return length_squared(n) > 0 ? n : fallback;
}

// The walls [first, end) of obstacles().walls() that are polygon edges.
struct WallRange {
  int first, end;
};
WallRange polygon_edges(const Obstacles& o) {
  const int first = static_cast<int>(o.segment_layers().size());
  return {first, first + static_cast<int>(o.polygon_vertices().size())};
}

// Whether agent a senses wall j: bounds' sides are sensed by everyone.
bool senses_wall(const SceneView& scene, int a, const Obstacles& o, int j) {
  return j >= polygon_edges(o).end || (scene.senses(a) & o.wall_layers()[j]) != 0;
}

// Keeps (value, n) in (best, best_normal) when value is the smaller (or the larger) one.
// Ties go to the lower normal, so that the order of the index's calls does not matter.
void keep_nearest(Real& best, Vec2& best_normal, Real value, Vec2 n, bool smaller) {
  const bool better = smaller ? value < best : value > best;
  if (better || (value == best && (n.x < best_normal.x || (n.x == best_normal.x && n.y < best_normal.y)))) {
    best = value;
    best_normal = n;
  }
}

// The share of full acceleration that pushes out an agent `within` metres inside the
// margin: within / margin, at most 1 (1 with no margin, 0 when not within).
Real proximity(Real within, Real margin) {
  if (!(within > 0)) return 0;
  return margin > 0 ? std::min(Real(1), within / margin) : Real(1);
}

}  // namespace

Vec2 obstacle_avoidance(const ClassicBehavior& b, const SceneView& scene, int a) {
  const Obstacles* o = scene.obstacles;
  if (!o) return {};
  const Vec2 p = scene.position(a);
  const Real speed = length(scene.velocity(a));
  const Vec2 d = travel_direction(scene, a);
  const Real reach = speed * b.horizon;  // metres the agent travels within the horizon
  const Real r = scene.radius_of(a);
  const Real grown = r + b.margin;
  Real deepest = 0;  // metres the nearest obstacle comes within r + margin
  Vec2 deepest_normal;
  const LayerMask mask = scene.senses(a);
  const WallRange edges = polygon_edges(*o);
  Real first = kInfinity;  // metres to the first touch
  Vec2 normal;
  o->for_each_near(
      p, reach + grown,
      [&](int i) {
        const Circle& c = o->circles()[i];
        if ((mask & o->circle_layers()[i]) == 0) return;
        const Real within = grown - (length(p - c.centre) - c.radius);
        if (within > 0) keep_nearest(deepest, deepest_normal, within, unit(p - c.centre), false);
        if (speed <= kAtRest) return;
        const Real t = ray_circle_distance(p, d, c.centre, c.radius + grown);
        if (t <= reach) keep_nearest(first, normal, t, unit(p + d * t - c.centre), true);
      },
      [&](int j) {
        if (j < edges.first || j >= edges.end || (mask & o->wall_layers()[j]) == 0) return;
        const Segment& w = o->walls()[j];
        const Real within = grown - length(p - closest_point_on_segment(w, p));
        if (within > 0) keep_nearest(deepest, deepest_normal, within, wall_normal(w, p, d * Real(-1)), false);
        if (speed <= kAtRest) return;
        const Real t = ray_capsule_distance(p, d, w, grown);
        if (t <= reach) keep_nearest(first, normal, t, wall_normal(w, p + d * t, d * Real(-1)), true);
      });
  const Real full = full_acceleration(scene, a);
  Vec2 out = deepest_normal * (full * proximity(deepest, b.margin));
  if (!(first <= reach)) return out;
  Vec2 across = normal - d * dot(normal, d);
  if (length_squared(across) < Real(1e-12)) across = {-d.y, d.x};  // head on: to the left
  const Real used = 1 - first / reach;
  return out + (unit(across) - d * used) * full;
}

Vec2 wall_avoidance(const ClassicBehavior& b, const SceneView& scene, int a) {
  const Obstacles* o = scene.obstacles;
  if (!o || o->walls().empty()) return {};
  const Vec2 p = scene.position(a);
  const Vec2 d = travel_direction(scene, a);
  const Real r = scene.radius_of(a);
  const Real length_ahead = b.margin + length(scene.velocity(a)) * b.horizon;
  const Real c = math::cos(b.feeler_angle), s = math::sin(b.feeler_angle);
  const Vec2 directions[3] = {d, {d.x * c - d.y * s, d.x * s + d.y * c}, {d.x * c + d.y * s, -d.x * s + d.y * c}};
  const Real lengths[3] = {length_ahead, length_ahead / 2, length_ahead / 2};
  Real touch[3] = {kInfinity, kInfinity, kInfinity};  // metres along each feeler
  Vec2 normals[3];
  Real deepest = 0;  // metres the nearest wall comes within r + margin
  Vec2 deepest_normal;
  o->for_each_near(
      p, length_ahead + r + b.margin, [](int) {},
      [&](int j) {
        if (!senses_wall(scene, a, *o, j)) return;
        const Segment& w = o->walls()[j];
        for (int f = 0; f < 3; ++f) {
          const Real t = ray_capsule_distance(p, directions[f], w, r);
          if (t < lengths[f])
            keep_nearest(touch[f], normals[f], t, wall_normal(w, p + directions[f] * t, d * Real(-1)), true);
        }
        const Real within = r + b.margin - length(p - closest_point_on_segment(w, p));
        if (within > 0) keep_nearest(deepest, deepest_normal, within, wall_normal(w, p, d * Real(-1)), false);
      });
  const Real full = full_acceleration(scene, a);
  Vec2 out;
  for (int f = 0; f < 3; ++f) {
    if (touch[f] < lengths[f]) out = out + normals[f] * (full * (lengths[f] - touch[f]) / lengths[f]);
  }
  out = out + deepest_normal * (full * proximity(deepest, b.margin));
  return out;
}

Vec2 separation(const ClassicBehavior& b, const SceneView& scene, int a) {
  if (!scene.grid) return {};
  const Vec2 p = scene.position(a);
  const Real r = scene.radius_of(a);
  const LayerMask mask = scene.senses(a);
  const Real full = full_acceleration(scene, a);
  Vec2 out;
  scene.grid->for_each_within(p, b.radius + r + scene.max_radius, [&](const Neighbor& n) {
    if (n.agent == a || (mask & n.layer) == 0) return;
    const Real distance = std::sqrt(n.distance_squared);
    const Real gap = distance - r - n.radius;
    if (gap >= b.radius) return;
    Vec2 away = distance > 0 ? (p - n.position) * (1 / distance) : Vec2{};
    if (distance == 0) away = {scene.id_of(a) < scene.id_of(n.agent) ? Real(-1) : Real(1), 0};
    out = out + away * (full * std::min(Real(1), (b.radius - gap) / b.radius));
  });
  return truncate(out, full);
}

}  // namespace contextsteer
