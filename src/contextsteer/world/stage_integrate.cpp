// The integrate stage: every agent moves, in `substeps` equal parts of dt, by its context
// decision (motion.hpp) or its classic steering output (evaluated_); how far the
// farthest one moved goes to integrated_, for the measure stage.
#include <algorithm>

#include "contextsteer/world/motion.hpp"
#include "contextsteer/world/world.hpp"

namespace contextsteer {

void World::integrate_stage(Real dt, int substeps) {
  const Real h = dt / static_cast<Real>(substeps);
  Real* pos = store_.positions.data();
  Real* vel = store_.velocities.data();
  Real* heading = store_.heading.data();
  Real* omega = store_.angular_velocity.data();
  const MotionColumns motion{pos,
                             vel,
                             heading,
                             omega,
                             store_.direction.data(),
                             store_.strength.data(),
                             store_.max_speed.data(),
                             store_.max_acceleration.data(),
                             store_.max_force.data(),
                             store_.mass.data(),
                             store_.max_turn_rate.data()};
  const Real* linear = evaluated_.classic_linear.data();
  const Real* angular = evaluated_.classic_angular.data();
  // Agents move in index order, whatever their steering: the state is read and written
  // sequentially, and runs of context-steered agents move W at a time.
  auto classic_of = [this](int a) { return controllers_[store_.steering_index[a]].steering.classic.get(); };
  auto move_classic = [&](int a, const ClassicSteering& classic) {
    const Real mass = store_.mass[a];
    const Real max_speed = store_.max_speed[a];
    // Half a turn per substep at most: a faster spin is indistinguishable from a slower
    // one the other way, and the cap keeps blended angular steering (weights above 1
    // overshoot their goal) from growing the angular velocity step after step.
    const Real max_turn = std::min(store_.max_turn_rate[a], kPi / h);
    Vec2 p = load(pos, a);
    Vec2 v = load(vel, a);
    // Classic steering: the steering force is truncated to the maximum force and divided by the
    // mass; the velocity is truncated to the maximum speed.
    const Vec2 acc = truncate(load(linear, a) * mass, store_.max_force[a]) * (1 / mass);
    for (int s = 0; s < substeps; ++s) {
      v = truncate(v + acc * h, max_speed);
      p = p + v * h;  // semi-implicit Euler: the new velocity moves the agent
      if (classic.steers_heading()) {
        omega[a] = std::clamp(omega[a] + angular[a] * h, -max_turn, max_turn);
        heading[a] = wrap_angle(heading[a] + omega[a] * h);
      } else {
        follow_velocity(heading[a], omega[a], v, max_turn, h);
      }
    }
    const Vec2 moved = p - load(pos, a);
    store(pos, a, p);
    store(vel, a, v);
    return length_squared(moved);
  };
  const int n = store_.size;
  const int blocks = (n + Pipeline::kBlockAgents - 1) / Pipeline::kBlockAgents;
  std::vector<Real>& farthest_move = integrated_.farthest_move;
  farthest_move.assign(static_cast<std::size_t>(pool_->size()), 0);
  auto body = [&](int block, int worker) {
    const int end = std::min(n, (block + 1) * Pipeline::kBlockAgents);
    int a = block * Pipeline::kBlockAgents;
    Real farthest = 0;
    while (a < end) {
      int run = a;
      while (run < end && !classic_of(run)) ++run;
      farthest = std::max(farthest, move_by_decisions(motion, a, run - a, h, substeps));
      for (a = run; a < end && classic_of(a); ++a) farthest = std::max(farthest, move_classic(a, *classic_of(a)));
    }
    farthest_move[worker] = std::max(farthest_move[worker], farthest);
  };
  pool_->run(blocks, body);
}

}  // namespace contextsteer
