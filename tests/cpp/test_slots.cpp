#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "contextsteer/maps/slots.hpp"

using namespace contextsteer;

TEST(SlotDirections, SlotIPointsAtOffsetPlusItsShareOfTheCircle) {
  const SlotDirections dirs(8, 0.25f);
  for (int i = 0; i < 8; ++i) {
    const double angle = 0.25 + 2 * M_PI * i / 8;
    EXPECT_NEAR(dirs[i].x, std::cos(angle), 1e-6);
    EXPECT_NEAR(dirs[i].y, std::sin(angle), 1e-6);
    EXPECT_NEAR(dirs[i].x * dirs[i].x + dirs[i].y * dirs[i].y, 1.0, 1e-6);
  }
  EXPECT_NEAR(dirs.spacing(), M_PI / 4, 1e-6);
}

TEST(SlotDirections, AcceptsOneToManySlotsAndRefusesOthers) {
  EXPECT_NO_THROW(SlotDirections{1});
  EXPECT_NO_THROW(SlotDirections{1024});
  EXPECT_NO_THROW(SlotDirections{kMaxSlots});
  EXPECT_THROW(SlotDirections{0}, std::invalid_argument);
  EXPECT_THROW(SlotDirections{-3}, std::invalid_argument);
  EXPECT_THROW(SlotDirections{kMaxSlots + 1}, std::invalid_argument);
  EXPECT_THROW((SlotDirections{4, NAN}), std::invalid_argument);
}

TEST(SlotDirections, SlotOfAngleInvertsDirectionAtAndWraps) {
  const SlotDirections dirs(16, 0.1f);
  for (float s : {0.0f, 0.5f, 3.25f, 15.75f}) {
    const Vec2 d = dirs.direction_at(s);
    EXPECT_NEAR(dirs.slot_of_angle(std::atan2(d.y, d.x)), s, 1e-4) << s;
  }
  EXPECT_NEAR(dirs.slot_of_angle(0.1f - static_cast<float>(M_PI) / 8), 15.0, 1e-4);  // half a slot below 0 wraps
  const float s = dirs.slot_of_angle(0.1f - 1e-9f);
  EXPECT_GE(s, 0.0f);
  EXPECT_LT(s, 16.0f);
}

TEST(SlotDirections, FlatArrayMatchesTheClass) {
  std::vector<Real> out(2 * 5);
  slot_directions(5, 0, out.data());
  const SlotDirections dirs(5);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(out[2 * i], dirs[i].x);
    EXPECT_EQ(out[2 * i + 1], dirs[i].y);
  }
}
