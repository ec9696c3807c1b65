#include "contextsteer/steering/following.hpp"

#include "contextsteer/steering/classic_support.hpp"
#include "contextsteer/steering/steering.hpp"

namespace contextsteer {

using classic_support::reach_velocity;
using classic_support::unit;

Vec2 follow_path(const ClassicBehavior& b, const SceneView& scene, int a) {
  const Polyline& path = *b.path;
  const Vec2 p = scene.position(a);
  const Real s = path.closest(p).s + b.lookahead;
  const Vec2 q = path.point_at(s);
  const Real d = length(q - p);
  Real speed = scene.max_speed_of(a);
  if (!path.closed() && s >= path.length()) {
    if (d < b.target_radius) {
      speed = 0;
    } else if (d < b.slowing_radius) {
      speed *= d / b.slowing_radius;
    }
  }
  return reach_velocity(scene, a, unit(q - p) * speed, b.time_to_target);
}

Vec2 follow_field(const ClassicBehavior& b, const SceneView& scene, int a) {
  const Vec2 way = b.field->direction_at(scene.position(a));
  return reach_velocity(scene, a, way * scene.max_speed_of(a), b.time_to_target);
}

}  // namespace contextsteer
