#include "contextsteer/scene/evaluation_cache.hpp"

namespace contextsteer {

void EvaluationCache::begin(ThreadPool& pool) {
  for (Entry& e : entries_) e.current = false;
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

}  // namespace contextsteer
