#include "contextsteer/runtime/thread_pool.hpp"

#include <stdexcept>
#include <string>

namespace contextsteer {

ThreadPool::ThreadPool(int threads) {
  if (threads < 1) throw std::invalid_argument("threads: expected a thread count >= 1, got " + std::to_string(threads));
  for (int w = 1; w < threads; ++w) workers_.emplace_back([this, w] { work(w); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::drain(int worker) {
  for (int task = next_.fetch_add(1); task < tasks_; task = next_.fetch_add(1)) {
    try {
      call_(ctx_, task, worker);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

void ThreadPool::work(int worker) {
  unsigned seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    drain(worker);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--busy_ == 0) done_.notify_one();
    }
  }
}

void ThreadPool::run_impl(int tasks, Call call, void* ctx) {
  if (workers_.empty()) {  // one thread: no synchronisation at all
    for (int task = 0; task < tasks; ++task) call(ctx, task, 0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    call_ = call;
    ctx_ = ctx;
    tasks_ = tasks;
    next_.store(0);
    busy_ = static_cast<int>(workers_.size());
    error_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  drain(0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  if (error_) std::rethrow_exception(error_);
}

}  // namespace contextsteer
