#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/maps/resolve.hpp"

using namespace contextsteer;

namespace {

struct Outcome {
  Decision decision;
  std::vector<Real> final_map;
};

Outcome decide(const std::vector<Real>& interest, const std::vector<Real>* danger, ResolveParams p) {
  const SlotDirections dirs(static_cast<int>(interest.size()));
  Outcome o{{}, std::vector<Real>(interest.size())};
  o.decision = resolve_row(interest.data(), danger ? danger->data() : nullptr, dirs, p, o.final_map.data());
  return o;
}

ResolveParams with_mode(DangerMode m) {
  ResolveParams p;
  p.danger_mode = m;
  return p;
}

ResolveParams with_select(SelectMethod s) {
  ResolveParams p;
  p.select = s;
  return p;
}

const std::vector<Real> kInterest{1.0f, 0.8f, 0.6f, 0.4f};
const std::vector<Real> kDanger{0.9f, 0.3f, 0.1f, 0.0f};

}  // namespace

TEST(DangerMode, SubtractClampsAtZero) {
  const auto o = decide(kInterest, &kDanger, with_mode(DangerMode::Subtract));
  EXPECT_NEAR(o.final_map[0], 0.1f, 1e-6);
  EXPECT_NEAR(o.final_map[1], 0.5f, 1e-6);
  EXPECT_NEAR(o.final_map[2], 0.5f, 1e-6);
  EXPECT_NEAR(o.final_map[3], 0.4f, 1e-6);
  EXPECT_EQ(o.decision.slot, 1);  // first of the tied best slots
}

TEST(DangerMode, ThresholdMasksSlotsAboveIt) {
  auto p = with_mode(DangerMode::Threshold);
  p.threshold = 0.5f;
  const auto o = decide(kInterest, &kDanger, p);
  EXPECT_EQ(o.final_map, (std::vector<Real>{0, 0.8f, 0.6f, 0.4f}));
  EXPECT_EQ(o.decision.slot, 1);
}

TEST(DangerMode, MinMaskKeepsOnlySlotsNearTheLeastDanger) {
  auto p = with_mode(DangerMode::MinMask);
  p.margin = 0.15f;
  const auto o = decide(kInterest, &kDanger, p);
  EXPECT_EQ(o.final_map, (std::vector<Real>{0, 0, 0.6f, 0.4f}));
  EXPECT_EQ(o.decision.slot, 2);
  EXPECT_NEAR(o.decision.strength, 0.6f, 1e-6);
}

TEST(DangerMode, MultiplyScalesByOneMinusDanger) {
  const auto o = decide(kInterest, &kDanger, with_mode(DangerMode::Multiply));
  EXPECT_NEAR(o.final_map[0], 0.1f, 1e-6);
  EXPECT_NEAR(o.final_map[1], 0.56f, 1e-6);
  EXPECT_NEAR(o.final_map[2], 0.54f, 1e-6);
  EXPECT_EQ(o.decision.slot, 1);
}

TEST(Select, EveryMethodOnAHandComputedMap) {
  const std::vector<Real> m{0.2f, 1.0f, 0.5f, 0.0f};
  const double spacing = M_PI / 2;
  auto slot_of = [&](SelectMethod s) { return decide(m, nullptr, with_select(s)).decision.slot; };
  EXPECT_EQ(slot_of(SelectMethod::Argmax), 1.0f);
  // Blend: 0.2*(1,0) + 1*(0,1) + 0.5*(-1,0) = (-0.3, 1).
  EXPECT_NEAR(slot_of(SelectMethod::Blend), std::atan2(1.0, -0.3) / spacing, 1e-5);
  // Average: the same sum here, slot 3 being 0.
  EXPECT_NEAR(slot_of(SelectMethod::Average), std::atan2(1.0, -0.3) / spacing, 1e-5);
  // Parabolic: 1 + 0.5*(0.2 - 0.5)/(0.2 - 2 + 0.5).
  EXPECT_NEAR(slot_of(SelectMethod::Parabolic), 1 + 0.5 * (-0.3) / (-1.3), 1e-6);
  // Gradient: 1 + (0.5 - 0.2)/(2*(1 - 0.2)).
  EXPECT_NEAR(slot_of(SelectMethod::Gradient), 1 + 0.3 / 1.6, 1e-6);

  const auto blend = decide(m, nullptr, with_select(SelectMethod::Blend)).decision;
  const double len = std::hypot(-0.3, 1.0);
  EXPECT_NEAR(blend.direction.x, -0.3 / len, 1e-5);
  EXPECT_NEAR(blend.direction.y, 1.0 / len, 1e-5);
  const double t = blend.slot - 1;
  EXPECT_NEAR(blend.strength, 1.0 * (1 - t) + 0.5 * t, 1e-5);  // linear interpolation at the slot
}

TEST(Select, AverageOfCancellingLobesFallsBackToTheBestSlot) {
  const auto o = decide({1.0f, 0.0f, 1.0f, 0.0f}, nullptr, with_select(SelectMethod::Average));
  EXPECT_FALSE(o.decision.blocked);
  EXPECT_EQ(o.decision.slot, 0.0f);
  EXPECT_FLOAT_EQ(o.decision.direction.x, 1.0f);
}

TEST(Select, SubSlotMethodsStayWithinHalfASlot) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0, 1);
  for (SelectMethod s : {SelectMethod::Blend, SelectMethod::Parabolic, SelectMethod::Gradient}) {
    for (int trial = 0; trial < 500; ++trial) {
      std::vector<Real> m(9);
      for (Real& v : m) v = u(rng);
      const auto o = decide(m, nullptr, with_select(s));
      const int best = static_cast<int>(std::max_element(m.begin(), m.end()) - m.begin());
      double diff = std::fabs(o.decision.slot - best);
      diff = std::min(diff, 9 - diff);
      EXPECT_LE(diff, 0.5 + 1e-4);
    }
  }
}

TEST(Select, FewerThanThreeSlotsReduceToArgmax) {
  for (SelectMethod s : {SelectMethod::Blend, SelectMethod::Parabolic, SelectMethod::Gradient}) {
    EXPECT_EQ(decide({0.3f, 0.9f}, nullptr, with_select(s)).decision.slot, 1.0f);
    EXPECT_EQ(decide({0.3f}, nullptr, with_select(s)).decision.slot, 0.0f);
  }
}

TEST(Resolve, BlockedWhenNoSlotIsLeft) {
  const std::vector<Real> danger(4, 1.0f);
  const auto o = decide(kInterest, &danger, with_mode(DangerMode::Subtract));
  EXPECT_TRUE(o.decision.blocked);
  EXPECT_EQ(o.decision.slot, -1.0f);
  EXPECT_EQ(o.decision.strength, 0.0f);
  EXPECT_EQ(o.decision.direction.x, 0.0f);
  EXPECT_EQ(o.decision.direction.y, 0.0f);
  EXPECT_TRUE(decide({-1.0f, -0.5f, 0.0f}, nullptr, {}).decision.blocked);
}

TEST(Resolve, BatchWritesEveryAgentAndRefusesMismatchedSlots) {
  const std::vector<Real> interest{0, 1, 0, 0, /**/ 0, 0, 0, 0};
  std::vector<Real> direction(4), strength(2), slot(2), final_map(8);
  std::vector<std::uint8_t> blocked(2);
  DecisionBatch out{direction.data(), strength.data(), slot.data(), blocked.data(), final_map.data()};
  const SlotDirections dirs(4);
  resolve(ConstMapBatch(interest.data(), 2, 4), nullptr, dirs, {}, out);
  EXPECT_EQ(slot[0], 1.0f);
  EXPECT_EQ(blocked[0], 0);
  EXPECT_EQ(blocked[1], 1);
  EXPECT_NEAR(direction[1], 1.0f, 1e-6);
  EXPECT_THROW(resolve(ConstMapBatch(interest.data(), 1, 8), nullptr, dirs, {}, out), std::invalid_argument);
  ResolveParams bad;
  bad.margin = -1;
  EXPECT_THROW(resolve(ConstMapBatch(interest.data(), 2, 4), nullptr, dirs, bad, out), std::invalid_argument);
}

TEST(ResolveRows, EqualsResolveRowForEveryModeAndWidth) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<Real> u(-0.5f, 1.5f);
  for (int slots : {4, 8, 16, 24, 64}) {
    const SlotDirections dirs(slots, Real(0.3));
    const int count = 50;
    std::vector<Real> interest(static_cast<std::size_t>(count) * slots), danger(interest.size());
    for (std::size_t i = 0; i < interest.size(); ++i) {
      // Coarse values make ties between slots common; every 7th row wants nothing (blocked).
      interest[i] = (i / slots) % 7 == 0 ? Real(-0.5) : std::round(u(rng) * 4) / 4;
      danger[i] = std::round(u(rng) * 4) / 4;
    }
    for (DangerMode mode : {DangerMode::Subtract, DangerMode::Threshold, DangerMode::MinMask, DangerMode::Multiply}) {
      ResolveParams params;
      params.danger_mode = mode;
      params.margin = Real(0.25);
      std::vector<Real> want_final(interest.size()), got_final(interest.size());
      std::vector<Decision> got(count);
      for (int width : {8, 4, 1}) {
        const int previous = simd_width_limit.exchange(width);
        resolve_rows(interest.data(), danger.data(), count, dirs, params, got_final.data(), nullptr, got.data());
        simd_width_limit = previous;
        int blocked = 0;
        for (int k = 0; k < count; ++k) {
          const std::size_t row = static_cast<std::size_t>(k) * slots;
          const Decision want =
              resolve_row(interest.data() + row, danger.data() + row, dirs, params, want_final.data() + row);
          ASSERT_EQ(got[k].blocked, want.blocked) << slots << " " << k;
          ASSERT_EQ(got[k].slot, want.slot) << slots << " " << k;
          ASSERT_EQ(got[k].strength, want.strength) << slots << " " << k;
          ASSERT_EQ(got[k].direction.x, want.direction.x) << slots << " " << k;
          ASSERT_EQ(got[k].direction.y, want.direction.y) << slots << " " << k;
          blocked += want.blocked;
        }
        ASSERT_EQ(0, std::memcmp(got_final.data(), want_final.data(), got_final.size() * sizeof(Real))) << slots;
        EXPECT_GT(blocked, 0);
        EXPECT_LT(blocked, count);
      }
    }
  }
}
