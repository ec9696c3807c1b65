// World::run: steps, copying each step's values of the recorded columns (RecordTargets,
// one per row of agent_columns.hpp) and the moving obstacles' poses into the caller's
// arrays, and each step's events.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "contextsteer/world/world.hpp"

namespace contextsteer {

void World::run(int steps, Real dt, int substeps, const RecordTargets& record, std::vector<StepEvent>* events) {
  const BusyFlag::Hold hold(busy_, "run");
  if (steps < 0) throw std::invalid_argument("steps: expected a number of steps >= 0, got " + std::to_string(steps));
  bool records_maps = false;
#define CONTEXTSTEER_RECORDS_MAP(name, type, width, ...) records_maps |= width == kSlotsWide && record.name;
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_RECORDS_MAP, CONTEXTSTEER_RECORDS_MAP, CONTEXTSTEER_RECORDS_MAP,
                             CONTEXTSTEER_RECORDS_MAP)
#undef CONTEXTSTEER_RECORDS_MAP
  if (!keep_maps_ && records_maps) {
    throw std::invalid_argument(
        "record: the world does not keep its maps (keep_maps is off), so it cannot record them");
  }
  std::vector<std::int64_t> ids(record.row_ids, record.row_ids + (record.row_ids ? record.rows : 0));
  if (!record.row_ids) ids.assign(store_.ids.data(), store_.ids.data() + store_.size);
  for (const std::int64_t id : ids) {
    if (id < 0 || id >= next_id_) {
      throw std::invalid_argument("ids: expected the ids of agents of this world, got " + std::to_string(id));
    }
  }
  const std::size_t rows = ids.size();
  std::vector<int> row_of(rows);  // each recorded agent's row now, -1 once it left
  bool same_rows = false;         // row_of[r] == r for every r, and no other row
  auto keep = [&](auto* destination, const auto& column, int step) {
    if (!destination) return;
    using T = std::remove_reference_t<decltype(*destination)>;
    const std::size_t width = static_cast<std::size_t>(column.width);
    T* out = destination + static_cast<std::size_t>(step) * rows * width;
    if (same_rows) return static_cast<void>(std::copy_n(column.data(), rows * width, out));
    T gone = column.fill;  // flags: as a new agent's
    if constexpr (std::is_floating_point_v<T>) gone = std::numeric_limits<T>::quiet_NaN();
    if constexpr (std::is_signed_v<T> && std::is_integral_v<T>) gone = T(-1);
    for (std::size_t r = 0; r < rows; ++r) {
      if (row_of[r] < 0) {
        std::fill_n(out + r * width, width, gone);
      } else {
        std::copy_n(column.data() + static_cast<std::size_t>(row_of[r]) * width, width, out + r * width);
      }
    }
  };
  for (int k = 0; k < steps; ++k) {
    step_unguarded(dt, substeps);
    same_rows = rows == static_cast<std::size_t>(store_.size);
    for (std::size_t r = 0; r < rows; ++r) {
      row_of[r] = index_of_id_[ids[r]];
      same_rows &= row_of[r] == static_cast<int>(r);
    }
#define CONTEXTSTEER_KEEP(name, ...) keep(record.name, store_.name, k);
    CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_KEEP, CONTEXTSTEER_KEEP, CONTEXTSTEER_KEEP, CONTEXTSTEER_KEEP)
#undef CONTEXTSTEER_KEEP
    if (record.time) record.time[k] = time_;
    const std::size_t bodies = static_cast<std::size_t>(moving_.count()), row = static_cast<std::size_t>(k);
    if (record.moving_positions) {
      std::copy_n(moving_.positions().data(), 2 * bodies, record.moving_positions + 2 * bodies * row);
    }
    if (record.moving_angles) std::copy_n(moving_.angles().data(), bodies, record.moving_angles + bodies * row);
    if (events) events->insert(events->end(), events_.begin(), events_.end());
  }
}

}  // namespace contextsteer
