// A world's state copied whole (copy), as plain values (state) and taken back (restore):
// every column of the agent store, ids, time and step count.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/world/world.hpp"

namespace contextsteer {

std::unique_ptr<World> World::copy() {
  const BusyFlag::Hold hold(busy_, "copy");
  auto twin = std::make_unique<World>(controllers_[0].steering);
  twin->controllers_ = controllers_;
  twin->tasks_ = tasks_;
  twin->slots_ = slots_;
  twin->store_ = store_;
  // Buffers of its own: the columns' shared buffers are also the NumPy views' memory.
  twin->store_.visit([](auto& column) {
    using Buffer = typename std::decay_t<decltype(*column.buffer)>;
    column.buffer = std::make_shared<Buffer>(*column.buffer);
  });
  twin->obstacles_ = obstacles_;
  twin->moving_ = moving_;
  twin->index_ = index_;
  twin->evaluated_.classic_linear = evaluated_.classic_linear;
  twin->evaluated_.classic_angular = evaluated_.classic_angular;
  twin->keep_maps_ = keep_maps_;
  twin->goals_ = goals_;
  twin->contact_ = contact_;
  twin->contact_on_ = contact_on_;
  twin->index_of_id_ = index_of_id_;
  twin->next_id_ = next_id_;
  twin->steps_ = steps_;
  twin->time_ = time_;
  twin->stage_times_ = stage_times_;
  // Scratch (the grid, the behaviours' cache, the close agents) starts empty and is
  // rebuilt by the first step; what behaviours keep from step to step is copied.
  twin->cache_.copy_kept_from(cache_);
  twin->set_threads(threads());
  return twin;
}

World::State World::state(const char* call) {
  const BusyFlag::Hold hold(busy_, call);
  State saved;
  saved.agents = store_.size;
  store_.visit([&](const auto& column) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(column.data());
    saved.columns.emplace_back(bytes, bytes + column.buffer->size() * sizeof(*column.data()));
  });
  saved.index_of_id = index_of_id_;
  saved.next_id = next_id_;
  saved.steps = steps_;
  saved.time = time_;
  saved.keep_maps = keep_maps_;
  return saved;
}

void World::restore(State saved) {
  const BusyFlag::Hold hold(busy_, "restore");
  const int n = saved.agents;
  if (n < 0) throw std::invalid_argument("agents: expected a count >= 0, got " + std::to_string(n));
  // The columns, into buffers of their own, sized by this world's widths.
  AgentStore next = store_;
  std::size_t k = 0;
  next.visit([&](auto& column) {
    using T = typename std::decay_t<decltype(column)>::value_type;
    const std::size_t values = static_cast<std::size_t>(column.width) * n;
    if (k >= saved.columns.size() || saved.columns[k].size() != values * sizeof(T)) {
      throw std::invalid_argument(
          "columns: expected column " + std::to_string(k) + " of " + std::to_string(values * sizeof(T)) + " bytes (" +
          std::to_string(n) + " agents of " + std::to_string(column.width) + " values), got " +
          (k < saved.columns.size() ? std::to_string(saved.columns[k].size()) + " bytes" : "no such column"));
    }
    auto buffer = std::make_shared<ColumnVector<T>>(values);
    if (values) std::memcpy(buffer->data(), saved.columns[k].data(), values * sizeof(T));
    column.buffer = std::move(buffer);
    ++k;
  });
  if (k != saved.columns.size()) {
    throw std::invalid_argument("columns: expected " + std::to_string(k) + " columns, got " +
                                std::to_string(saved.columns.size()));
  }
  next.size = n;
  // Ids and rows agree both ways: every agent's id maps to its row, and no other id does.
  const std::int64_t ids = static_cast<std::int64_t>(saved.index_of_id.size());
  if (saved.next_id != ids) {
    throw std::invalid_argument("next_id: expected the length of index_of_id, " + std::to_string(ids) + ", got " +
                                std::to_string(saved.next_id));
  }
  const auto rows =
      std::count_if(saved.index_of_id.begin(), saved.index_of_id.end(), [&](int row) { return row != -1; });
  if (rows != n) {
    throw std::invalid_argument("index_of_id: expected " + std::to_string(n) + " ids of current agents, got " +
                                std::to_string(rows));
  }
  for (int a = 0; a < n; ++a) {
    const std::int64_t id = next.ids[a];
    if (id < 0 || id >= ids || saved.index_of_id[id] != a) {
      throw std::invalid_argument("ids: expected agent " + std::to_string(a) + "'s id to map to its row, got id " +
                                  std::to_string(id));
    }
    if (next.steering_index[a] < 0 || next.steering_index[a] >= steering_count()) {
      throw std::invalid_argument("steering_index: expected an index from 0 to " +
                                  std::to_string(steering_count() - 1) + ", got " +
                                  std::to_string(next.steering_index[a]) + " for agent " + std::to_string(a));
    }
  }
  // Steps of up to kMaxMagnitude seconds each add up past it: any finite time is one a
  // world may have.
  if (!(saved.time >= 0 && std::isfinite(saved.time)) || saved.steps < 0) {
    throw std::invalid_argument("time, steps: expected a finite time >= 0 s and a step count >= 0, got " +
                                format_real(Real(saved.time)) + " s and " + std::to_string(saved.steps) + " steps");
  }
  // What behaviours keep is theirs to read without checking (a path's progress, say):
  // NaN or within the bound, as every world keeps it. The rest may hold what a step would
  // refuse, as the saved world may have (an agent that travelled past the bound); the
  // loaded world refuses it where the saved one would, at its next step.
  for (const Real kept : *next.memory.buffer) {
    if (!std::isnan(kept) && !within_bound(kept)) {
      throw std::invalid_argument("memory: expected NaN or values within -1e9 to 1e9, got " + format_real(kept));
    }
  }
  std::swap(store_, next);
  std::swap(index_of_id_, saved.index_of_id);
  next_id_ = saved.next_id;
  steps_ = saved.steps;
  time_ = saved.time;
  keep_maps_ = saved.keep_maps;
  cache_.forget_kept();  // kept for another state
  rebuild_membership();
}

}  // namespace contextsteer
