#include "contextsteer/scene/evaluation_cache.hpp"

#include <algorithm>

namespace contextsteer {

void EvaluationCache::begin(ThreadPool& pool) {
  for (Entry& e : entries_) e.current = false;
  // A behaviour no longer evaluated (its pipeline replaced) keeps nothing: it may be
  // gone, and another may take its address.
  kept_.erase(std::remove_if(kept_.begin(), kept_.end(), [](const Kept& k) { return !k.asked; }), kept_.end());
  for (Kept& k : kept_) k.asked = false;
  pool_ = &pool;
}

Real* EvaluationCache::store(const void* owner, const void* detail, std::size_t size) {
  Entry* entry = nullptr;
  for (Entry& e : entries_) {
    if (e.owner == owner && e.detail == detail) entry = &e;
  }
  // A result stored before keeps its memory; a new one takes memory no current result uses.
  for (Entry& e : entries_) {
    if (!entry && !e.current) entry = &e;
  }
  if (!entry) entry = &entries_.emplace_back();
  entry->owner = owner;
  entry->detail = detail;
  entry->current = true;
  entry->values.resize(size);
  return entry->values.data();
}

const Real* EvaluationCache::find(const void* owner, const void* detail) const {
  for (const Entry& e : entries_) {
    if (e.current && e.owner == owner && e.detail == detail) return e.values.data();
  }
  return nullptr;
}

const KeptState* EvaluationCache::find_kept(const void* owner) const {
  for (const Kept& k : kept_) {
    if (k.owner == owner) return k.state.get();
  }
  return nullptr;
}

KeptState* EvaluationCache::kept(const void* owner) {
  for (Kept& k : kept_) {
    if (k.owner == owner) {
      k.asked = true;
      return k.state.get();
    }
  }
  return nullptr;
}

KeptState* EvaluationCache::keep(const void* owner, std::unique_ptr<KeptState> state) {
  for (Kept& k : kept_) {
    if (k.owner == owner) {
      k.state = std::move(state);
      k.asked = true;
      return k.state.get();
    }
  }
  kept_.push_back({owner, true, std::move(state)});
  return kept_.back().state.get();
}

void EvaluationCache::copy_kept_from(const EvaluationCache& other) {
  kept_.clear();
  for (const Kept& k : other.kept_) kept_.push_back({k.owner, k.asked, k.state->clone()});
}

}  // namespace contextsteer
