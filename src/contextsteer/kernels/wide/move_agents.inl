// Agents moved by their decisions, W at a time: the motion law (world/motion_law.hpp) on
// W lanes, read from and written back to the world's columns. Moves the first agents in a
// multiple of W and returns how many; the caller moves the rest one by one (motion.cpp).
// Included by kernels/<set>/move_agents.cpp (dispatch.hpp).
#ifndef CONTEXTSTEER_KERNEL_SET_CHOSEN
#error "a wide kernel is included by kernels/<set>/<name>.cpp, after the set's target.hpp"
#endif

#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/world/motion.hpp"
#include "contextsteer/world/motion_law.hpp"

#ifdef CONTEXTSTEER_KERNEL_SET

namespace contextsteer {

namespace {

using motion_law::AgentLanes;

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
    motion_law::load_limits(
        m, c, h, [a](const Real* column) CONTEXTSTEER_LAMBDA_ALWAYS_INLINE { return load_lanes<V>(column + a); });
    const V x0 = m.px, y0 = m.py;
    motion_law::move(m, h, substeps);
    travel = lane_max(travel, motion_law::travel_squared(x0, y0, m.px, m.py));
    store_pairs<W>(c.position + 2 * a, m.px, m.py);
    store_pairs<W>(c.velocity + 2 * a, m.vx, m.vy);
    store_lanes(c.heading + a, m.heading);
    store_lanes(c.angular_velocity + a, m.omega);
  }
  farthest = largest_lane(travel);
  return k;
}

}  // namespace

namespace CONTEXTSTEER_KERNEL_SET {
CONTEXTSTEER_KERNEL_TARGET int move_agents(const MotionColumns& columns, int first, int count, Real h, int substeps,
                                           Real& farthest) {
  return move_lanes<kLanes>(columns, first, count, h, substeps, farthest);
}
}  // namespace CONTEXTSTEER_KERNEL_SET

}  // namespace contextsteer

#endif
