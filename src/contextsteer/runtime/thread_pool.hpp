// A fixed pool of worker threads for splitting a step's work across agents.
//
// run(tasks, body) calls body(task, worker) once per task and returns when all are done;
// the calling thread works too, as worker 0. Tasks are taken from a shared counter, so
// which thread runs a task varies, but every task writes only its own agents' data, so
// results are identical for any number of threads. Dispatch allocates nothing.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace contextsteer {

class ThreadPool {
 public:
  // Throws std::invalid_argument unless threads >= 1. What a worker works in is its
  // caller's to keep, by worker index (a world's scene/worker_scratch.hpp).
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Runs body(task, worker) for every task in [0, tasks); worker is in [0, size()).
  // Rethrows the first exception a task threw, after all tasks have finished.
  template <class F>
  void run(int tasks, F& body) {
    run_impl(tasks, [](void* ctx, int task, int worker) { (*static_cast<F*>(ctx))(task, worker); }, &body);
  }

 private:
  using Call = void (*)(void*, int, int);
  void run_impl(int tasks, Call call, void* ctx);
  void work(int worker);
  void drain(int worker);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  Call call_ = nullptr;
  void* ctx_ = nullptr;
  int tasks_ = 0;
  std::atomic<int> next_{0};
  int busy_ = 0;             // workers still inside the current batch
  unsigned generation_ = 0;  // bumped per batch so a worker joins each batch once
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace contextsteer
