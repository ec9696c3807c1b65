#include "contextsteer/world/motion.hpp"

#include <algorithm>
#include <cmath>

#include "contextsteer/kernels/lane_atan2.hpp"
#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/steering/steering.hpp"

namespace contextsteer {

namespace {

// Every function below takes V = Real (one agent) or a W-lane vector, with the same
// operations in the same order: that is what makes both paths give the same bits.

// A heading outside (-pi, pi] wrapped into it; such headings only come from users.
CONTEXTSTEER_ALWAYS_INLINE Real wrapped(Real heading) {
  return std::fabs(heading) <= kPi ? heading : wrap_angle(heading);
}
#ifdef CONTEXTSTEER_SIMD
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V wrapped(V heading) {
  const auto outside = !(select(heading < Real(0), -heading, heading) <= kPi);
  if (mask_bits(outside)) {
    for (unsigned l = 0; l < sizeof(V) / sizeof(Real); ++l) heading[l] = wrapped(heading[l]);
  }
  return heading;
}
#endif

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

// Returns the squared distance the agent moved, m^2.
Real move_one(const MotionColumns& c, int a, Real h, int substeps) {
  AgentLanes<Real> m;
  m.px = c.position[2 * a], m.py = c.position[2 * a + 1];
  const Real x0 = m.px, y0 = m.py;
  m.vx = c.velocity[2 * a], m.vy = c.velocity[2 * a + 1];
  m.heading = c.heading[a], m.omega = c.angular_velocity[a];
  m.desired_x = c.direction[2 * a], m.desired_y = c.direction[2 * a + 1];
  load_limits(m, c, h, [a](const Real* column) { return column[a]; });
  move(m, h, substeps);
  c.position[2 * a] = m.px, c.position[2 * a + 1] = m.py;
  c.velocity[2 * a] = m.vx, c.velocity[2 * a + 1] = m.vy;
  c.heading[a] = m.heading, c.angular_velocity[a] = m.omega;
  return travel_squared(x0, y0, m.px, m.py);
}

#ifdef CONTEXTSTEER_SIMD

// Splits W interleaved (x, y) pairs at xy into their x and y lanes, and back.
template <int W>
CONTEXTSTEER_ALWAYS_INLINE void load_pairs(const Real* xy, typename Lanes<W>::Reals& x, typename Lanes<W>::Reals& y) {
  using V = typename Lanes<W>::Reals;
  const V lo = load_lanes<V>(xy), hi = load_lanes<V>(xy + W);
  if constexpr (W == 4) {
    x = shuffle<0, 2, 4, 6>(lo, hi);
    y = shuffle<1, 3, 5, 7>(lo, hi);
  } else {
    x = shuffle<0, 2, 4, 6, 8, 10, 12, 14>(lo, hi);
    y = shuffle<1, 3, 5, 7, 9, 11, 13, 15>(lo, hi);
  }
}
template <int W>
CONTEXTSTEER_ALWAYS_INLINE void store_pairs(Real* xy, typename Lanes<W>::Reals x, typename Lanes<W>::Reals y) {
  if constexpr (W == 4) {
    store_lanes(xy, shuffle<0, 4, 1, 5>(x, y));
    store_lanes(xy + W, shuffle<2, 6, 3, 7>(x, y));
  } else {
    store_lanes(xy, shuffle<0, 8, 1, 9, 2, 10, 3, 11>(x, y));
    store_lanes(xy + W, shuffle<4, 12, 5, 13, 6, 14, 7, 15>(x, y));
  }
}

// Agents first .. first + count - 1, W at a time; returns how many it moved (a multiple of W),
// and the largest squared distance one of them moved in `farthest` (m^2).
template <int W>
CONTEXTSTEER_ALWAYS_INLINE int move_lanes(const MotionColumns& c, int first, int count, Real h, int substeps,
                                          Real& farthest) {
  using V = typename Lanes<W>::Reals;
  V travel{};
  int k = 0;
  for (; k + W <= count; k += W) {
    const int a = first + k;
    AgentLanes<V> m;
    load_pairs<W>(c.position + 2 * a, m.px, m.py);
    load_pairs<W>(c.velocity + 2 * a, m.vx, m.vy);
    load_pairs<W>(c.direction + 2 * a, m.desired_x, m.desired_y);
    m.heading = load_lanes<V>(c.heading + a);
    m.omega = load_lanes<V>(c.angular_velocity + a);
    load_limits(m, c, h,
                [a](const Real* column) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE { return load_lanes<V>(column + a); });
    const V x0 = m.px, y0 = m.py;
    move(m, h, substeps);
    travel = lane_max(travel, travel_squared(x0, y0, m.px, m.py));
    store_pairs<W>(c.position + 2 * a, m.px, m.py);
    store_pairs<W>(c.velocity + 2 * a, m.vx, m.vy);
    store_lanes(c.heading + a, m.heading);
    store_lanes(c.angular_velocity + a, m.omega);
  }
  farthest = largest_lane(travel);
  return k;
}

int move_baseline(const MotionColumns& c, int first, int count, Real h, int substeps, Real& farthest) {
  return move_lanes<4>(c, first, count, h, substeps, farthest);
}

#ifdef CONTEXTSTEER_AVX2_DISPATCH
CONTEXTSTEER_TARGET_AVX2 int move_avx2(const MotionColumns& c, int first, int count, Real h, int substeps,
                                       Real& farthest) {
  return move_lanes<8>(c, first, count, h, substeps, farthest);
}
#endif

#endif  // CONTEXTSTEER_SIMD

}  // namespace

Real move_by_decisions(const MotionColumns& columns, int first, int count, Real h, int substeps) {
  int moved = 0;
  Real farthest = 0;
  const int width = kernel_width();
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  if (width == 8) moved = move_avx2(columns, first, count, h, substeps, farthest);
#endif
#ifdef CONTEXTSTEER_SIMD
  if (width == 4) moved = move_baseline(columns, first, count, h, substeps, farthest);
#endif
  (void)width;
  for (int k = moved; k < count; ++k) farthest = std::max(farthest, move_one(columns, first + k, h, substeps));
  return farthest;
}

void follow_velocity(Real& heading, Real& omega, Vec2 v, Real max_turn, Real h) {
  turn_toward(heading, omega, v.x, v.y, max_turn, h);
}

}  // namespace contextsteer
