// Motion by context decisions (motion.hpp) and the atan2 it turns headings with: the
// AVX2, 4-lane and scalar paths give the same bits, and follow the formulas of a plain
// double-precision reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "contextsteer/kernels/lane_atan2.hpp"
#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/world/motion.hpp"

using namespace contextsteer;

namespace {

TEST(LaneAtan2, WithinThreeTenthsOfAMicroradianEverywhere) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> angle(-M_PI, M_PI), scale(-6, 6);
  std::vector<Real> xs, ys;
  for (int i = 0; i < 200000; ++i) {
    const double a = angle(rng), r = std::pow(10.0, scale(rng));
    xs.push_back(static_cast<Real>(r * std::cos(a)));
    ys.push_back(static_cast<Real>(r * std::sin(a)));
  }
  // The axes, the diagonals and the octant edges, where the folding switches.
  for (Real x : {Real(-2), Real(-1), Real(-0.0), Real(0), Real(1), Real(3)}) {
    for (Real y : {Real(-2), Real(-0.414213562), Real(-0.0), Real(0), Real(0.414213562), Real(1), Real(2)}) {
      if (x != 0 || y != 0) xs.push_back(x), ys.push_back(y);
    }
  }
  while (xs.size() % 4) xs.push_back(1), ys.push_back(1);
  double worst = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double exact = std::atan2(static_cast<double>(ys[i]), static_cast<double>(xs[i]));
    const Real got = lane_atan2(ys[i], xs[i]);
    // atan2(-0, x < 0) is -pi; this one gives pi, the same heading.
    const double error =
        std::fabs(got - exact) > 6 ? std::fabs(std::fabs(got) - std::fabs(exact)) : std::fabs(got - exact);
    worst = std::max(worst, error);
#ifdef CONTEXTSTEER_SIMD
    if (i % 4 == 0) {
      Real4 x, y;
      std::memcpy(&x, &xs[i], sizeof x);
      std::memcpy(&y, &ys[i], sizeof y);
      const Real4 lanes = lane_atan2(y, x);
      for (int l = 0; l < 4; ++l) {
        const Real one = lane_atan2(ys[i + l], xs[i + l]), lane = lanes[l];
        ASSERT_EQ(std::memcmp(&lane, &one, sizeof one), 0) << "lane " << l << " of point " << i;
      }
    }
#endif
  }
  EXPECT_LT(worst, 3e-7);
  EXPECT_GT(worst, 0);  // a polynomial, not a call to atan2
  EXPECT_FLOAT_EQ(lane_atan2(Real(0), Real(-1)), kPi);
  EXPECT_FLOAT_EQ(lane_atan2(Real(-1), Real(0)), -kPi / 2);
}

struct Agents {
  std::vector<Real> position, velocity, heading, omega, direction, strength;
  std::vector<Real> max_speed, max_acceleration, max_force, mass, max_turn_rate;
  MotionColumns columns() {
    return {position.data(),  velocity.data(), heading.data(),      omega.data(),
            direction.data(), strength.data(), max_speed.data(),    max_acceleration.data(),
            max_force.data(), mass.data(),     max_turn_rate.data()};
  }
};

// n agents with every case the kernel branches on: at rest, blocked (zero direction),
// headings outside (-pi, pi], infinite limits, a force limit below the acceleration limit.
Agents make_agents(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1, 1), pos(0, 1);
  Agents g;
  for (int a = 0; a < n; ++a) {
    const bool at_rest = a % 7 == 0, blocked = a % 11 == 0;
    g.position.insert(g.position.end(), {100 * u(rng), 100 * u(rng)});
    g.velocity.insert(g.velocity.end(), {at_rest ? Real(0) : 2 * u(rng), at_rest ? Real(0) : 2 * u(rng)});
    g.heading.push_back(a % 13 == 0 ? 10 * u(rng) : kPi * u(rng));
    g.omega.push_back(u(rng));
    const Real angle = kPi * u(rng);
    g.direction.insert(g.direction.end(), {blocked ? Real(0) : std::cos(angle), blocked ? Real(0) : std::sin(angle)});
    g.strength.push_back(blocked ? Real(0) : pos(rng));
    g.max_speed.push_back(1 + pos(rng));
    g.max_acceleration.push_back(a % 5 == 0 ? kInfinity : 1 + 3 * pos(rng));
    g.max_force.push_back(a % 3 == 0 ? kInfinity : 1 + 3 * pos(rng));
    g.mass.push_back(Real(0.5) + pos(rng));
    g.max_turn_rate.push_back(a % 4 == 0 ? kInfinity : 4 * pos(rng));
  }
  return g;
}

Agents moved_with_width(int width, int first, int count, Real h, int substeps) {
  Agents g = make_agents(67, 5);
  const int previous = simd_width_limit.exchange(width);
  move_by_decisions(g.columns(), first, count, h, substeps);
  simd_width_limit = previous;
  return g;
}

bool same_bits(const std::vector<Real>& a, const std::vector<Real>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Real)) == 0;
}

TEST(Motion, EveryWidthGivesTheSameBits) {
  for (int substeps : {1, 3}) {
    const Agents scalar = moved_with_width(1, 2, 61, Real(0.1), substeps);
    for (int width : {4, 8}) {
      const Agents lanes = moved_with_width(width, 2, 61, Real(0.1), substeps);
      EXPECT_TRUE(same_bits(scalar.position, lanes.position)) << "width " << width;
      EXPECT_TRUE(same_bits(scalar.velocity, lanes.velocity)) << "width " << width;
      EXPECT_TRUE(same_bits(scalar.heading, lanes.heading)) << "width " << width;
      EXPECT_TRUE(same_bits(scalar.omega, lanes.omega)) << "width " << width;
    }
  }
}

// What move_by_decisions returns: the squared distance of the agent that moved farthest,
// among those it moved (the world checks with it that no agent went past the slack its
// overlap measure relies on, close_agents.hpp).
TEST(Motion, ReportsTheFarthestSquaredTravelOfTheAgentsItMoved) {
  const int first = 2, count = 61;
  const Agents before = make_agents(67, 5);
  for (int width : {8, 4, 1}) {
    Agents g = make_agents(67, 5);
    const int previous = simd_width_limit.exchange(width);
    const Real farthest = move_by_decisions(g.columns(), first, count, Real(0.1), 3);
    simd_width_limit = previous;
    Real want = 0;
    for (int a = first; a < first + count; ++a) {
      const Real dx = g.position[2 * a] - before.position[2 * a],
                 dy = g.position[2 * a + 1] - before.position[2 * a + 1];
      want = std::max(want, dx * dx + dy * dy);
    }
    EXPECT_GT(want, 0);
    EXPECT_EQ(farthest, want) << "width " << width;
  }
}

TEST(Motion, FollowsTheFormulasAndLeavesOtherAgentsAlone) {
  const Real h = Real(0.05);
  const int first = 3, count = 50;
  const Agents before = make_agents(67, 5);
  const Agents after = moved_with_width(8, first, count, h, 1);
  for (int a = 0; a < 67; ++a) {
    const bool inside = a >= first && a < first + count;
    if (!inside) {
      EXPECT_EQ(after.position[2 * a], before.position[2 * a]);
      EXPECT_EQ(after.heading[a], before.heading[a]);
      continue;
    }
    // Double-precision reference of one substep.
    const double speed = before.strength[a] * before.max_speed[a];
    const double dx = before.direction[2 * a] * speed - before.velocity[2 * a];
    const double dy = before.direction[2 * a + 1] * speed - before.velocity[2 * a + 1];
    const double max_change = std::min<double>(before.max_acceleration[a], before.max_force[a] / before.mass[a]) * h;
    const double change = std::hypot(dx, dy);
    const double scale = change <= max_change ? 1 : max_change / change;
    const double vx = before.velocity[2 * a] + dx * scale, vy = before.velocity[2 * a + 1] + dy * scale;
    EXPECT_NEAR(after.velocity[2 * a], vx, 1e-5);
    EXPECT_NEAR(after.velocity[2 * a + 1], vy, 1e-5);
    EXPECT_NEAR(after.position[2 * a], before.position[2 * a] + vx * h, 1e-4);
    EXPECT_NEAR(after.position[2 * a + 1], before.position[2 * a + 1] + vy * h, 1e-4);
    if (vx * vx + vy * vy < 1e-12) {
      EXPECT_EQ(after.heading[a], before.heading[a]);
      EXPECT_EQ(after.omega[a], 0);
      continue;
    }
    const double current = std::remainder(static_cast<double>(before.heading[a]), 2 * M_PI);
    const double diff = std::remainder(std::atan2(vy, vx) - current, 2 * M_PI);
    const double limit = static_cast<double>(before.max_turn_rate[a]) * h;
    const double turn = std::clamp(diff, -limit, limit);
    EXPECT_NEAR(std::remainder(after.heading[a] - (current + turn), 2 * M_PI), 0, 1e-5) << "agent " << a;
    EXPECT_NEAR(after.omega[a], turn / h, 1e-3) << "agent " << a;
    EXPECT_GT(after.heading[a], -kPi);
    EXPECT_LE(after.heading[a], kPi);
  }
}

}  // namespace
