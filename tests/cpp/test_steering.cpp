#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "contextsteer/steering/steering.hpp"

using namespace contextsteer;

namespace {

// One agent at p with velocity v (max speed 2, max acceleration 4) and a second agent,
// its target, at t with velocity w.
struct Pair {
  std::vector<Real> pos, vel;
  std::vector<Real> heading{0, 0}, omega{0, 0};
  std::vector<Real> max_speed{2, 2}, max_acc{4, 4}, max_turn{1, 1};
  std::vector<int> target{1, -1};
  SceneView scene() const {
    SceneView s;
    s.agents = 2;
    s.positions = pos.data();
    s.velocities = vel.data();
    s.headings = heading.data();
    s.angular_velocities = omega.data();
    s.max_speed = max_speed.data();
    s.max_acceleration = max_acc.data();
    s.max_turn_rate = max_turn.data();
    s.target_index = target.data();
    return s;
  }
};

SteeringOutput out_of(ClassicKind kind, const Pair& pair, ClassicBehavior b = {}) {
  b.kind = kind;
  return classic_output(b, pair.scene(), 0);
}

}  // namespace

TEST(Classic, SeekAndFleeUseTheMaximumAcceleration) {
  const Pair pair{{0, 0, 3, 4}, {0, 0, 0, 0}};
  const auto seek = out_of(ClassicKind::Seek, pair);
  EXPECT_NEAR(seek.linear.x, 4 * 0.6, 1e-6);
  EXPECT_NEAR(seek.linear.y, 4 * 0.8, 1e-6);
  const auto flee = out_of(ClassicKind::Flee, pair);
  EXPECT_NEAR(flee.linear.x, -4 * 0.6, 1e-6);
}

TEST(Classic, ArriveRampsInsideTheSlowingRadiusAndStopsInsideTheTarget) {
  ClassicBehavior b;
  b.target_radius = 0.5f;
  b.slowing_radius = 4;
  b.time_to_target = 0.5f;
  // Distance 2, inside the slowing radius: desired speed 2 * 2 / 4 = 1 toward +x; at rest.
  const Pair ramp{{0, 0, 2, 0}, {0, 0, 0, 0}};
  EXPECT_NEAR(out_of(ClassicKind::Arrive, ramp, b).linear.x, (1 - 0) / 0.5, 1e-6);
  // Inside the target radius: desired speed 0, so it brakes: (0 - 1) / 0.5 = -2.
  const Pair inside{{0, 0, 0.3f, 0}, {1, 0, 0, 0}};
  EXPECT_NEAR(out_of(ClassicKind::Arrive, inside, b).linear.x, -2, 1e-6);
  // Far away: full speed wanted; (2 - 0) / 0.1 = 20, truncated to the acceleration 4.
  const Pair far{{0, 0, 50, 0}, {0, 0, 0, 0}};
  EXPECT_NEAR(out_of(ClassicKind::Arrive, far, ClassicBehavior{}).linear.x, 4, 1e-6);
}

TEST(Classic, LeaveFollowsTheSeedFormula) {
  ClassicBehavior b;
  b.escape_radius = 1;
  b.danger_radius = 4;
  b.time_to_target = 1;
  const Pair beyond{{0, 0, 5, 0}, {0, 0, 0, 0}};
  EXPECT_EQ(out_of(ClassicKind::Leave, beyond, b).linear.x, 0);
  const Pair between{{0, 0, 2, 0}, {0, 0, 0, 0}};  // speed 2 - 2 * 2 / 4 = 1, away (-x)
  EXPECT_NEAR(out_of(ClassicKind::Leave, between, b).linear.x, -1, 1e-6);
  const Pair close{{0, 0, 0.5f, 0}, {0, 0, 0, 0}};  // inside the escape radius: full speed 2
  EXPECT_NEAR(out_of(ClassicKind::Leave, close, b).linear.x, -2, 1e-6);
}

TEST(Classic, PursueAimsWhereTheTargetWillBe) {
  ClassicBehavior b;
  b.max_prediction = 2;
  // Target 4 m east moving north at 1 m/s; the agent is at rest, so the prediction is
  // the maximum, 2 s: aim at (4, 2).
  const Pair pair{{0, 0, 4, 0}, {0, 0, 0, 1}};
  const auto pursue = out_of(ClassicKind::Pursue, pair, b);
  EXPECT_NEAR(std::atan2(pursue.linear.y, pursue.linear.x), std::atan2(2.0, 4.0), 1e-5);
  // Moving at 4 m/s, the prediction is distance / speed = 1 s: aim at (4, 1).
  const Pair fast{{0, 0, 4, 0}, {4, 0, 0, 1}};
  const auto quick = out_of(ClassicKind::Pursue, fast, b);
  EXPECT_NEAR(std::atan2(quick.linear.y, quick.linear.x), std::atan2(1.0, 4.0), 1e-5);
  const auto evade = out_of(ClassicKind::Evade, pair, b);
  EXPECT_NEAR(evade.linear.x, -pursue.linear.x, 1e-6);
}

TEST(Classic, FaceTurnsTowardTheTargetWithinTheTurnRate) {
  ClassicBehavior b;
  b.time_to_target = 0.5f;
  const Pair pair{{0, 0, 0, 5}, {0, 0, 0, 0}};  // target due north: 90 degrees to turn
  // Wanted angular velocity min(1, (pi/2) / 0.5) = 1 rad/s, from rest: (1 - 0) / 0.5.
  EXPECT_NEAR(out_of(ClassicKind::Face, pair, b).angular, 2, 1e-5);
  const Pair aligned{{0, 0, 5, 0}, {0, 0, 0, 0}};
  EXPECT_EQ(out_of(ClassicKind::Face, aligned, b).angular, 0);
  const Pair moving{{0, 0, 9, 9}, {0, -1, 0, 0}};  // moving south: LookWhereYouGo turns clockwise
  EXPECT_LT(out_of(ClassicKind::LookWhereYouGo, moving, b).angular, 0);
}

TEST(Classic, FaceBrakesTheTurnOnceAligned) {
  ClassicBehavior b;
  b.time_to_target = 0.5f;
  Pair spinning{{0, 0, 5, 0}, {0, 0, 0, 0}};  // aligned with the target, still turning
  spinning.omega[0] = 0.8f;
  EXPECT_NEAR(out_of(ClassicKind::Face, spinning, b).angular, -0.8 / 0.5, 1e-6);
}

TEST(Classic, AGoalIsReachedWithinTheStepAtTheFastest) {
  // A time_to_target shorter than the step counts as the step: the wanted angular
  // velocity turns the remaining angle in one step, and the acceleration reaches it in
  // one step, instead of overshooting tenfold.
  ClassicBehavior b;
  b.time_to_target = 0.01f;
  Pair pair{{0, 0, 0, 5}, {0, 0, 0, 0}};  // 90 degrees to turn
  pair.max_turn = {100, 100};
  SceneView scene = pair.scene();
  scene.dt = 0.1f;
  b.kind = ClassicKind::Face;
  const Real wanted = (kPi / 2) / 0.1f;
  EXPECT_NEAR(classic_output(b, scene, 0).angular, wanted / 0.1f, 1e-3);
  b.kind = ClassicKind::Arrive;  // far outside the slowing radius: reach the maximum speed
  pair.max_acc = {1000, 1000};
  scene = pair.scene();
  scene.dt = 0.1f;
  EXPECT_NEAR(classic_output(b, scene, 0).linear.y, 2 / 0.1f, 1e-3);
}

TEST(Classic, BlendWeightsAndPriorityFallsThrough) {
  const Pair pair{{0, 0, 3, 4}, {0, 0, 0, 0}};
  ClassicBehavior seek;
  seek.weight = 0.5f;
  ClassicBehavior flee;
  flee.kind = ClassicKind::Flee;
  flee.weight = 0.25f;
  const ClassicSteering blend({seek, flee}, CombinerKind::Blend);
  EXPECT_NEAR(blend.compute(pair.scene(), 0).linear.x, 4 * 0.6 * 0.25, 1e-6);

  // Priority: a Leave far from danger gives nothing, so the next level (seek) decides.
  ClassicBehavior leave;
  leave.kind = ClassicKind::Leave;
  leave.danger_radius = 1;
  leave.priority = 0;
  ClassicBehavior seek_later;
  seek_later.priority = 1;
  const ClassicSteering priority({leave, seek_later}, CombinerKind::Priority);
  EXPECT_NEAR(priority.compute(pair.scene(), 0).linear.x, 4 * 0.6, 1e-6);
  EXPECT_THROW(ClassicSteering({ClassicBehavior{ClassicKind::Arrive, 1, 0, false, {}, 0.5f, -1}}, CombinerKind::Blend),
               std::invalid_argument);
  // Values past the core's bound of +-1e9 are refused as NaN is.
  EXPECT_THROW(ClassicSteering({ClassicBehavior{ClassicKind::Seek, 2e9f}}, CombinerKind::Blend), std::invalid_argument);
  EXPECT_THROW(ClassicSteering({ClassicBehavior{ClassicKind::Seek, 1, 0, true, {0, -2e9f}}}, CombinerKind::Blend),
               std::invalid_argument);
  EXPECT_THROW(
      ClassicSteering({ClassicBehavior{ClassicKind::Arrive, 1, 0, false, {}, 0.5f, 3e9f}}, CombinerKind::Blend),
      std::invalid_argument);
}

TEST(Classic, AnExplanationHoldsEveryOutputAndTheLevelTaken) {
  const Pair pair{{0, 0, 3, 4}, {0, 0, 0, 0}};
  ClassicBehavior leave;
  leave.kind = ClassicKind::Leave;
  leave.danger_radius = 1;
  leave.priority = 2;
  ClassicBehavior seek;
  seek.priority = 5;
  seek.weight = 0.5f;
  ClassicBehavior face;
  face.kind = ClassicKind::Face;
  face.priority = 5;
  for (const CombinerKind combiner : {CombinerKind::Blend, CombinerKind::Priority}) {
    const ClassicSteering steering({leave, seek, face}, combiner);
    const ClassicSteering::Explanation e = steering.explain(pair.scene(), 0);
    ASSERT_EQ(e.behaviors.size(), 3u);
    // Each output is the behaviour's own, unweighted: Leave is out of reach here.
    const ClassicBehavior* behaviors[] = {&leave, &seek, &face};
    for (int k = 0; k < 3; ++k) {
      const SteeringOutput alone = classic_output(*behaviors[k], pair.scene(), 0);
      EXPECT_EQ(e.behaviors[k].linear.x, alone.linear.x);
      EXPECT_EQ(e.behaviors[k].linear.y, alone.linear.y);
      EXPECT_EQ(e.behaviors[k].angular, alone.angular);
    }
    EXPECT_EQ(e.behaviors[0].linear.x, 0);
    EXPECT_NEAR(e.behaviors[1].linear.x, 4 * 0.6, 1e-6);
    // The combination is compute()'s, to the bit; Priority fell through level 2 to 5.
    const SteeringOutput combined = steering.compute(pair.scene(), 0);
    EXPECT_EQ(e.combined.linear.x, combined.linear.x);
    EXPECT_EQ(e.combined.linear.y, combined.linear.y);
    EXPECT_EQ(e.combined.angular, combined.angular);
    EXPECT_NEAR(e.combined.linear.x, 0.5 * 4 * 0.6, 1e-6);
    EXPECT_EQ(e.level, combiner == CombinerKind::Priority ? 5 : 0);
  }
  // Within Leave's danger radius, its level (2) is taken.
  const Pair near{{0, 0, 0.3f, 0.4f}, {0, 0, 0, 0}};
  const ClassicSteering priority({leave, seek, face}, CombinerKind::Priority);
  const ClassicSteering::Explanation e = priority.explain(near.scene(), 0);
  EXPECT_EQ(e.level, 2);
  EXPECT_LT(e.combined.linear.x, 0);  // away from the target
}

TEST(Classic, WrapAngle) {
  EXPECT_NEAR(wrap_angle(3 * kPi / 2), -kPi / 2, 1e-6);
  EXPECT_NEAR(wrap_angle(-kPi), kPi, 1e-6);
  EXPECT_NEAR(wrap_angle(0.25f), 0.25f, 1e-7);
}
