#include "contextsteer/world/agent_store.hpp"

#include <algorithm>

namespace contextsteer {

void AgentStore::grow(int count) {
  const std::size_t total = static_cast<std::size_t>(size) + count;
  visit([&](auto& column) {
    using T = typename std::decay_t<decltype(column)>::value_type;
    auto next = std::make_shared<ColumnVector<T>>();
    next->reserve(total * column.width);
    next->assign(column.buffer->begin(), column.buffer->end());
    next->resize(total * column.width, column.fill);
    column.buffer = std::move(next);
  });
  size = static_cast<int>(total);
}

void AgentStore::compact(const std::vector<bool>& keep) {
  const int kept = static_cast<int>(std::count(keep.begin(), keep.end(), true));
  visit([&](auto& column) {
    using T = typename std::decay_t<decltype(column)>::value_type;
    auto next = std::make_shared<ColumnVector<T>>();
    next->reserve(static_cast<std::size_t>(kept) * column.width);
    for (int a = 0; a < size; ++a) {
      if (!keep[a]) continue;
      const auto first = column.buffer->begin() + static_cast<std::ptrdiff_t>(a) * column.width;
      next->insert(next->end(), first, first + column.width);
    }
    column.buffer = std::move(next);
  });
  size = kept;
}

void AgentStore::set_map_width(int slots) {
  auto resize = [&](auto& column, int declared_width) {
    if (declared_width != kSlotsWide) return;
    using T = typename std::decay_t<decltype(column)>::value_type;
    column.width = slots;
    column.buffer = std::make_shared<ColumnVector<T>>(static_cast<std::size_t>(size) * slots, T(0));
  };
#define CONTEXTSTEER_RESIZE_MAP(name, type, width, ...) resize(name, width);
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_RESIZE_MAP, CONTEXTSTEER_RESIZE_MAP, CONTEXTSTEER_RESIZE_MAP,
                             CONTEXTSTEER_RESIZE_MAP)
#undef CONTEXTSTEER_RESIZE_MAP
}

void AgentStore::set_memory_width(int width) {
  memory.width = width;
  memory.buffer = std::make_shared<ColumnVector<Real>>(static_cast<std::size_t>(size) * width, memory.fill);
}

void AgentStore::reset() {
  auto refill = [](auto& column) { std::fill(column.buffer->begin(), column.buffer->end(), column.fill); };
#define CONTEXTSTEER_RESTORE_SPAWN(name, ...) std::copy_n(spawn_##name.data(), name.buffer->size(), name.data());
#define CONTEXTSTEER_REFILL(name, ...) refill(name);
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_RESTORE_SPAWN, CONTEXTSTEER_SKIP_COLUMN, CONTEXTSTEER_SKIP_COLUMN,
                             CONTEXTSTEER_REFILL)
#undef CONTEXTSTEER_REFILL
#undef CONTEXTSTEER_RESTORE_SPAWN
  refill(memory);
}

}  // namespace contextsteer
