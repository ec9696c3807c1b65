#include "contextsteer/scene/way_left.hpp"

#include <algorithm>
#include <limits>

namespace contextsteer {

namespace {
// The table's key in the cache: the address of this object, owned by no behaviour.
const char kWayLeftKey = 0;
}  // namespace

Real* way_left_to_write(EvaluationCache& cache, int agents) {
  // store() hands back the same values when called again in one evaluation.
  const bool first = cache.find(&kWayLeftKey, nullptr) == nullptr;
  Real* table = cache.store(&kWayLeftKey, nullptr, static_cast<std::size_t>(agents));
  if (first) std::fill_n(table, agents, std::numeric_limits<Real>::quiet_NaN());
  return table;
}

const Real* way_left(const EvaluationCache* cache) { return cache ? cache->find(&kWayLeftKey, nullptr) : nullptr; }

}  // namespace contextsteer
