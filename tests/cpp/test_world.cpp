#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/world.hpp"

using namespace contextsteer;

namespace {

std::shared_ptr<const Pipeline> chase_and_avoid(Vec2 target) {
  std::vector<std::shared_ptr<const Behavior>> behaviors{
      std::make_shared<Chase>(std::vector<Vec2>{target}, ChaseParams{}),
      std::make_shared<Avoid>(std::vector<Circle>{}, AvoidParams{})};
  PipelineConfig c;
  c.slots = 16;
  c.resolve.select = SelectMethod::Blend;
  return std::make_shared<Pipeline>(c, behaviors);
}

int add(World& w, std::vector<Real> pos, Real max_speed, Real max_accel = kInfinity) {
  const int n = static_cast<int>(pos.size() / 2);
  std::vector<Real> speed(n, max_speed), accel(n, max_accel), radius(n, 0.5f);
  return w.add_agents(n, AgentSpawn{pos.data(), nullptr, speed.data(), accel.data(), radius.data()});
}

}  // namespace

TEST(World, AgentsReachATargetAroundAnObstacle) {
  World w(chase_and_avoid({20, 0}));
  w.set_obstacles({{{10, 0}, 1.5f}});
  add(w, {0, 0, 0, 1, 0, -1}, 2.0f);
  for (int i = 0; i < 400; ++i) w.step(0.05f);
  const auto& p = *w.positions();
  for (int a = 0; a < 3; ++a) {
    EXPECT_LT(std::hypot(p[2 * a] - 20, p[2 * a + 1]), 1.0) << "agent " << a;
  }
  EXPECT_EQ(w.steps_taken(), 400);
  EXPECT_NEAR(w.time(), 20.0, 1e-3);
}

TEST(World, NeverExceedsMaxSpeedOrAcceleration) {
  World w(chase_and_avoid({100, 0}));
  add(w, {0, 0}, 3.0f, 2.0f);
  Real previous = 0;
  for (int i = 0; i < 50; ++i) {
    w.step(0.1f);
    const Real speed = std::hypot((*w.velocities())[0], (*w.velocities())[1]);
    EXPECT_LE(speed, 3.0f + 1e-5f);
    EXPECT_LE(speed - previous, 2.0f * 0.1f + 1e-5f);
    previous = speed;
  }
  EXPECT_NEAR(previous, 3.0f, 1e-4);
}

TEST(World, GrowingKeepsOldBuffersAliveAndCopiesState) {
  World w(chase_and_avoid({5, 0}));
  add(w, {1, 2}, 1.0f);
  const SharedBuffer<Real> old = w.positions();
  EXPECT_EQ(add(w, {3, 4, 5, 6}, 1.0f), 1);
  EXPECT_NE(old.get(), w.positions().get());
  EXPECT_EQ(old->size(), 2u);
  EXPECT_EQ((*w.positions())[0], 1.0f);
  EXPECT_EQ((*w.positions())[5], 6.0f);
  EXPECT_EQ(w.interest()->size(), 3u * 16);
}

TEST(World, RefusesBadStateAndBadSteps) {
  World w(chase_and_avoid({5, 0}));
  EXPECT_THROW(add(w, {NAN, 0}, 1.0f), std::invalid_argument);
  EXPECT_THROW(add(w, {0, 0}, -1.0f), std::invalid_argument);
  add(w, {0, 0}, 1.0f);
  EXPECT_THROW(w.step(0), std::invalid_argument);
  EXPECT_THROW(w.step(NAN), std::invalid_argument);
  (*w.velocities())[0] = INFINITY;
  EXPECT_THROW(w.step(0.1f), std::invalid_argument);
  EXPECT_EQ(w.steps_taken(), 0);
}

TEST(World, BlockedAgentsBrake) {
  std::vector<std::shared_ptr<const Behavior>> behaviors{
      std::make_shared<Chase>(std::vector<Vec2>{{10, 0}}, ChaseParams{}),
      std::make_shared<Avoid>(std::vector<Circle>{{{0, 0}, 3}}, AvoidParams{})};  // the agent stands inside it
  PipelineConfig c;
  c.resolve.danger_mode = DangerMode::Threshold;
  c.resolve.threshold = 0.5f;
  World w(std::make_shared<Pipeline>(c, behaviors));
  // West of the centre: the danger covers the east half-plane, where all the interest is.
  std::vector<Real> pos{-0.1f, 0}, vel{1, 0}, speed{2}, accel{1}, radius{0.5f};
  w.add_agents(1, AgentSpawn{pos.data(), vel.data(), speed.data(), accel.data(), radius.data()});
  w.step(0.1f);
  EXPECT_EQ((*w.blocked())[0], 1);
  EXPECT_NEAR((*w.velocities())[0], 0.9f, 1e-6);  // braking at the acceleration limit
}
