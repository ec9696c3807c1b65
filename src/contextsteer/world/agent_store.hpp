// Per-agent arrays of a world, structure of arrays, one per row of agent_columns.hpp.
//
// Every column is a shared buffer of `width` values per agent. Adding or removing agents
// moves the store to new buffers and leaves the old ones to whoever still holds them
// (a NumPy view, say), so nothing handed out ever dangles.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/runtime/cache_line_allocator.hpp"
#include "contextsteer/world/agent_columns.hpp"

namespace contextsteer {

// A column's values, on a cache line of their own (rows of maps are streamed to memory).
template <class T>
using ColumnVector = std::vector<T, CacheLineAllocator<T>>;
template <class T>
using SharedBuffer = std::shared_ptr<ColumnVector<T>>;

template <class T>
struct Column {
  using value_type = T;
  int width = 1;
  T fill{};  // value of new agents' entries unless the spawn gives one
  SharedBuffer<T> buffer = std::make_shared<ColumnVector<T>>();

  T* data() { return buffer->data(); }
  const T* data() const { return buffer->data(); }
  T& operator[](std::size_t i) { return (*buffer)[i]; }
  const T& operator[](std::size_t i) const { return (*buffer)[i]; }
};

struct AgentStore {
#define CONTEXTSTEER_COLUMN(name, type, width, fill, ...) Column<type> name{width, type(fill)};
#define CONTEXTSTEER_STATE_COLUMN(name, type, width, fill, ...) \
  Column<type> name{width, type(fill)};                         \
  Column<type> spawn_##name{width, type(fill)};  // as at spawn, for reset()
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_STATE_COLUMN, CONTEXTSTEER_COLUMN, CONTEXTSTEER_COLUMN, CONTEXTSTEER_COLUMN)
#undef CONTEXTSTEER_STATE_COLUMN
#undef CONTEXTSTEER_COLUMN
  // What behaviours keep from one step to the next (Behavior::memory_width), NaN until
  // first written; its width is the widest pipeline's, so it is no row of the table.
  Column<Real> memory{0, std::numeric_limits<Real>::quiet_NaN()};

  // Calls f(column) for every column, always in the same order (that of a saved state):
  // the spawned and identity columns, the spawn copies, the results, memory.
  template <class F>
  void visit(F&& f) {
    visit_columns(*this, f);
  }
  template <class F>
  void visit(F&& f) const {
    visit_columns(*this, f);
  }

  int size = 0;

  // Appends `count` agents whose entries hold each column's fill value.
  void grow(int count);
  // Keeps the agents whose keep[i] is true, in their order.
  void compact(const std::vector<bool>& keep);
  // Changes the width of the map columns (new maps are zero).
  void set_map_width(int slots);
  // Changes the width of the memory column; every value becomes NaN.
  void set_memory_width(int width);
  // Puts the state columns back to their spawn copies and the results to their fill;
  // memory becomes NaN.
  void reset();

 private:
  template <class Store, class F>
  static void visit_columns(Store& s, F& f) {
#define CONTEXTSTEER_VISIT(name, ...) f(s.name);
#define CONTEXTSTEER_VISIT_SPAWN(name, ...) f(s.spawn_##name);
    CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_VISIT, CONTEXTSTEER_VISIT, CONTEXTSTEER_VISIT, CONTEXTSTEER_SKIP_COLUMN)
    CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_VISIT_SPAWN, CONTEXTSTEER_SKIP_COLUMN, CONTEXTSTEER_SKIP_COLUMN,
                               CONTEXTSTEER_SKIP_COLUMN)
    CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_SKIP_COLUMN, CONTEXTSTEER_SKIP_COLUMN, CONTEXTSTEER_SKIP_COLUMN,
                               CONTEXTSTEER_VISIT)
#undef CONTEXTSTEER_VISIT_SPAWN
#undef CONTEXTSTEER_VISIT
    f(s.memory);
  }
};

// Values for new agents, one pointer per spawned column (STATE and PARAMETER rows); each
// covers `count` agents, null means the column's fill. positions is required.
struct AgentSpawn {
#define CONTEXTSTEER_SPAWN_VALUES(name, type, ...) const type* name = nullptr;
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_SPAWN_VALUES, CONTEXTSTEER_SPAWN_VALUES, CONTEXTSTEER_SKIP_COLUMN,
                             CONTEXTSTEER_SKIP_COLUMN)
#undef CONTEXTSTEER_SPAWN_VALUES
};

// Where World::run copies each step's results: per column, null (not recorded) or
// (steps, rows, width) values; time is (steps,).
struct RecordTargets {
#define CONTEXTSTEER_RECORD_TARGET(name, type, ...) type* name = nullptr;
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_RECORD_TARGET, CONTEXTSTEER_RECORD_TARGET, CONTEXTSTEER_RECORD_TARGET,
                             CONTEXTSTEER_RECORD_TARGET)
#undef CONTEXTSTEER_RECORD_TARGET
  double* time = nullptr;
  // The moving obstacles' poses after each step, or null: (steps, count, 2) positions and
  // (steps, count) angles, count the world's moving obstacles (fixed during a run).
  Real* moving_positions = nullptr;
  Real* moving_angles = nullptr;
  // The agents whose values make the rows, by id (`rows` of them); null: every agent, in
  // row order, as at the start of the run.
  const std::int64_t* row_ids = nullptr;
  int rows = 0;
};

}  // namespace contextsteer
