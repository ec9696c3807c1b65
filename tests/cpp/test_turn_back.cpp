// A pipeline's turn_back (pipeline.hpp): a weak decision that would turn an agent back,
// more than 90 degrees from its heading, brakes it instead, until the agent has made no
// progress for turn_back_wait seconds.
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/world/world.hpp"

using namespace contextsteer;

namespace {

// One agent at the origin walking east at 1 m/s, led west (to (-20, 0), its target) by a
// Chase of weight `weight`: its decision's strength.
struct WalkingEast {
  explicit WalkingEast(Real weight, Real turn_back, Real wait = kInfinity) {
    ChaseParams chase;
    chase.weight = weight;
    PipelineConfig c;
    c.turn_back = turn_back;
    c.turn_back_wait = wait;
    std::vector<std::shared_ptr<const Behavior>> behaviors{std::make_shared<Chase>(std::vector<Vec2>{{-20, 0}}, chase)};
    world = std::make_unique<World>(Steering{std::make_shared<Pipeline>(c, behaviors), nullptr});
    std::vector<Real> pos{0, 0}, vel{1, 0}, heading{0}, target{-20, 0}, speed{1}, accel{10};
    AgentSpawn spawn;
    spawn.positions = pos.data();
    spawn.velocities = vel.data();
    spawn.heading = heading.data();
    spawn.targets = target.data();
    spawn.max_speed = speed.data();
    spawn.max_acceleration = accel.data();
    world->add_agents(1, spawn);
  }
  Real x() const { return world->agents().positions[0]; }
  Real vx() const { return world->agents().velocities[0]; }
  Real strength() const { return world->agents().strength[0]; }
  std::unique_ptr<World> world;
};

TEST(TurnBack, AWeakDecisionBackBrakesTheAgent) {
  WalkingEast w(0.3f, 0.5f);
  Real x = w.x();
  for (int s = 0; s < 40; ++s) {
    w.world->step(0.05f);
    EXPECT_EQ(w.strength(), 0);
    EXPECT_GE(w.x(), x);  // never a step back west
    x = w.x();
  }
  EXPECT_EQ(w.vx(), 0);
  EXPECT_EQ(w.world->agents().heading[0], 0);  // still facing east
}

TEST(TurnBack, OffOrAStrongDecisionTurnsTheAgentBack) {
  for (auto [weight, turn_back] : {std::pair<Real, Real>{0.3f, 0}, {0.8f, 0.5f}}) {
    WalkingEast w(weight, turn_back);
    for (int s = 0; s < 40; ++s) w.world->step(0.05f);
    EXPECT_NEAR(w.vx(), -weight, 1e-4f);
  }
}

TEST(TurnBack, AnAgentThatHasWaitedTurnsFreely) {
  WalkingEast w(0.3f, 0.5f, 1.0f);
  int first_free = -1;
  for (int s = 0; s < 60; ++s) {
    w.world->step(0.05f);
    if (first_free < 0 && w.strength() > 0) first_free = s;
    if (first_free >= 0) EXPECT_GT(w.strength(), 0);  // free for good
  }
  ASSERT_GT(first_free, 0);
  EXPECT_NEAR(first_free * 0.05f, 1.0f, 0.11f);  // about turn_back_wait after it stopped progressing
  EXPECT_LT(w.vx(), -0.29f);
}

TEST(TurnBack, AnArrivedAgentDoesNotTurnBackAtAnyStrength) {
  for (Real turn_back : {Real(0.5), Real(0)}) {
    WalkingEast w(0.8f, turn_back);
    w.world->set_goals(GoalParams{});
    w.world->agents().targets[0] = 0;  // its target where it stands: arrived after one step
    w.world->step(0.05f);
    w.world->agents().positions[0] = 0;
    w.world->agents().velocities[0] = 0;
    w.world->agents().heading[0] = 0;
    for (int s = 0; s < 20; ++s) w.world->step(0.05f);
    if (turn_back > 0) {
      EXPECT_EQ(w.world->agents().state[0], static_cast<std::int32_t>(AgentState::arrived));
      EXPECT_EQ(w.strength(), 0);  // braked, though its decision is 0.8
      EXPECT_EQ(w.x(), 0);
    } else {
      EXPECT_LT(w.x(), -0.5f);  // without turn_back it walks off back west
    }
  }
}

TEST(TurnBack, BadSettingsAreRefused) {
  std::vector<std::shared_ptr<const Behavior>> behaviors{
      std::make_shared<Chase>(std::vector<Vec2>{{1, 0}}, ChaseParams{})};
  for (auto [turn_back, wait] :
       {std::pair<Real, Real>{1.5f, 1}, {-0.1f, 1}, {0.5f, -1}, {0.5f, std::numeric_limits<Real>::quiet_NaN()}}) {
    PipelineConfig c;
    c.turn_back = turn_back;
    c.turn_back_wait = wait;
    EXPECT_THROW(Pipeline(c, behaviors), std::invalid_argument);
  }
  Pipeline p(PipelineConfig{}, behaviors);
  PipelineConfig c = p.config();
  c.turn_back = 2;
  EXPECT_THROW(p.set_config(c), std::invalid_argument);
  EXPECT_EQ(p.config().turn_back, 0);
}

}  // namespace
