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
  for (Column<Real>* column : {&interest, &danger, &final_map}) {
    column->width = slots;
    column->buffer = std::make_shared<ColumnVector<Real>>(static_cast<std::size_t>(size) * slots, Real(0));
  }
}

void AgentStore::set_memory_width(int width) {
  memory.width = width;
  memory.buffer = std::make_shared<ColumnVector<Real>>(static_cast<std::size_t>(size) * width, memory.fill);
}

}  // namespace contextsteer
