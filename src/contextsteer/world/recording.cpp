// World::run: steps, copying each step's values of the recorded columns (RecordTargets,
// one per row of agent_columns.hpp) into the caller's arrays.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "contextsteer/world/world.hpp"

namespace contextsteer {

void World::run(int steps, Real dt, int substeps, const RecordTargets& record) {
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
  const std::size_t n = static_cast<std::size_t>(store_.size);
  auto keep = [n](auto* destination, const auto& column, int step) {
    const std::size_t values = n * static_cast<std::size_t>(column.width);
    if (destination) std::copy_n(column.data(), values, destination + static_cast<std::size_t>(step) * values);
  };
  for (int k = 0; k < steps; ++k) {
    step_unguarded(dt, substeps);
#define CONTEXTSTEER_KEEP(name, ...) keep(record.name, store_.name, k);
    CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_KEEP, CONTEXTSTEER_KEEP, CONTEXTSTEER_KEEP, CONTEXTSTEER_KEEP)
#undef CONTEXTSTEER_KEEP
    if (record.time) record.time[k] = time_;
  }
}

}  // namespace contextsteer
