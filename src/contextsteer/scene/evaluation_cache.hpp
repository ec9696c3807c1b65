// Scene-wide results that a behaviour computes once per evaluation, in prepare(), and
// reads back in fill().
//
// A pipeline is immutable (worlds may share it), so such results live with the world:
// the world starts each evaluation with begin(), hands the cache to the behaviours in
// its SceneView, and the cache lends them the world's threads. Memory is kept from one
// evaluation to the next, so a world in steady state allocates nothing here.
#pragma once

#include <cstddef>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/runtime/cache_line_allocator.hpp"
#include "contextsteer/runtime/thread_pool.hpp"

namespace contextsteer {

class EvaluationCache {
 public:
  // Forgets the results of the last evaluation (keeping their memory); `pool` runs the
  // parallel work of this one's prepare() calls.
  void begin(ThreadPool& pool);

  // A result is known by its owner (the behaviour) and a detail of the owner's choice
  // (a behaviour in two pipelines may need one result per pipeline).

  // Room for `size` values (contents unspecified, on a 64-byte line) that the owner
  // fills in this evaluation; from prepare(), on one thread. Allocates only to grow.
  Real* store(const void* owner, const void* detail, std::size_t size);
  // What was stored under (owner, detail) in this evaluation, or null.
  const Real* find(const void* owner, const void* detail) const;

  ThreadPool& pool() const { return *pool_; }

 private:
  struct Entry {
    const void* owner = nullptr;
    const void* detail = nullptr;
    bool current = false;  // stored in this evaluation
    std::vector<Real, CacheLineAllocator<Real>> values;
  };
  std::vector<Entry> entries_;
  ThreadPool* pool_ = nullptr;
};

}  // namespace contextsteer
