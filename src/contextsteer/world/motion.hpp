// Moving agents by their context decisions: the desired velocity reached within the
// acceleration limit, semi-implicit Euler, the heading turned toward the velocity within
// the turn-rate limit.
//
// move_by_decisions runs W agents at a time (kernels/wide/move_agents.inl) and the rest one at a time, with
// the same operations, so an agent's motion does not depend on which path it took.
#pragma once

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"

namespace contextsteer {

// The world's per-agent columns that motion reads and writes, indexed by agent.
struct MotionColumns {
  Real* position;                // (n, 2) metres
  Real* velocity;                // (n, 2) m/s
  Real* heading;                 // (n,) radians
  Real* angular_velocity;        // (n,) rad/s
  const Real* direction;         // (n, 2) unit decision directions (zero when blocked)
  const Real* strength;          // (n,) decision strengths in [0, 1]
  const Real* max_speed;         // (n,) m/s
  const Real* max_acceleration;  // (n,) m/s^2, may be inf
  const Real* max_force;         // (n,) N, may be inf
  const Real* mass;              // (n,) kg, from kMinMass to kMaxMagnitude
  const Real* max_turn_rate;     // (n,) rad/s, may be inf
};

// Moves agents first .. first + count - 1 by `substeps` steps of h seconds each:
//   desired = direction * strength * max_speed
//   v += truncate(desired - v, min(max_acceleration, max_force / mass) * h)
//   p += v * h
//   follow_velocity(heading, angular_velocity, v, max_turn_rate, h)
// Returns the largest squared distance one of them moved, m^2.
Real move_by_decisions(const MotionColumns& columns, int first, int count, Real h, int substeps);

// Turns the heading toward the direction of v by at most max_turn * h radians and sets
// omega to the turn rate (rad/s); leaves the heading and sets omega = 0 when |v| < 1e-6
// m/s. A heading outside (-pi, pi] is first wrapped into it; the result lies in it.
void follow_velocity(Real& heading, Real& omega, Vec2 v, Real max_turn, Real h);

}  // namespace contextsteer
