#include "contextsteer/world/world.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/behaviors/support/agent_danger.hpp"
#include "contextsteer/kernels/dispatch.hpp"
#include "contextsteer/maps/shaping.hpp"
#include "contextsteer/world/motion.hpp"
#include "contextsteer/world/overlap.hpp"

namespace contextsteer {

namespace {

// Throws std::invalid_argument naming dt unless it is a time step a world can take.
void check_time_step(Real dt) {
  if (!(dt >= kMinTimeStep && dt <= kMaxMagnitude)) {
    throw std::invalid_argument("dt: expected a time step from 1e-6 to 1e9 seconds, got " + format_real(dt));
  }
}

// True when v lies outside [lowest, kMaxMagnitude] and is not `also` (a second value
// allowed: +inf where limits may be infinite, else kMaxMagnitude again); NaN fails every
// comparison.
inline bool outside(Real v, Real lowest, Real also) { return !(v >= lowest && (v <= kMaxMagnitude || v == also)); }

// True when some value of values[0..count) is outside (as above): the vector kernel
// (kernels/wide/any_outside.inl) where there is one, else this loop, its reference.
bool any_outside(const Real* values, std::size_t count, Real lowest, Real also) {
  if (const KernelTable* kernels = vector_kernels()) return kernels->any_outside(values, count, lowest, also);
  bool any = false;
  for (std::size_t i = 0; i < count; ++i) any |= outside(values[i], lowest, also);
  return any;
}

// values: `count` entries, `width` per agent, of agents first_agent, first_agent + 1, ...
// Each must lie within +-kMaxMagnitude (from 0 if nonnegative), or be +inf if allowed.
// Only a failure pays for the search that names the agent.
void check_values(const Real* values, std::size_t count, int width, const char* argument, bool nonnegative,
                  bool allow_inf, std::size_t first_agent = 0) {
  const Real lowest = nonnegative ? Real(0) : -kMaxMagnitude;
  const Real also = allow_inf ? kInfinity : kMaxMagnitude;
  if (!any_outside(values, count, lowest, also)) return;
  for (std::size_t i = 0; i < count; ++i) {
    const Real v = values[i];
    if (outside(v, lowest, also)) {
      throw std::invalid_argument(std::string(argument) + ": expected values " +
                                  (nonnegative ? "from 0 to 1e9" : "from -1e9 to 1e9") + (allow_inf ? " or inf" : "") +
                                  ", got " + format_real(v) + " for agent " + std::to_string(first_agent + i / width));
    }
  }
}

// Masses of agents first_agent, first_agent + 1, ...: from kMinMass to kMaxMagnitude kg.
void check_masses(const Real* mass, std::size_t count, std::size_t first_agent = 0) {
  if (!any_outside(mass, count, kMinMass, kMaxMagnitude)) return;
  for (std::size_t i = 0; i < count; ++i) {
    if (outside(mass[i], kMinMass, kMaxMagnitude)) {
      throw std::invalid_argument("mass: expected values from 1e-9 to 1e9, got " + format_real(mass[i]) +
                                  " for agent " + std::to_string(first_agent + i));
    }
  }
}

template <class T>
void copy_in(Column<T>& column, std::size_t first, const T* values, int count) {
  if (values)
    std::copy(values, values + static_cast<std::size_t>(count) * column.width, column.data() + first * column.width);
}

}  // namespace

World::World(Steering steering) : pool_(std::make_unique<ThreadPool>(1)) { add_steering(std::move(steering)); }

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
  twin->target_index_ = target_index_;
  twin->linear_ = linear_;
  twin->angular_ = angular_;
  twin->max_radius_ = max_radius_;
  twin->usual_radius_ = usual_radius_;
  twin->keep_maps_ = keep_maps_;
  twin->index_of_id_ = index_of_id_;
  twin->next_id_ = next_id_;
  twin->steps_ = steps_;
  twin->time_ = time_;
  twin->stage_times_ = stage_times_;
  // Scratch (the grid, the behaviours' cache) starts empty and is rebuilt by the first step.
  twin->set_threads(threads());
  return twin;
}

World::State World::state() const {
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
    const std::int64_t id = next.id[a];
    if (id < 0 || id >= ids || saved.index_of_id[id] != a) {
      throw std::invalid_argument("ids: expected agent " + std::to_string(a) + "'s id to map to its row, got id " +
                                  std::to_string(id));
    }
    if (next.controller[a] < 0 || next.controller[a] >= steering_count()) {
      throw std::invalid_argument("steering_index: expected an index from 0 to " +
                                  std::to_string(steering_count() - 1) + ", got " + std::to_string(next.controller[a]) +
                                  " for agent " + std::to_string(a));
    }
  }
  if (!(saved.time >= 0 && saved.time <= kMaxMagnitude) || saved.steps < 0) {
    throw std::invalid_argument("time, steps: expected a time from 0 to 1e9 s and a step count >= 0, got " +
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
  rebuild_membership();
}

void World::check_steering(const Steering& s, int replacing) const {
  if (!s.pipeline == !s.classic)
    throw std::invalid_argument("steering: expected a context pipeline or a classic steering");
  if (!s.pipeline) return;
  for (int c = 0; c < steering_count(); ++c) {
    const auto& other = controllers_[c].steering.pipeline;
    if (c != replacing && other && other->config().slots != s.pipeline->config().slots) {
      throw std::invalid_argument("steering: every context pipeline of a world has the same slot count; this one has " +
                                  std::to_string(s.pipeline->config().slots) + ", another has " +
                                  std::to_string(other->config().slots));
    }
  }
}

int World::add_steering(Steering steering) {
  const BusyFlag::Hold hold(busy_, "add_steering");
  check_steering(steering, -1);
  if (steering.pipeline && slots_ == 0) {
    slots_ = steering.pipeline->config().slots;
    store_.set_map_width(slots_);
  }
  controllers_.push_back({std::move(steering), {}});
  resize_scratch();
  fit_memory();
  return steering_count() - 1;
}

const Steering& World::steering(int index) const {
  if (index < 0 || index >= steering_count()) {
    throw std::out_of_range("steering: expected an index from 0 to " + std::to_string(steering_count() - 1) + ", got " +
                            std::to_string(index));
  }
  return controllers_[index].steering;
}

void World::set_steering(int index, Steering steering) {
  const BusyFlag::Hold hold(busy_, "set_steering");
  this->steering(index);  // range check
  check_steering(steering, index);
  if (steering.pipeline) {
    const int slots = steering.pipeline->config().slots;
    if (slots_ != 0 && slots != slots_) {
      // A new resolution: carry the maps over so smoothing continues where it was.
      const int n = store_.size;
      std::vector<Real> interest(static_cast<std::size_t>(n) * slots), danger(interest.size());
      resample(ConstMapBatch(store_.interest.data(), n, slots_), ResampleMethod::Linear,
               MapBatch{interest.data(), n, slots});
      resample(ConstMapBatch(store_.danger.data(), n, slots_), ResampleMethod::Max, MapBatch{danger.data(), n, slots});
      store_.set_map_width(slots);
      std::copy(interest.begin(), interest.end(), store_.interest.data());
      std::copy(danger.begin(), danger.end(), store_.danger.data());
    } else if (slots_ == 0) {
      store_.set_map_width(slots);
    }
    slots_ = slots;
  }
  controllers_[index].steering = std::move(steering);
  resize_scratch();
  rebuild_membership();
  // The agents of this steering start their new behaviours afresh.
  if (!fit_memory()) {
    const int width = store_.memory.width;
    for (int a = 0; a < store_.size; ++a) {
      if (store_.controller[a] != index) continue;
      std::fill_n(store_.memory.data() + static_cast<std::size_t>(a) * width, width, store_.memory.fill);
    }
  }
}

bool World::fit_memory() {
  int width = 0;
  for (const Controller& c : controllers_) {
    if (c.steering.pipeline) width = std::max(width, c.steering.pipeline->memory_width());
  }
  if (width == store_.memory.width) return false;
  store_.set_memory_width(width);
  return true;
}

void World::resize_scratch() {
  const int workers = threads();
  pipeline_scratch_.resize(controllers_.size());
  for (std::size_t c = 0; c < controllers_.size(); ++c) {
    pipeline_scratch_[c].clear();
    if (const auto& p = controllers_[c].steering.pipeline) {
      for (int w = 0; w < workers; ++w) pipeline_scratch_[c].push_back(p->make_scratch());
    }
  }
}

void World::set_threads(int threads) {
  const BusyFlag::Hold hold(busy_, "threads");
  if (threads < 1 || threads > kMaxThreads) {
    throw std::invalid_argument("threads: expected a thread count from 1 to " + std::to_string(kMaxThreads) + ", got " +
                                std::to_string(threads));
  }
  // Workers set up their thread-local neighbor buffers as they start; the rest of their
  // scratch is made here, per worker (resize_scratch), so no step allocates for a worker
  // that takes a kind of block for the first time.
  pool_ = std::make_unique<ThreadPool>(threads, &reserve_neighbor_buffers);
  resize_scratch();
}

void World::rebuild_membership() {
  for (Controller& c : controllers_) c.members.clear();
  for (int a = 0; a < store_.size; ++a) controllers_[store_.controller[a]].members.push_back(a);
  tasks_.clear();
  for (int c = 0; c < steering_count(); ++c) {
    const int n = static_cast<int>(controllers_[c].members.size());
    for (int first = 0; first < n; first += Pipeline::kBlockAgents) {
      tasks_.push_back({c, first, std::min(Pipeline::kBlockAgents, n - first)});
    }
  }
  target_index_.assign(store_.size, -1);
  linear_.assign(2 * static_cast<std::size_t>(store_.size), 0);
  angular_.assign(store_.size, 0);
}

std::int64_t World::add_agents(int count, const AgentSpawn& spawn, int steering_index) {
  const BusyFlag::Hold hold(busy_, "add_agents");
  if (count < 0) throw std::invalid_argument("count: expected a number of agents >= 0, got " + std::to_string(count));
  steering(steering_index);  // range check
  if (!spawn.positions && count > 0) throw std::invalid_argument("positions: required");
  const std::size_t n = static_cast<std::size_t>(count);
  check_values(spawn.positions, 2 * n, 2, "positions", false, false);
  if (spawn.velocities) check_values(spawn.velocities, 2 * n, 2, "velocities", false, false);
  if (spawn.headings) check_values(spawn.headings, n, 1, "heading", false, false);
  if (spawn.angular_velocities) check_values(spawn.angular_velocities, n, 1, "angular_velocity", false, false);
  if (spawn.radius) check_values(spawn.radius, n, 1, "radius", true, false);
  if (spawn.max_speed) check_values(spawn.max_speed, n, 1, "max_speed", true, false);
  if (spawn.max_acceleration) check_values(spawn.max_acceleration, n, 1, "max_acceleration", true, true);
  if (spawn.max_turn_rate) check_values(spawn.max_turn_rate, n, 1, "max_turn_rate", true, true);
  if (spawn.max_force) check_values(spawn.max_force, n, 1, "max_force", true, true);
  if (spawn.targets) check_values(spawn.targets, 2 * n, 2, "targets", false, false);
  if (spawn.mass) check_masses(spawn.mass, n);
  const std::int64_t first_id = next_id_;
  if (spawn.target_ids) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t t = spawn.target_ids[i];
      // A target may be an existing agent or one of this batch.
      if (!(t >= first_id && t < first_id + count)) check_target_id(t, i, first_id + count);
    }
  }

  const std::size_t first = static_cast<std::size_t>(store_.size);
  store_.grow(count);
  copy_in(store_.position, first, spawn.positions, count);
  copy_in(store_.velocity, first, spawn.velocities, count);
  copy_in(store_.heading, first, spawn.headings, count);
  copy_in(store_.angular_velocity, first, spawn.angular_velocities, count);
  copy_in(store_.radius, first, spawn.radius, count);
  copy_in(store_.max_speed, first, spawn.max_speed, count);
  copy_in(store_.max_acceleration, first, spawn.max_acceleration, count);
  copy_in(store_.max_turn_rate, first, spawn.max_turn_rate, count);
  copy_in(store_.mass, first, spawn.mass, count);
  copy_in(store_.max_force, first, spawn.max_force, count);
  copy_in(store_.target, first, spawn.targets, count);
  copy_in(store_.target_id, first, spawn.target_ids, count);
  copy_in(store_.layer, first, spawn.layers, count);
  copy_in(store_.sense_mask, first, spawn.sense_masks, count);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t a = first + i;
    store_.controller[a] = steering_index;
    store_.id[a] = next_id_;
    index_of_id_.push_back(static_cast<int>(a));
    ++next_id_;
  }
  // The spawn state, for reset().
  std::copy_n(store_.position.data() + 2 * first, 2 * n, store_.spawn_position.data() + 2 * first);
  std::copy_n(store_.velocity.data() + 2 * first, 2 * n, store_.spawn_velocity.data() + 2 * first);
  std::copy_n(store_.heading.data() + first, n, store_.spawn_heading.data() + first);
  std::copy_n(store_.angular_velocity.data() + first, n, store_.spawn_angular_velocity.data() + first);
  std::copy_n(store_.target.data() + 2 * first, 2 * n, store_.spawn_target.data() + 2 * first);
  rebuild_membership();
  return first_id;
}

std::string World::unknown_id(std::int64_t id, std::int64_t ids_end) const {
  if (id < 0 || id >= ids_end) {
    if (ids_end == 0) return "no agent has id " + std::to_string(id) + " (the world has no agents yet)";
    return "no agent has id " + std::to_string(id) + " (ids so far run from 0 to " + std::to_string(ids_end - 1) + ")";
  }
  if (id >= next_id_) return {};  // one of the batch being added
  if (index_of_id_[id] < 0) return "agent " + std::to_string(id) + " was removed";
  return {};
}

int World::index_of(std::int64_t id) const {
  const std::string unknown = unknown_id(id);
  if (!unknown.empty()) throw std::out_of_range("id: " + unknown);
  return index_of_id_[id];
}

void World::check_target_id(std::int64_t target, std::size_t agent, std::int64_t ids_end) const {
  if (target == -1) return;
  const std::string unknown = unknown_id(target, ids_end);
  if (!unknown.empty()) {
    throw std::out_of_range("target_ids: expected -1 or the id of an agent in the world, got " +
                            std::to_string(target) + " for agent " + std::to_string(agent) + ": " + unknown);
  }
}

void World::remove_agents(const std::int64_t* ids, int count) {
  const BusyFlag::Hold hold(busy_, "remove_agents");
  std::vector<bool> keep(store_.size, true);
  for (int i = 0; i < count; ++i) keep[index_of(ids[i])] = false;  // throws before anything changes
  for (int i = 0; i < count; ++i) index_of_id_[ids[i]] = -1;
  store_.compact(keep);
  for (int a = 0; a < store_.size; ++a) index_of_id_[store_.id[a]] = a;
  rebuild_membership();
}

void World::reset() {
  const BusyFlag::Hold hold(busy_, "reset");
  const std::size_t n = static_cast<std::size_t>(store_.size);
  std::copy_n(store_.spawn_position.data(), 2 * n, store_.position.data());
  std::copy_n(store_.spawn_velocity.data(), 2 * n, store_.velocity.data());
  std::copy_n(store_.spawn_heading.data(), n, store_.heading.data());
  std::copy_n(store_.spawn_angular_velocity.data(), n, store_.angular_velocity.data());
  std::copy_n(store_.spawn_target.data(), 2 * n, store_.target.data());
  for (Column<Real>* c : {&store_.interest, &store_.danger, &store_.final_map, &store_.direction, &store_.strength,
                          &store_.penetration, &store_.overlap}) {
    std::fill(c->buffer->begin(), c->buffer->end(), Real(0));
  }
  std::fill(store_.memory.buffer->begin(), store_.memory.buffer->end(), store_.memory.fill);
  std::fill(store_.slot.buffer->begin(), store_.slot.buffer->end(), Real(-1));
  std::fill(store_.blocked.buffer->begin(), store_.blocked.buffer->end(), std::uint8_t(0));
  steps_ = 0;
  time_ = 0;
}

void World::check_agents(std::size_t first, std::size_t count) const {
  auto column = [&](const auto& values, int width, const char* argument, bool nonnegative, bool allow_inf) {
    check_values(values.data() + first * width, count * width, width, argument, nonnegative, allow_inf, first);
  };
  column(store_.position, 2, "positions", false, false);
  column(store_.velocity, 2, "velocities", false, false);
  column(store_.heading, 1, "heading", false, false);
  column(store_.angular_velocity, 1, "angular_velocity", false, false);
  column(store_.target, 2, "targets", false, false);
  column(store_.radius, 1, "radius", true, false);
  column(store_.max_speed, 1, "max_speed", true, false);
  column(store_.max_acceleration, 1, "max_acceleration", true, true);
  column(store_.max_turn_rate, 1, "max_turn_rate", true, true);
  column(store_.max_force, 1, "max_force", true, true);
  check_masses(store_.mass.data() + first, count, first);
  // Most agents target no agent: the call (which looks the id up) is left for the others.
  for (std::size_t a = first; a < first + count; ++a) {
    if (store_.target_id[a] != -1) check_target_id(store_.target_id[a], a, next_id_);
  }
}

void World::check_state() const {
  // Users may write into the state views between steps. Ranges of agents are checked on
  // every thread; only a failure pays for a pass in agent order, which names the first
  // bad agent whatever the number of threads.
  constexpr std::size_t kRange = 8192;
  const std::size_t n = static_cast<std::size_t>(store_.size);
  const int ranges = static_cast<int>((n + kRange - 1) / kRange);
  std::atomic<bool> failed{false};
  auto body = [&](int r, int) {
    const std::size_t first = static_cast<std::size_t>(r) * kRange;
    try {
      check_agents(first, std::min(kRange, n - first));
    } catch (const std::exception&) {  // a bad value, or a removed target id
      failed.store(true, std::memory_order_relaxed);
    }
  };
  pool_->run(ranges, body);
  if (failed.load()) check_agents(0, n);
}

void World::check_travel(Real dt) const {
  for (std::size_t c = 0; c < controllers_.size(); ++c) {
    const Pipeline* pipeline = controllers_[c].steering.pipeline.get();
    if (!pipeline) continue;
    const Behavior* narrowest = nullptr;
    for (const auto& b : pipeline->behaviors()) {
      if (!narrowest || b->window() < narrowest->window()) narrowest = b.get();
    }
    if (!narrowest || !std::isfinite(narrowest->window())) continue;
    // Only pipelines with a window pay for this pass over their agents.
    Real fastest = 0;
    for (int a : controllers_[c].members) fastest = std::max(fastest, store_.max_speed[a]);
    if (fastest * dt >= narrowest->window()) {
      throw std::invalid_argument(
          "dt: an agent at its max_speed of " + format_real(fastest) + " m/s travels " + format_real(fastest * dt) +
          " m in a step of " + format_real(dt) + " s, as far as or farther than the window of " +
          format_real(narrowest->window()) + " m within which a behaviour of its steering " +
          "(FollowPath, RacingLanes) seeks its place again; take a smaller dt or a larger window");
    }
  }
}

SceneView World::scene() const {
  SceneView v;
  v.agents = store_.size;
  v.positions = store_.position.data();
  v.velocities = store_.velocity.data();
  v.headings = store_.heading.data();
  v.angular_velocities = store_.angular_velocity.data();
  v.radius = store_.radius.data();
  v.max_speed = store_.max_speed.data();
  v.max_acceleration = store_.max_acceleration.data();
  v.max_turn_rate = store_.max_turn_rate.data();
  v.targets = store_.target.data();
  v.target_index = target_index_.data();
  v.ids = store_.id.data();
  v.layer = store_.layer.data();
  v.sense_mask = store_.sense_mask.data();
  v.max_radius = max_radius_;
  v.obstacles = &obstacles_;
  v.grid = &grid_;
  v.time = time_;
  if (store_.memory.width > 0) {
    v.memory = store_.memory.data();
    v.memory_width = store_.memory.width;
  }
  return v;
}

Real World::grid_row_height() const {
  // Neighbor behaviours query within their radius plus two agent radii; overlap within
  // two radii. Rows of the longest reach (spatial_grid.hpp), among agents of the usual
  // size: the grid's kernels meet the few large ones apart.
  Real reach = 2 * usual_radius_;
  for (const Controller& c : controllers_) {
    if (c.steering.pipeline) reach = std::max(reach, c.steering.pipeline->neighbor_radius() + 2 * usual_radius_);
  }
  return std::max(reach, Real(1e-3));
}

void World::index_stage() {
  const int n = store_.size;
  // A local maximum: a member could alias the radii (both are floats), and Clang then
  // stored and reloaded it on every agent (the index stage took twice GCC's time).
  Real max_radius = 0, min_radius = n > 0 ? store_.radius[0] : Real(0), fastest = 0;
  for (int a = 0; a < n; ++a) {
    max_radius = std::max(max_radius, store_.radius[a]);
    fastest = std::max(fastest, store_.max_speed[a]);
    min_radius = std::min(min_radius, store_.radius[a]);
    const std::int64_t t = store_.target_id[a];
    target_index_[a] = t == -1 ? -1 : index_of_id_[t];
  }
  max_radius_ = max_radius;
  fastest_ = fastest;
  usual_radius_ = SpatialGrid::usual_radius_of(store_.radius.data(), n, min_radius, max_radius);
  // The grid the last measure stage built serves unless the state changed since.
  if (!grid_.matches(store_.position.data(), n, grid_row_height(), store_.radius.data(), store_.layer.data(),
                     store_.sense_mask.data())) {
    build_grid();
  }
  // When behaviours query neighbors, evaluate agents in grid order: consecutive agents
  // then query the same cells, which stay in cache. Otherwise index order keeps the
  // writes of maps and decisions sequential. Every agent's result is independent of the order.
  bool queries_neighbors = false;
  for (const Controller& c : controllers_) {
    queries_neighbors |= c.steering.pipeline && c.steering.pipeline->neighbor_radius() > 0;
  }
  const int* order = grid_.order();
  if (controllers_.size() == 1) {  // everyone in one steering: the order is the list
    std::vector<int>& members = controllers_[0].members;
    members.resize(n);
    if (queries_neighbors) {
      std::copy_n(order, n, members.begin());
    } else {
      std::iota(members.begin(), members.end(), 0);
    }
    return;
  }
  for (Controller& c : controllers_) c.members.clear();
  if (queries_neighbors) {
    for (int k = 0; k < n; ++k) controllers_[store_.controller[order[k]]].members.push_back(order[k]);
  } else {
    for (int a = 0; a < n; ++a) controllers_[store_.controller[a]].members.push_back(a);
  }
}

void World::build_grid() {
  grid_.build(store_.position.data(), store_.size, grid_row_height(), store_.radius.data(), store_.layer.data(),
              store_.sense_mask.data());
}

void World::evaluate_stage(Real dt) {
  SceneView view = scene();
  view.dt = dt;
  cache_.begin(*pool_);
  view.cache = &cache_;
  // An agent moves at most max_speed * dt in a step, unless it starts faster than its
  // max_speed (it then brakes within its acceleration limit); such an agent, or rounding
  // far from the origin, is caught after the move (measure_stage).
  close_flags_.assign(static_cast<std::size_t>(store_.size), 0);
  close_ = CloseAgents{2 * Real(1.05) * fastest_ * dt + Real(1e-3), close_flags_.data(), false};
  view.close_agents = &close_;
  if (view.memory) view.memory_out = store_.memory.data();  // each agent's, by its own block only
  const MapBatch interest{store_.interest.data(), store_.size, slots_};
  const MapBatch danger{store_.danger.data(), store_.size, slots_};
  const DecisionBatch out{store_.direction.data(), store_.strength.data(), store_.slot.data(), store_.blocked.data(),
                          keep_maps_ ? store_.final_map.data() : nullptr};
  // Without kept maps, only a smoothing pipeline writes (and next step reads) its
  // agents' interest and danger rows.
  auto rows_for = [&](const Pipeline& p, MapBatch maps) {
    return keep_maps_ || p.config().smooth > 0 ? maps : MapBatch{nullptr, store_.size, slots_};
  };
  const bool has_previous = steps_ > 0;
  for (const Controller& c : controllers_) {
    if (c.steering.pipeline) {
      c.steering.pipeline->prepare(view, c.members.data(), static_cast<int>(c.members.size()));
    }
  }
  auto body = [&](int t, int worker) {
    const Task& task = tasks_[t];
    const Controller& c = controllers_[task.controller];
    const int* agents = c.members.data() + task.first;
    if (c.steering.pipeline) {
      const Pipeline& p = *c.steering.pipeline;
      p.evaluate_block(view, agents, task.count, rows_for(p, interest), rows_for(p, danger), out, has_previous,
                       pipeline_scratch_[task.controller][worker]);
      return;
    }
    for (int k = 0; k < task.count; ++k) {
      const int a = agents[k];
      const SteeringOutput s = c.steering.classic->compute(view, a);
      store(linear_.data(), a, s.linear);
      angular_[a] = s.angular;
    }
  };
  pool_->run(static_cast<int>(tasks_.size()), body);
}

void World::integrate_stage(Real dt, int substeps) {
  const Real h = dt / static_cast<Real>(substeps);
  Real* pos = store_.position.data();
  Real* vel = store_.velocity.data();
  Real* heading = store_.heading.data();
  Real* omega = store_.angular_velocity.data();
  const MotionColumns motion{pos,
                             vel,
                             heading,
                             omega,
                             store_.direction.data(),
                             store_.strength.data(),
                             store_.max_speed.data(),
                             store_.max_acceleration.data(),
                             store_.max_force.data(),
                             store_.mass.data(),
                             store_.max_turn_rate.data()};
  // Agents move in index order, whatever their steering: the state is read and written
  // sequentially, and runs of context-steered agents move W at a time.
  auto classic_of = [this](int a) { return controllers_[store_.controller[a]].steering.classic.get(); };
  auto move_classic = [&](int a, const ClassicSteering& classic) {
    const Real mass = store_.mass[a];
    const Real max_speed = store_.max_speed[a];
    // Half a turn per substep at most: a faster spin is indistinguishable from a slower
    // one the other way, and the cap keeps blended angular steering (weights above 1
    // overshoot their goal) from growing the angular velocity step after step.
    const Real max_turn = std::min(store_.max_turn_rate[a], kPi / h);
    Vec2 p = load(pos, a);
    Vec2 v = load(vel, a);
    // Seed 003: the steering force is truncated to the maximum force and divided by the
    // mass; the velocity is truncated to the maximum speed.
    const Vec2 acc = truncate(load(linear_.data(), a) * mass, store_.max_force[a]) * (1 / mass);
    for (int s = 0; s < substeps; ++s) {
      v = truncate(v + acc * h, max_speed);
      p = p + v * h;  // semi-implicit Euler: the new velocity moves the agent
      if (classic.steers_heading()) {
        omega[a] = std::clamp(omega[a] + angular_[a] * h, -max_turn, max_turn);
        heading[a] = wrap_angle(heading[a] + omega[a] * h);
      } else {
        follow_velocity(heading[a], omega[a], v, max_turn, h);
      }
    }
    const Vec2 moved = p - load(pos, a);
    store(pos, a, p);
    store(vel, a, v);
    return length_squared(moved);
  };
  const int n = store_.size;
  const int blocks = (n + Pipeline::kBlockAgents - 1) / Pipeline::kBlockAgents;
  travel_.assign(static_cast<std::size_t>(pool_->size()), 0);
  auto body = [&](int block, int worker) {
    const int end = std::min(n, (block + 1) * Pipeline::kBlockAgents);
    int a = block * Pipeline::kBlockAgents;
    Real farthest = 0;
    while (a < end) {
      int run = a;
      while (run < end && !classic_of(run)) ++run;
      farthest = std::max(farthest, move_by_decisions(motion, a, run - a, h, substeps));
      for (a = run; a < end && classic_of(a); ++a) farthest = std::max(farthest, move_classic(a, *classic_of(a)));
    }
    travel_[worker] = std::max(travel_[worker], farthest);
  };
  pool_->run(blocks, body);
}

void World::measure_stage() {
  build_grid();
  const SceneView view = scene();
  const bool has_obstacles = !obstacles_.empty();
  // Only the agents Avoid's pass found close to another can overlap one now, if no agent
  // moved farther than half the slack (with room for the rounding of the distances).
  const Real farthest = travel_.empty() ? kInfinity : std::sqrt(*std::max_element(travel_.begin(), travel_.end()));
  const bool only_close = close_.complete && grid_.large_count() == 0 &&
                          2 * farthest * Real(1.001) + Real(1e-5) * (2 * max_radius_ + close_.slack) <= close_.slack;
  // In grid order: consecutive queries read neighboring cells, which stay in cache.
  const int* order = grid_.order();
  const int n = store_.size;
  const int blocks = (n + Pipeline::kBlockAgents - 1) / Pipeline::kBlockAgents;
  auto body = [&](int block, int) {
    const int first = block * Pipeline::kBlockAgents;
    const int count = std::min(n, first + Pipeline::kBlockAgents) - first;
    int to_query[Pipeline::kBlockAgents];
    int queried = 0;
    for (int k = first; k < first + count; ++k) {
      const int a = order[k];
      store_.penetration[a] =
          has_obstacles ? obstacles_.penetration(view.position(a), view.radius_of(a), view.senses(a)) : Real(0);
      if (only_close) {
        if (close_flags_[a]) {
          to_query[queried++] = a;
        } else {
          store_.overlap[a] = 0;
        }
      }
    }
    if (!only_close) return measure_overlap(view, order + first, count, store_.overlap.data());
    measure_overlap(view, to_query, queried, store_.overlap.data());
  };
  pool_->run(blocks, body);
  close_.complete = false;  // the flags were of this step's pass
  overlap_of_close_only_ = only_close;
  overlap_measured_ = n;
}

int World::overlap_queries() const {
  if (!overlap_of_close_only_) return overlap_measured_;
  return static_cast<int>(std::count(close_flags_.begin(), close_flags_.end(), 1));
}

void World::step(Real dt, int substeps) {
  const BusyFlag::Hold hold(busy_, "step");
  step_unguarded(dt, substeps);
}

void World::step_unguarded(Real dt, int substeps) {
  check_time_step(dt);
  if (substeps < 1) throw std::invalid_argument("substeps: expected an integer >= 1, got " + std::to_string(substeps));
  if (dt / static_cast<Real>(substeps) < kMinTimeStep) {
    throw std::invalid_argument("substeps: expected substeps of at least 1e-6 seconds, got " +
                                std::to_string(substeps) + " of a " + format_real(dt) + " s step");
  }
  obstacles_.prepare_index();  // before the stages share the obstacles between threads
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  auto lap = [&t0](double& into) {
    const auto t1 = Clock::now();
    into = std::chrono::duration<double>(t1 - t0).count();
    t0 = t1;
  };
  check_state();
  check_travel(dt);
  lap(stage_times_.check);
  index_stage();
  lap(stage_times_.index);
  evaluate_stage(dt);
  lap(stage_times_.evaluate);
  integrate_stage(dt, substeps);
  lap(stage_times_.integrate);
  measure_stage();
  lap(stage_times_.measure);
  ++steps_;
  time_ += dt;
}

void World::run(int steps, Real dt, int substeps, const RecordTargets& record) {
  const BusyFlag::Hold hold(busy_, "run");
  if (steps < 0) throw std::invalid_argument("steps: expected a number of steps >= 0, got " + std::to_string(steps));
  if (!keep_maps_ && (record.interest || record.danger || record.final_map)) {
    throw std::invalid_argument(
        "record: the world does not keep its maps (keep_maps is off), so it cannot record them");
  }
  const std::size_t n = static_cast<std::size_t>(store_.size);
  const std::size_t s = static_cast<std::size_t>(slots_);
  auto keep = [](auto* destination, const auto& column, std::size_t values, int step) {
    if (destination) std::copy_n(column.data(), values, destination + static_cast<std::size_t>(step) * values);
  };
  for (int k = 0; k < steps; ++k) {
    step_unguarded(dt, substeps);
    keep(record.positions, store_.position, 2 * n, k);
    keep(record.velocities, store_.velocity, 2 * n, k);
    keep(record.headings, store_.heading, n, k);
    keep(record.interest, store_.interest, n * s, k);
    keep(record.danger, store_.danger, n * s, k);
    keep(record.final_map, store_.final_map, n * s, k);
    keep(record.direction, store_.direction, 2 * n, k);
    keep(record.strength, store_.strength, n, k);
    keep(record.slot, store_.slot, n, k);
    keep(record.blocked, store_.blocked, n, k);
    keep(record.penetration, store_.penetration, n, k);
    keep(record.overlap, store_.overlap, n, k);
    if (record.time) record.time[k] = time_;
  }
}

const Steering& World::steering_to_explain(int index) {
  if (index < 0 || index >= store_.size)
    throw std::out_of_range("agent: expected a row from 0 to " + std::to_string(store_.size - 1) + ", got " +
                            std::to_string(index));
  check_state();  // the state views are writable: a target id written there may name no agent
  index_stage();  // targets and grid from the current state
  return controllers_[store_.controller[index]].steering;
}

Pipeline::Explanation World::explain(int index) {
  const BusyFlag::Hold hold(busy_, "explain");
  const Pipeline* p = steering_to_explain(index).pipeline.get();
  if (!p) throw std::invalid_argument("agent: it is steered classically, so it has no context maps to explain");
  const std::size_t row = static_cast<std::size_t>(index) * slots_;
  const bool has_previous = steps_ > 0;
  return p->explain(scene(), index, has_previous ? store_.interest.data() + row : nullptr,
                    has_previous ? store_.danger.data() + row : nullptr);
}

ClassicSteering::Explanation World::explain_classic(int index, Real dt) {
  const BusyFlag::Hold hold(busy_, "explain");
  check_time_step(dt);
  const ClassicSteering* c = steering_to_explain(index).classic.get();
  if (!c) throw std::invalid_argument("agent: it is steered by a context pipeline, so it has no classic steering");
  SceneView view = scene();
  view.dt = dt;
  return c->explain(view, index);
}

void World::neighbors(Vec2 p, Real radius, LayerMask mask, int exclude, std::vector<int>& out) {
  const BusyFlag::Hold hold(busy_, "neighbors");
  require_nonnegative(radius, "radius", "a distance", " in metres");
  check_state();  // a grid of positions that are NaN or past the bound has no cells to put them in
  grid_.build(store_.position.data(), store_.size, std::max(radius, Real(1e-3)), store_.radius.data(),
              store_.layer.data(), store_.sense_mask.data());
  grid_.for_each_within(p, radius, [&](const Neighbor& n) {
    if (n.agent != exclude && (mask & n.layer)) out.push_back(n.agent);
  });
}

}  // namespace contextsteer
