// Non-owning views of a batch of context maps: one contiguous row-major block of
// shape (agents, slots), one row per agent. Such a block is a NumPy array as it stands.
#pragma once

#include <cstddef>

#include "contextsteer/base/real.hpp"

namespace contextsteer {

struct MapBatch {
  Real* data = nullptr;
  int agents = 0;
  int slots = 0;

  Real* row(int agent) const { return data + static_cast<std::size_t>(agent) * slots; }
  std::size_t size() const { return static_cast<std::size_t>(agents) * slots; }
  // The rows [begin, end) as a batch of their own.
  MapBatch rows(int begin, int end) const { return {row(begin), end - begin, slots}; }
};

struct ConstMapBatch {
  const Real* data = nullptr;
  int agents = 0;
  int slots = 0;

  ConstMapBatch() = default;
  ConstMapBatch(const Real* d, int a, int s) : data(d), agents(a), slots(s) {}
  ConstMapBatch(MapBatch m) : data(m.data), agents(m.agents), slots(m.slots) {}  // NOLINT: widening

  const Real* row(int agent) const { return data + static_cast<std::size_t>(agent) * slots; }
  std::size_t size() const { return static_cast<std::size_t>(agents) * slots; }
  ConstMapBatch rows(int begin, int end) const { return {row(begin), end - begin, slots}; }
};

}  // namespace contextsteer
