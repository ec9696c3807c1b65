// Per-agent arrays of a world, structure of arrays.
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
#include "contextsteer/scene/obstacles.hpp"

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
  // Hot state, read and written every step.
  Column<Real> position{2};          // metres
  Column<Real> velocity{2};          // m/s
  Column<Real> heading{1};           // radians, counter-clockwise from +x
  Column<Real> angular_velocity{1};  // rad/s
  // Parameters.
  Column<Real> radius{1, Real(0.5)};            // metres
  Column<Real> max_speed{1, Real(1)};           // m/s
  Column<Real> max_acceleration{1, kInfinity};  // m/s^2
  Column<Real> max_turn_rate{1, kInfinity};     // rad/s
  Column<Real> mass{1, Real(1)};                // kg, from kMinMass to kMaxMagnitude
  Column<Real> max_force{1, kInfinity};         // N
  Column<Real> target{2};                       // metres, each agent's own target point
  Column<std::int64_t> target_id{1, -1};        // id of the agent it targets, -1 for none
  Column<LayerMask> layer{1, 1u};               // layers the agent is on
  Column<LayerMask> sense_mask{1, kAllLayers};  // layers it senses
  Column<std::int32_t> controller{1, 0};        // index of its steering in the world
  Column<std::int64_t> id{1, -1};
  // The state at spawn, for reset().
  Column<Real> spawn_position{2}, spawn_velocity{2}, spawn_heading{1}, spawn_angular_velocity{1}, spawn_target{2};
  // Last step's maps (agents, slots) and decisions.
  Column<Real> interest{0}, danger{0}, final_map{0};
  Column<Real> direction{2};
  Column<Real> strength{1};
  Column<Real> slot{1, Real(-1)};
  Column<std::uint8_t> blocked{1, 0};
  // Last step's measurements, metres.
  Column<Real> penetration{1};  // deepest reach into a sensed obstacle
  Column<Real> overlap{1};      // deepest overlap with another agent it senses
  // What behaviours keep from one step to the next (Behavior::memory_width), NaN until
  // first written.
  Column<Real> memory{0, std::numeric_limits<Real>::quiet_NaN()};

  // Calls f(column) for every column, always in this order.
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

 private:
  template <class Store, class F>
  static void visit_columns(Store& s, F& f) {
    f(s.position), f(s.velocity), f(s.heading), f(s.angular_velocity), f(s.radius), f(s.max_speed);
    f(s.max_acceleration), f(s.max_turn_rate), f(s.mass), f(s.max_force), f(s.target), f(s.target_id), f(s.layer);
    f(s.sense_mask), f(s.controller), f(s.id), f(s.spawn_position), f(s.spawn_velocity), f(s.spawn_heading);
    f(s.spawn_angular_velocity), f(s.spawn_target), f(s.interest), f(s.danger), f(s.final_map), f(s.direction);
    f(s.strength), f(s.slot), f(s.blocked), f(s.penetration), f(s.overlap), f(s.memory);
  }
};

}  // namespace contextsteer
