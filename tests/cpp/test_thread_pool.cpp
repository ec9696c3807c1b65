#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "contextsteer/runtime/thread_pool.hpp"

using namespace contextsteer;

TEST(ThreadPool, RunsEveryTaskOnceOnWorkersOfThePool) {
  for (int threads : {1, 2, 3}) {
    ThreadPool pool(threads);
    std::vector<std::atomic<int>> runs(1000);
    std::atomic<bool> worker_in_range{true};
    auto body = [&](int task, int worker) {
      runs[task].fetch_add(1);
      if (worker < 0 || worker >= pool.size()) worker_in_range = false;
    };
    pool.run(1000, body);
    for (std::size_t t = 0; t < runs.size(); ++t) ASSERT_EQ(runs[t].load(), 1) << "task " << t << ", " << threads;
    EXPECT_TRUE(worker_in_range);
    pool.run(0, body);  // no tasks: returns at once
  }
}

TEST(ThreadPool, ATaskThatThrowsIsRethrownOnceEveryTaskHasRun) {
  for (int threads : {1, 2}) {
    ThreadPool pool(threads);
    std::atomic<int> finished{0};
    auto failing = [&](int task, int) {
      if (task == 37 || task == 80) throw std::runtime_error("task failed");
      finished.fetch_add(1);
    };
    EXPECT_THROW(pool.run(200, failing), std::runtime_error) << threads;
    // On one thread the loop stops at the first throw; on several, the others run on.
    if (threads > 1) EXPECT_EQ(finished.load(), 198);
    // The pool is whole afterwards, and forgets the error.
    std::atomic<int> after{0};
    auto counting = [&](int, int) { after.fetch_add(1); };
    EXPECT_NO_THROW(pool.run(50, counting));
    EXPECT_EQ(after.load(), 50);
  }
}

TEST(ThreadPool, RefusesFewerThanOneThread) {
  EXPECT_THROW(ThreadPool(0), std::invalid_argument);
  EXPECT_THROW(ThreadPool(-3), std::invalid_argument);
}
