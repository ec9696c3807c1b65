#include "world.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "behaviors/avoid.hpp"

namespace contextsteer {

namespace {

template <class T>
SharedBuffer<T> empty_buffer() {
  return std::make_shared<std::vector<T>>();
}

// A new buffer holding the old contents followed by room for `extra` values set to
// `fill`; the old buffer is left untouched for any view that still holds it.
template <class T>
SharedBuffer<T> grown(const SharedBuffer<T>& old, std::size_t extra, T fill) {
  auto next = std::make_shared<std::vector<T>>();
  next->reserve(old->size() + extra);
  next->assign(old->begin(), old->end());
  next->resize(old->size() + extra, fill);
  return next;
}

void check_finite_nonnegative(const Real* values, int count, const char* argument, bool allow_inf) {
  for (int i = 0; i < count; ++i) {
    const Real v = values[i];
    if (std::isnan(v) || v < 0 || (!allow_inf && std::isinf(v))) {
      throw std::invalid_argument(std::string(argument) + ": expected values >= 0" +
                                  (allow_inf ? "" : " and finite") + ", got " + std::to_string(v) +
                                  " for agent " + std::to_string(i));
    }
  }
}

void check_finite(const Real* values, int count, const char* argument) {
  for (int i = 0; i < count; ++i) {
    if (!std::isfinite(values[i])) {
      throw std::invalid_argument(std::string(argument) + ": expected finite values, got " +
                                  std::to_string(values[i]) + " for agent " + std::to_string(i / 2));
    }
  }
}

}  // namespace

World::World(std::shared_ptr<const Pipeline> pipeline) : pipeline_(std::move(pipeline)) {
  if (!pipeline_) throw std::invalid_argument("pipeline: expected a pipeline, got None");
  scratch_ = pipeline_->make_scratch();
  positions_ = empty_buffer<Real>();
  velocities_ = empty_buffer<Real>();
  max_speed_ = empty_buffer<Real>();
  max_acceleration_ = empty_buffer<Real>();
  radius_ = empty_buffer<Real>();
  interest_ = empty_buffer<Real>();
  danger_ = empty_buffer<Real>();
  final_ = empty_buffer<Real>();
  direction_ = empty_buffer<Real>();
  strength_ = empty_buffer<Real>();
  slot_ = empty_buffer<Real>();
  blocked_ = empty_buffer<std::uint8_t>();
}

int World::add_agents(int count, const AgentSpawn& spawn) {
  if (count < 0) throw std::invalid_argument("count: expected a number of agents >= 0, got " + std::to_string(count));
  if (!spawn.positions || !spawn.max_speed || !spawn.max_acceleration || !spawn.radius) {
    throw std::invalid_argument("add_agents: positions, max_speed, max_acceleration and radius are required");
  }
  check_finite(spawn.positions, 2 * count, "positions");
  if (spawn.velocities) check_finite(spawn.velocities, 2 * count, "velocities");
  check_finite_nonnegative(spawn.max_speed, count, "max_speed", false);
  check_finite_nonnegative(spawn.max_acceleration, count, "max_acceleration", true);
  check_finite_nonnegative(spawn.radius, count, "radius", false);

  const int first = agents_;
  const std::size_t n = static_cast<std::size_t>(count);
  const std::size_t s = static_cast<std::size_t>(slots());
  positions_ = grown(positions_, 2 * n, Real(0));
  velocities_ = grown(velocities_, 2 * n, Real(0));
  max_speed_ = grown(max_speed_, n, Real(0));
  max_acceleration_ = grown(max_acceleration_, n, Real(0));
  radius_ = grown(radius_, n, Real(0));
  interest_ = grown(interest_, n * s, Real(0));
  danger_ = grown(danger_, n * s, Real(0));
  final_ = grown(final_, n * s, Real(0));
  direction_ = grown(direction_, 2 * n, Real(0));
  strength_ = grown(strength_, n, Real(0));
  slot_ = grown(slot_, n, Real(-1));
  blocked_ = grown(blocked_, n, std::uint8_t(1));

  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t a = first + i;
    (*positions_)[2 * a] = spawn.positions[2 * i];
    (*positions_)[2 * a + 1] = spawn.positions[2 * i + 1];
    if (spawn.velocities) {
      (*velocities_)[2 * a] = spawn.velocities[2 * i];
      (*velocities_)[2 * a + 1] = spawn.velocities[2 * i + 1];
    }
    (*max_speed_)[a] = spawn.max_speed[i];
    (*max_acceleration_)[a] = spawn.max_acceleration[i];
    (*radius_)[a] = spawn.radius[i];
  }
  agents_ += count;
  return first;
}

void World::set_obstacles(std::vector<Circle> obstacles) {
  check_circles(obstacles, "obstacles");
  obstacles_ = std::move(obstacles);
}

SceneView World::scene() const {
  SceneView view;
  view.agents = agents_;
  view.positions = positions_->data();
  view.velocities = velocities_->data();
  view.radius = radius_->data();
  view.obstacles = obstacles_.data();
  view.obstacle_count = static_cast<int>(obstacles_.size());
  return view;
}

void World::check_state() const {
  // Users may write into the state views between steps.
  check_finite(positions_->data(), 2 * agents_, "positions");
  check_finite(velocities_->data(), 2 * agents_, "velocities");
  check_finite_nonnegative(max_speed_->data(), agents_, "max_speed", false);
  check_finite_nonnegative(max_acceleration_->data(), agents_, "max_acceleration", true);
  check_finite_nonnegative(radius_->data(), agents_, "radius", false);
}

void World::evaluate() {
  const int s = slots();
  DecisionBatch out{direction_->data(), strength_->data(), slot_->data(), blocked_->data(), final_->data()};
  pipeline_->evaluate(scene(), MapBatch{interest_->data(), agents_, s}, MapBatch{danger_->data(), agents_, s}, out,
                      steps_ > 0, scratch_);
}

void World::integrate(Real dt) {
  Real* pos = positions_->data();
  Real* vel = velocities_->data();
  const Real* dir = direction_->data();
  for (int a = 0; a < agents_; ++a) {
    // The decision is a desired velocity; acceleration limits how fast it is reached.
    const Vec2 desired = load(dir, a) * ((*strength_)[a] * (*max_speed_)[a]);
    const Vec2 v = load(vel, a);
    const Vec2 v_next = v + truncate(desired - v, (*max_acceleration_)[a] * dt);
    store(vel, a, v_next);
    // Semi-implicit Euler: the position moves with the updated velocity.
    store(pos, a, load(pos, a) + v_next * dt);
  }
}

void World::step(Real dt) {
  if (!(dt > 0) || !std::isfinite(dt)) {
    throw std::invalid_argument("dt: expected a finite time step > 0 in seconds, got " + std::to_string(dt));
  }
  check_state();
  evaluate();
  integrate(dt);
  ++steps_;
  time_ += dt;
}

}  // namespace contextsteer
