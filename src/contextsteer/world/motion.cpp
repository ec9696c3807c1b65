#include "contextsteer/world/motion.hpp"

#include <algorithm>

#include "contextsteer/kernels/dispatch.hpp"
#include "contextsteer/world/motion_law.hpp"

namespace contextsteer {

namespace {

// The scalar path, and the reference of the vector kernel (kernels/wide/move_agents.inl):
// moves agent a, returns the squared distance it moved, m^2.
Real move_one(const MotionColumns& c, int a, Real h, int substeps) {
  motion_law::AgentLanes<Real> m;
  m.px = c.position[2 * a], m.py = c.position[2 * a + 1];
  const Real x0 = m.px, y0 = m.py;
  m.vx = c.velocity[2 * a], m.vy = c.velocity[2 * a + 1];
  m.heading = c.heading[a], m.omega = c.angular_velocity[a];
  m.desired_x = c.direction[2 * a], m.desired_y = c.direction[2 * a + 1];
  motion_law::load_limits(m, c, h, [a](const Real* column) { return column[a]; });
  motion_law::move(m, h, substeps);
  c.position[2 * a] = m.px, c.position[2 * a + 1] = m.py;
  c.velocity[2 * a] = m.vx, c.velocity[2 * a + 1] = m.vy;
  c.heading[a] = m.heading, c.angular_velocity[a] = m.omega;
  return motion_law::travel_squared(x0, y0, m.px, m.py);
}

}  // namespace

Real move_by_decisions(const MotionColumns& columns, int first, int count, Real h, int substeps) {
  int moved = 0;
  Real farthest = 0;
  if (const KernelTable* kernels = vector_kernels())
    moved = kernels->move_agents(columns, first, count, h, substeps, farthest);
  for (int k = moved; k < count; ++k) farthest = std::max(farthest, move_one(columns, first + k, h, substeps));
  return farthest;
}

void follow_velocity(Real& heading, Real& omega, Vec2 v, Real max_turn, Real h) {
  motion_law::turn_toward(heading, omega, v.x, v.y, max_turn, h);
}

}  // namespace contextsteer
