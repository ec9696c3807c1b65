// Scene-wide results that a behaviour computes once per evaluation, in prepare(), and
// reads back in fill().
//
// A pipeline is immutable (worlds may share it), so such results live with the world:
// the world starts each evaluation with begin(), hands the cache to the behaviours in
// its SceneView, and the cache lends them the world's threads. Memory is kept from one
// evaluation to the next, so a world in steady state allocates nothing here.
//
// A behaviour may also keep state from one evaluation to the next (FollowField's
// crowd-updated fields): kept(). It lasts while the behaviour is used at every
// evaluation; a copied world gets a copy of it (copy_kept_from), a restored or reset
// world starts without (forget_kept), as does an evaluation outside a world.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/runtime/cache_line_allocator.hpp"
#include "contextsteer/runtime/thread_pool.hpp"

namespace contextsteer {

// What a behaviour keeps in a world from one evaluation to the next.
class KeptState {
 public:
  virtual ~KeptState() = default;
  virtual std::unique_ptr<KeptState> clone() const = 0;
};

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

  // The state `owner` keeps, or null when it keeps none (yet); from prepare(), on one
  // thread: it marks the state as asked for in this evaluation.
  KeptState* kept(const void* owner);
  // The same, to read from fill(), on any thread (marks nothing).
  const KeptState* find_kept(const void* owner) const;
  // Keeps `state` for `owner` (replacing what it kept); from prepare(), on one thread.
  // What an owner did not ask for (kept()) in the last evaluation is dropped at begin().
  KeptState* keep(const void* owner, std::unique_ptr<KeptState> state);
  void copy_kept_from(const EvaluationCache& other);
  void forget_kept() { kept_.clear(); }

  ThreadPool& pool() const { return *pool_; }

 private:
  struct Entry {
    const void* owner = nullptr;
    const void* detail = nullptr;
    bool current = false;  // stored in this evaluation
    std::vector<Real, CacheLineAllocator<Real>> values;
  };
  std::vector<Entry> entries_;
  struct Kept {
    const void* owner = nullptr;
    bool asked = true;  // kept() or keep() called since the last begin()
    std::unique_ptr<KeptState> state;
  };
  std::vector<Kept> kept_;
  ThreadPool* pool_ = nullptr;
};

}  // namespace contextsteer
