// Parameters changed while worlds read them: a change during a read is refused with the
// busy error and leaves the parameters as they were; a reader never sees half a change.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/behaviors/follow_path.hpp"
#include "contextsteer/behaviors/support/parameters.hpp"
#include "contextsteer/pipeline/pipeline.hpp"
#include "params_with.hpp"

using namespace contextsteer;

namespace {

// The message of the std::runtime_error `change` throws, or "" when it throws none.
template <class Change>
std::string busy_error_of(Change&& change) {
  try {
    change();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ParameterGuard, RefusesAChangeWhileOneReadsAndTakesItAfter) {
  ParameterGuard guard;
  int value = 1;
  guard.begin_reading();
  guard.begin_reading();  // readers do not exclude each other
  // Read on this thread: the change came from inside the reading call.
  EXPECT_EQ(busy_error_of([&] { guard.write("gain", [&] { value = 2; }); })
                .rfind("gain: in use by the world's step() or run() (or an evaluation) this call came from, on the "
                       "same thread",
                       0),
            0u);
  // Read on another: it says so.
  std::string from_another;
  std::thread([&] { from_another = busy_error_of([&] { guard.write("gain", [&] { value = 2; }); }); }).join();
  EXPECT_EQ(from_another.rfind("gain: in use by a world's step() or run() (or an evaluation) in another thread", 0), 0u)
      << from_another;
  EXPECT_EQ(value, 1);
  guard.end_reading();
  EXPECT_NE(busy_error_of([&] { guard.write("gain", [&] { value = 2; }); }), "");  // one reader left
  guard.end_reading();
  guard.write("gain", [&] { value = 2; });
  EXPECT_EQ(value, 2);
}

TEST(ParameterGuard, ABehavioursParametersAreRefusedWhileHeldAndKeptWhole) {
  Chase chase({{1, 0}}, ChaseParams{});
  const auto changed = with<ChaseParams>([](auto& p) { p.max_distance = 3, p.weight = 0.5f; });
  chase.guard().begin_reading();
  EXPECT_EQ(busy_error_of([&] { chase.set_params(changed, "max_distance"); }).rfind("max_distance: in use", 0), 0u);
  EXPECT_EQ(chase.params().max_distance, kInfinity);
  EXPECT_EQ(chase.weight(), 1.0f);
  chase.guard().end_reading();
  chase.set_params(changed, "max_distance");
  EXPECT_EQ(chase.params().max_distance, 3.0f);
  EXPECT_EQ(chase.weight(), 0.5f);
  // A bad value is refused by name before the guard is asked, and changes nothing.
  EXPECT_THROW(chase.set_params(with<ChaseParams>([](auto& p) { p.sideways = 1; })), std::invalid_argument);
  EXPECT_EQ(chase.params().sideways, 0.0f);
}

TEST(ParameterGuard, FollowPathRemakesItsPathOnlyWhenTheChangeIsTaken) {
  FollowPath path({{0, 0}, {10, 0}, {10, 10}}, FollowPathParams{});
  const auto looped = with<FollowPathParams>([](auto& p) { p.loop = true; });
  path.guard().begin_reading();
  EXPECT_NE(busy_error_of([&] { path.set_params(looped, "loop"); }), "");
  EXPECT_FALSE(path.loop());
  EXPECT_NEAR(path.length(), 20, 1e-5);
  path.guard().end_reading();
  path.set_params(looped, "loop");
  EXPECT_TRUE(path.loop());
  EXPECT_NEAR(path.length(), 20 + 10 * std::sqrt(2.0f), 1e-4);
  FollowPath point({{1, 1}}, FollowPathParams{});
  EXPECT_THROW(point.set_params(looped, "loop"), std::invalid_argument);  // a loop needs two waypoints
  EXPECT_FALSE(point.loop());
}

TEST(PipelinesRead, HoldsEveryPipelineAndItsBehavioursForItsLifetime) {
  auto chase = std::make_shared<Chase>(std::vector<Vec2>{{1, 0}}, ChaseParams{});
  PipelineConfig config;
  config.slots = 8;
  auto pipeline = std::make_shared<Pipeline>(config, std::vector<std::shared_ptr<const Behavior>>{chase});
  const std::vector<std::shared_ptr<Pipeline>> steerings{pipeline, nullptr};
  PipelineConfig changed = config;
  changed.resolve.threshold = 0.25f;
  {
    PipelinesRead read(steerings, [](const std::shared_ptr<Pipeline>& p) { return p.get(); });
    EXPECT_NE(busy_error_of([&] { pipeline->set_config(changed, "threshold"); }), "");
    EXPECT_NE(busy_error_of([&] { chase->set_params(ChaseParams{}, "weight"); }), "");
  }
  pipeline->set_config(changed, "threshold");
  chase->set_params(with<ChaseParams>([](auto& p) { p.weight = 2; }), "weight");
  EXPECT_EQ(pipeline->config().resolve.threshold, 0.25f);
  EXPECT_EQ(chase->weight(), 2.0f);
}

TEST(ParameterGuard, ReadersNeverSeeHalfAChange) {
  // One thread changes max_distance and sideways together (sideways = max_distance / 100);
  // readers holding the guard must always find them matching.
  Chase chase({{1, 0}}, with<ChaseParams>([](auto& p) { p.max_distance = 10, p.sideways = 0.1f; }));
  std::atomic<bool> done{false};
  std::atomic<int> torn{0}, reads{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; ++t) {
    readers.emplace_back([&] {
      while (!done.load()) {
        chase.guard().begin_reading();
        const ChaseParams p = chase.params();
        chase.guard().end_reading();
        if (p.sideways != p.max_distance / 100) ++torn;
        ++reads;
      }
    });
  }
  int taken = 0, refused = 0;
  // On a loaded machine the readers may hold the guard through many tries: go on until
  // one change got in.
  for (int i = 0; i < 20000 || reads.load() < 1000 || taken == 0; ++i) {
    const Real d = Real(10 + i % 50);
    try {
      chase.set_params(with<ChaseParams>([d](auto& p) { p.max_distance = d, p.sideways = d / 100; }));
      ++taken;
    } catch (const std::runtime_error&) {
      ++refused;
    }
  }
  done = true;
  for (auto& r : readers) r.join();
  EXPECT_EQ(torn.load(), 0);
  EXPECT_GT(taken, 0);
  EXPECT_GE(taken + refused, 20000);
}
