#include "avoid.hpp"

#include <algorithm>
#include <cmath>

namespace contextsteer {

void check_circles(const std::vector<Circle>& circles, const char* argument) {
  for (const Circle& c : circles) {
    if (!std::isfinite(c.centre.x) || !std::isfinite(c.centre.y) || !std::isfinite(c.radius) || c.radius < 0) {
      throw std::invalid_argument(std::string(argument) + ": expected finite circles with radius >= 0");
    }
  }
}

Avoid::Avoid(std::vector<Circle> circles, const AvoidParams& params)
    : Behavior(params.weight), circles_(std::move(circles)), params_(params) {
  if (!(params.max_distance > 0)) {
    throw std::invalid_argument("max_distance: expected a distance > 0 in metres, got " +
                                std::to_string(params.max_distance));
  }
  check_circles(circles_, "circles");
}

void Avoid::add_danger(Vec2 p, Real agent_radius, const Circle& c, const SlotDirections& dirs, Real* row) const {
  const int slots = dirs.slots();
  const Vec2 to = c.centre - p;
  const Real d = length(to);
  const Real reach = c.radius + agent_radius;
  const Real clearance = std::max(Real(0), d - reach);
  if (clearance > params_.max_distance) return;
  const Real w = falloff_value(params_.falloff, clearance, params_.max_distance);

  const Real half_slot = dirs.spacing() / 2;
  if (d < Real(1e-6) || slots == 1) {  // no bearing, or one slot whose arc is the whole circle
    for (int i = 0; i < slots; ++i) row[i] = std::max(row[i], w);
    return;
  }
  // A slot is covered when the angle between its direction and the bearing is at most
  // alpha + h, i.e. dot(u, d_i) >= cos(alpha + h); alpha + h <= pi since alpha <= pi/2
  // and h <= pi/2 for two slots or more.
  const Real sin_alpha = std::min(Real(1), reach / d);
  const Real cos_alpha = std::sqrt(1 - sin_alpha * sin_alpha);
  const Real min_cos = cos_alpha * std::cos(half_slot) - sin_alpha * std::sin(half_slot);
  const Real ux = to.x / d;
  const Real uy = to.y / d;
  const Real* dx = dirs.x();
  const Real* dy = dirs.y();
  // The tiny tolerance keeps an obstacle that exactly touches an arc's edge on both sides.
  for (int i = 0; i < slots; ++i) {
    if (ux * dx[i] + uy * dy[i] >= min_cos - Real(1e-6)) row[i] = std::max(row[i], w);
  }
}

void Avoid::fill(const SceneView& scene, int begin, int end, const SlotDirections& dirs, Real*, Real* danger) const {
  const int slots = dirs.slots();
  for (int a = begin; a < end; ++a) {
    Real* row = danger + static_cast<std::size_t>(a - begin) * slots;
    const Vec2 p = scene.position(a);
    const Real agent_radius = scene.radius ? scene.radius[a] : Real(0);
    for (const Circle& c : circles_) add_danger(p, agent_radius, c, dirs, row);
    if (params_.world_obstacles) {
      for (int k = 0; k < scene.obstacle_count; ++k) add_danger(p, agent_radius, scene.obstacles[k], dirs, row);
    }
  }
}

}  // namespace contextsteer
