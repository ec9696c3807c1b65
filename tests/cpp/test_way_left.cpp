// The scene's table of ways left (scene/way_left.hpp): NaN until a FollowField publishes
// its agents' distances along their field, kept through one evaluation, gone at the next.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "contextsteer/behaviors/follow_field.hpp"
#include "contextsteer/runtime/thread_pool.hpp"
#include "contextsteer/scene/evaluation_cache.hpp"
#include "contextsteer/scene/way_left.hpp"

using namespace contextsteer;

TEST(WayLeft, IsNaNUntilWrittenAndLastsOneEvaluation) {
  EXPECT_EQ(way_left(nullptr), nullptr);
  ThreadPool pool(1);
  EvaluationCache cache;
  cache.begin(pool);
  EXPECT_EQ(way_left(&cache), nullptr);
  Real* table = way_left_to_write(cache, 3);
  for (int a = 0; a < 3; ++a) EXPECT_TRUE(std::isnan(table[a])) << a;
  table[1] = 2.5f;
  // A second writer (another pipeline's FollowField) gets the same table, values kept.
  EXPECT_EQ(way_left_to_write(cache, 3), table);
  EXPECT_EQ(way_left(&cache), table);
  EXPECT_EQ(table[1], 2.5f);
  cache.begin(pool);
  EXPECT_EQ(way_left(&cache), nullptr);
  EXPECT_TRUE(std::isnan(way_left_to_write(cache, 3)[1]));
}

TEST(WayLeft, FollowFieldPublishesItsAgentsDistances) {
  // A field to the goal area x >= 9 in an empty room; agents 0 and 2 are the pipeline's.
  const Obstacles none;
  const auto field = std::make_shared<const NavigationField>(
      none, kAllLayers, Bounds{{0, 0}, {10, 4}}, 0.25f, 0, std::vector<Vec2>{}, std::vector<Bounds>{{{9, 0}, {10, 4}}});
  const FollowField follow(field, FollowFieldParams{});
  std::vector<Real> xy{1, 2, 5, 2, 7, 2};
  SceneView view;
  view.agents = 3;
  view.positions = xy.data();
  ThreadPool pool(1);
  EvaluationCache cache;
  cache.begin(pool);
  follow.publish(view, nullptr, 0);  // no cache: nothing
  view.cache = &cache;
  const int agents[] = {0, 2};
  follow.publish(view, agents, 2);
  const Real* table = way_left(&cache);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table[0], field->distance_at({1, 2}));
  EXPECT_NEAR(table[0], 8.0f, 0.2f);
  EXPECT_TRUE(std::isnan(table[1]));
  EXPECT_NEAR(table[2], 2.0f, 0.2f);
}
