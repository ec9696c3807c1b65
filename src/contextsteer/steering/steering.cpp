#include "contextsteer/steering/steering.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/base/real_math.hpp"
#include "contextsteer/steering/avoidance.hpp"
#include "contextsteer/steering/classic_support.hpp"
#include "contextsteer/steering/following.hpp"

namespace contextsteer {

ClassicKind parse_classic_kind(const std::string& name, const char* argument) {
  if (name == "seek") return ClassicKind::Seek;
  if (name == "flee") return ClassicKind::Flee;
  if (name == "arrive") return ClassicKind::Arrive;
  if (name == "leave") return ClassicKind::Leave;
  if (name == "pursue") return ClassicKind::Pursue;
  if (name == "evade") return ClassicKind::Evade;
  if (name == "face") return ClassicKind::Face;
  if (name == "look_where_you_go") return ClassicKind::LookWhereYouGo;
  if (name == "obstacle_avoidance") return ClassicKind::ObstacleAvoidance;
  if (name == "wall_avoidance") return ClassicKind::WallAvoidance;
  if (name == "separation") return ClassicKind::Separation;
  if (name == "follow_path") return ClassicKind::FollowPath;
  if (name == "follow_field") return ClassicKind::FollowField;
  throw std::invalid_argument(std::string(argument) +
                              ": expected one of 'seek', 'flee', 'arrive', 'leave', 'pursue', 'evade', 'face', "
                              "'look_where_you_go', 'obstacle_avoidance', 'wall_avoidance', 'separation', "
                              "'follow_path', 'follow_field', got '" +
                              name + "'");
}

CombinerKind parse_combiner(const std::string& name, const char* argument) {
  if (name == "blend") return CombinerKind::Blend;
  if (name == "priority") return CombinerKind::Priority;
  throw std::invalid_argument(std::string(argument) + ": expected one of 'blend', 'priority', got '" + name + "'");
}

Real wrap_angle(Real angle) {
  Real a = std::remainder(angle, kTwoPi);
  return a <= -kPi ? a + kTwoPi : a;
}

namespace {

using classic_support::reach_time;
using classic_support::reach_velocity;
using classic_support::unit;

// Aim the heading at `angle` (see the header).
Real align(const SceneView& scene, int a, Real angle, const ClassicBehavior& b) {
  const Real r = wrap_angle(angle - scene.heading(a));
  const Real t = reach_time(scene, b.time_to_target);
  // Aligned: stop turning (the rotation is set to 0 when there is no angular
  // steering); keeping the angular velocity would carry the heading past the goal.
  if (std::fabs(r) < b.align_tolerance) return -scene.angular_velocity(a) / t;
  const Real goal = std::copysign(std::min(scene.max_turn_rate_of(a), std::fabs(r) / t), r);
  return (goal - scene.angular_velocity(a)) / t;
}

Vec2 predicted_target(const SceneView& scene, int a, Vec2 t, Vec2 w, Real max_prediction) {
  const Real distance = length(t - scene.position(a));
  const Real speed = length(scene.velocity(a));
  const Real prediction = speed <= distance / max_prediction ? max_prediction : distance / speed;
  return t + w * prediction;
}

}  // namespace

SteeringOutput classic_output(const ClassicBehavior& b, const SceneView& scene, int a) {
  const Vec2 p = scene.position(a);
  const Vec2 t = b.fixed_target ? b.target : scene.target_of(a);
  const Vec2 w = b.fixed_target ? Vec2{} : scene.target_velocity_of(a);
  // Seek and flee at "full" acceleration; an unlimited agent gets a unit-scale push.
  const Real max_acc = classic_support::full_acceleration(scene, a);
  const Real max_speed = scene.max_speed_of(a);
  SteeringOutput out;
  switch (b.kind) {
    case ClassicKind::Seek:
      out.linear = unit(t - p) * max_acc;
      break;
    case ClassicKind::Flee:
      out.linear = unit(p - t) * max_acc;
      break;
    case ClassicKind::Pursue:
      out.linear = unit(predicted_target(scene, a, t, w, b.max_prediction) - p) * max_acc;
      break;
    case ClassicKind::Evade:
      out.linear = unit(p - predicted_target(scene, a, t, w, b.max_prediction)) * max_acc;
      break;
    case ClassicKind::Arrive: {
      const Real d = length(t - p);
      Real speed = 0;
      if (d >= b.target_radius) speed = d > b.slowing_radius ? max_speed : max_speed * d / b.slowing_radius;
      out.linear = reach_velocity(scene, a, unit(t - p) * speed, b.time_to_target);
      break;
    }
    case ClassicKind::Leave: {
      const Real d = length(p - t);
      if (d > b.danger_radius) break;
      const Real reduction = d < b.escape_radius ? Real(0) : d / b.danger_radius * max_speed;
      out.linear = reach_velocity(scene, a, unit(p - t) * (max_speed - reduction), b.time_to_target);
      break;
    }
    case ClassicKind::Face: {
      const Vec2 to = t - p;
      if (length_squared(to) > 0) out.angular = align(scene, a, math::atan2(to.y, to.x), b);
      break;
    }
    case ClassicKind::LookWhereYouGo: {
      const Vec2 v = scene.velocity(a);
      if (length_squared(v) > Real(1e-12)) out.angular = align(scene, a, math::atan2(v.y, v.x), b);
      break;
    }
    case ClassicKind::ObstacleAvoidance:
      out.linear = obstacle_avoidance(b, scene, a);
      break;
    case ClassicKind::WallAvoidance:
      out.linear = wall_avoidance(b, scene, a);
      break;
    case ClassicKind::Separation:
      out.linear = separation(b, scene, a);
      break;
    case ClassicKind::FollowPath:
      out.linear = follow_path(b, scene, a);
      break;
    case ClassicKind::FollowField:
      out.linear = follow_field(b, scene, a);
      break;
  }
  return out;
}

ClassicSteering::ClassicSteering(std::vector<ClassicBehavior> behaviors, CombinerKind combiner, Real epsilon)
    : behaviors_(std::move(behaviors)), combiner_(combiner), epsilon_(epsilon) {
  require_nonnegative(epsilon, "epsilon");
  for (const ClassicBehavior& b : behaviors_) {
    require_bounded(b.weight, "weight");
    if (b.fixed_target) {
      require_bounded(b.target.x, "target", "a coordinate", " in metres");
      require_bounded(b.target.y, "target", "a coordinate", " in metres");
    }
    require_positive(b.time_to_target, "time_to_target", "a time", " in seconds");
    require_positive(b.max_prediction, "max_prediction", "a time", " in seconds");
    require_positive(b.slowing_radius, "slowing_radius", "a distance", " in metres");
    require_positive(b.danger_radius, "danger_radius", "a distance", " in metres");
    require_nonnegative(b.target_radius, "target_radius", "a distance", " in metres");
    require_nonnegative(b.escape_radius, "escape_radius", "a distance", " in metres");
    require_nonnegative(b.align_tolerance, "align_tolerance", "an angle", " in radians");
    require_positive(b.horizon, "horizon", "a time", " in seconds");
    require_nonnegative(b.margin, "margin", "a distance", " in metres");
    require_nonnegative(b.feeler_angle, "feeler_angle", "an angle", " in radians");
    if (b.feeler_angle >= kPi / 2) {
      throw std::invalid_argument("feeler_angle: expected an angle in radians below pi / 2, got " +
                                  format_real(b.feeler_angle));
    }
    require_positive(b.radius, "radius", "a distance", " in metres");
    require_positive(b.lookahead, "lookahead", "a distance", " in metres");
    if (b.kind == ClassicKind::FollowPath && !b.path) throw std::invalid_argument("path: expected waypoints, got none");
    if (b.kind == ClassicKind::FollowField && !b.field)
      throw std::invalid_argument("field: expected a field, got none");
    if (b.kind == ClassicKind::Face || b.kind == ClassicKind::LookWhereYouGo) steers_heading_ = true;
    levels_.push_back(b.priority);
  }
  std::sort(levels_.begin(), levels_.end());
  levels_.erase(std::unique(levels_.begin(), levels_.end()), levels_.end());
}

SteeringOutput ClassicSteering::blend(const SceneView& scene, int a, int priority, bool all) const {
  SteeringOutput sum;
  for (const ClassicBehavior& b : behaviors_) {
    if (!all && b.priority != priority) continue;
    const SteeringOutput o = classic_output(b, scene, a);
    sum.linear = sum.linear + o.linear * b.weight;
    sum.angular += o.angular * b.weight;
  }
  sum.linear = truncate(sum.linear, scene.max_acceleration_of(a));
  return sum;
}

SteeringOutput ClassicSteering::compute(const SceneView& scene, int a, int* level) const {
  if (combiner_ == CombinerKind::Blend) return blend(scene, a, 0, true);
  SteeringOutput out;
  for (int priority : levels_) {
    out = blend(scene, a, priority, false);
    if (level) *level = priority;  // the last level when none exceeds epsilon
    if (length(out.linear) > epsilon_ || std::fabs(out.angular) > epsilon_) return out;
  }
  return out;
}

ClassicSteering::Explanation ClassicSteering::explain(const SceneView& scene, int a) const {
  Explanation e;
  for (const ClassicBehavior& b : behaviors_) e.behaviors.push_back(classic_output(b, scene, a));
  e.combined = compute(scene, a, &e.level);
  return e;
}

}  // namespace contextsteer
