// The motion law of move_by_decisions (motion.hpp), for one agent (V = Real) or for W
// agents in the lanes of a vector (kernels/simd.hpp), with the same operations in the same
// order: that is what makes every path give the same bits. The scalar path (motion.cpp)
// and the vector kernel (kernels/wide/move_agents.inl) are both written with it.
#pragma once

#include <cmath>

#include "contextsteer/base/real.hpp"
#include "contextsteer/kernels/lane_atan2.hpp"
#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/steering/steering.hpp"
#include "contextsteer/world/motion.hpp"

namespace contextsteer {

namespace motion_law {

// A heading outside (-pi, pi] wrapped into it; such headings only come from users.
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V wrapped(V heading) {
  return apply_where(!(select(heading < Real(0), -heading, heading) <= kPi), heading,
                     [](Real h) { return wrap_angle(h); });
}

// An angle within (-3 pi, 3 pi) brought into (-pi, pi] by one step.
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V wrap_near(V a) {
  return select(a > kPi, a - kTwoPi, select(a <= -kPi, a + kTwoPi, a));
}

template <class V>
CONTEXTSTEER_ALWAYS_INLINE void turn_toward(V& heading, V& omega, V vx, V vy, V max_turn, Real h) {
  const auto moving = vx * vx + vy * vy >= Real(1e-12);
  const V current = wrapped(heading);
  const V diff = wrap_near(lane_atan2(vy, vx) - current);
  const V limit = max_turn * h;
  const V turn = select(diff < -limit, -limit, select(limit < diff, limit, diff));  // std::clamp
  heading = select(moving, wrap_near(current + turn), heading);
  omega = select(moving, turn / h, V{});
}

template <class V>
struct AgentLanes {
  V px, py, vx, vy, heading, omega;  // the state, moved in place
  V desired_x, desired_y;            // m/s
  V max_change;                      // the largest velocity change per substep, m/s
  V max_turn;                        // rad/s
};

template <class V>
CONTEXTSTEER_ALWAYS_INLINE void move(AgentLanes<V>& m, Real h, int substeps) {
  for (int s = 0; s < substeps; ++s) {
    // v += truncate(desired - v, max_change): a scale of exactly 1 leaves it as is.
    const V dx = m.desired_x - m.vx, dy = m.desired_y - m.vy;
    const V len2 = dx * dx + dy * dy;
    const V scale = select(len2 <= m.max_change * m.max_change, splat<V>(Real(1)), m.max_change / lane_sqrt(len2));
    m.vx = m.vx + dx * scale;
    m.vy = m.vy + dy * scale;
    m.px = m.px + m.vx * h;  // semi-implicit Euler: the new velocity moves the agent
    m.py = m.py + m.vy * h;
    turn_toward(m.heading, m.omega, m.vx, m.vy, m.max_turn, h);
  }
}

// The limits of agents as AgentLanes hold them; V's lanes come from `load`.
template <class V, class Load>
CONTEXTSTEER_ALWAYS_INLINE void load_limits(AgentLanes<V>& m, const MotionColumns& c, Real h, Load load) {
  const V max_speed = load(c.max_speed);
  const V strength_speed = load(c.strength) * max_speed;
  m.desired_x = m.desired_x * strength_speed;  // holds the direction on entry
  m.desired_y = m.desired_y * strength_speed;
  const V by_acceleration = load(c.max_acceleration), by_force = load(c.max_force) / load(c.mass);
  m.max_change = select(by_force < by_acceleration, by_force, by_acceleration) * h;  // std::min
  m.max_turn = load(c.max_turn_rate);
}

// The squared distance (m^2) from (x0, y0) to (x, y), for W agents or one.
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V travel_squared(V x0, V y0, V x, V y) {
  const V dx = x - x0, dy = y - y0;
  return dx * dx + dy * dy;
}

}  // namespace motion_law

}  // namespace contextsteer
