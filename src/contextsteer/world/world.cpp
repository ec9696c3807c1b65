// The world's own business: its steerings, threads, agents added and removed, the scene
// its behaviours see, and the step, as the list of its stages.
#include "contextsteer/world/world.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/maps/shaping.hpp"
#include "contextsteer/world/validation.hpp"

namespace contextsteer {

namespace {

// Wall time between laps, in seconds.
class StageClock {
 public:
  void lap(double& seconds) {
    const auto now = std::chrono::steady_clock::now();
    seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// Points the scene view's member at the column's values; a column behaviours do not see
// has no member (nullptr in agent_columns.hpp).
template <class T>
void show_in_scene(SceneView& view, const T* SceneView::* member, const Column<T>& column) {
  view.*member = column.data();
}
template <class T>
void show_in_scene(SceneView&, std::nullptr_t, const Column<T>&) {}

}  // namespace

World::World(Steering steering) : pool_(std::make_unique<ThreadPool>(1)) { add_steering(std::move(steering)); }

void World::step(Real dt, int substeps) {
  const BusyFlag::Hold hold(busy_, "step");
  step_unguarded(dt, substeps);
}

void World::step_unguarded(Real dt, int substeps) {
  check_step_arguments(dt, substeps);
  obstacles_.prepare_index();  // before the stages share the obstacles between threads
  fit_worker_scratch();        // the obstacles may have been edited since the last step
  // The pipelines refuse parameter changes until the step ends.
  const PipelinesRead reading(controllers_, [](const Controller& c) { return c.steering.pipeline.get(); });
  StageClock clock;
  check_stage(dt);
  clock.lap(stage_times_.check);
  index_stage();  // before the obstacles move: a pile of agents is refused first
  check_pile();
  obstacles_stage(dt);  // timed with the index stage
  clock.lap(stage_times_.index);
  evaluate_stage(dt);  // checks again what foreign code wrote in it
  clock.lap(stage_times_.evaluate);
  contact_start();
  integrate_stage(dt, substeps);
  count_step(dt);
  check_moved_state();  // another thread may have written through the views meanwhile
  clock.lap(stage_times_.integrate);
  start_events();
  contact_stage();
  clock.lap(stage_times_.contact);
  measure_stage();
  clock.lap(stage_times_.measure);
  progress_stage(dt);
  clock.lap(stage_times_.progress);
}

void World::start_events() {
  // Room for an event per agent (an arrival, a face-off settled, a departure), and for
  // ContactProduct::kEventsPerAgent contacts per agent with contact events on: grown only
  // past it.
  const bool contacts = contact_on_ && contact_.events;
  const std::size_t room =
      static_cast<std::size_t>(store_.size) * (1 + (contacts ? ContactProduct::kEventsPerAgent : 0));
  if (events_.capacity() < room) events_.reserve(room);
  events_.clear();
}

void World::set_goals(const GoalParams& params) {
  const BusyFlag::Hold hold(busy_, "goals");
  check_fields(params);
  goals_ = params;
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
      if (store_.steering_index[a] != index) continue;
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
  fit_worker_scratch();
}

void World::fit_worker_scratch() {
  WorkerScratchNeeds needs;
  needs.slots = slots_;
  needs.agents = store_.size;
  needs.circles = obstacles_.circles().size();
  needs.walls = obstacles_.walls().size();
  needs.moving_circles = moving_.shapes().circles().size();
  needs.moving_walls = moving_.shapes().walls().size();
  worker_scratch_.resize(static_cast<std::size_t>(threads()));
  // A block denser than any before grew one worker's neighbor buffers in a step: every
  // worker gets that room, so that none grows later for the same crowd.
  for (const WorkerScratch& w : worker_scratch_) {
    needs.neighbor_entries = std::max(needs.neighbor_entries, w.neighbors.room());
  }
  for (WorkerScratch& w : worker_scratch_) w.reserve(needs);
}

void World::set_threads(int threads) {
  const BusyFlag::Hold hold(busy_, "threads");
  if (threads < 1 || threads > kMaxThreads) {
    throw std::invalid_argument("threads: expected a thread count from 1 to " + std::to_string(kMaxThreads) + ", got " +
                                std::to_string(threads));
  }
  // Every worker's scratch is made here (resize_scratch), so no step allocates for a
  // worker that takes a kind of block for the first time.
  pool_ = std::make_unique<ThreadPool>(threads);
  resize_scratch();
}

void World::rebuild_membership() {
  for (Controller& c : controllers_) c.members.clear();
  for (int a = 0; a < store_.size; ++a) controllers_[store_.steering_index[a]].members.push_back(a);
  tasks_.clear();
  for (int c = 0; c < steering_count(); ++c) {
    const int n = static_cast<int>(controllers_[c].members.size());
    for (int first = 0; first < n; first += Pipeline::kBlockAgents) {
      tasks_.push_back({c, first, std::min(Pipeline::kBlockAgents, n - first)});
    }
  }
  index_.target_index.assign(store_.size, -1);
  evaluated_.classic_linear.assign(2 * static_cast<std::size_t>(store_.size), 0);
  evaluated_.classic_angular.assign(store_.size, 0);
  fit_worker_scratch();
}

std::int64_t World::add_agents(int count, const AgentSpawn& spawn, int steering_index) {
  const BusyFlag::Hold hold(busy_, "add_agents");
  if (count < 0) throw std::invalid_argument("count: expected a number of agents >= 0, got " + std::to_string(count));
  steering(steering_index);  // range check
  if (!spawn.positions && count > 0) throw std::invalid_argument("positions: required");
  const std::size_t n = static_cast<std::size_t>(count);
  const std::int64_t first_id = next_id_;
  // A target id may name an existing agent or one of this batch.
#define CONTEXTSTEER_CHECK_SPAWN(name, type, width, fill, what, ...) \
  if (spawn.name) check_column(spawn.name, n, width, ValueCheck::what, #name, 0, first_id + count);
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_CHECK_SPAWN, CONTEXTSTEER_CHECK_SPAWN, CONTEXTSTEER_SKIP_COLUMN,
                             CONTEXTSTEER_SKIP_COLUMN)
#undef CONTEXTSTEER_CHECK_SPAWN

  const std::size_t first = static_cast<std::size_t>(store_.size);
  store_.grow(count);
  auto copy_in = [&](auto& column, const auto* values) {
    if (values) std::copy_n(values, n * column.width, column.data() + first * column.width);
  };
  // The spawn state (for reset()) is the state the agents start with.
#define CONTEXTSTEER_COPY_STATE(name, ...) \
  copy_in(store_.name, spawn.name), copy_in(store_.spawn_##name, store_.name.data() + first * store_.name.width);
#define CONTEXTSTEER_COPY_PARAMETER(name, ...) copy_in(store_.name, spawn.name);
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_COPY_STATE, CONTEXTSTEER_COPY_PARAMETER, CONTEXTSTEER_SKIP_COLUMN,
                             CONTEXTSTEER_SKIP_COLUMN)
#undef CONTEXTSTEER_COPY_PARAMETER
#undef CONTEXTSTEER_COPY_STATE
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t a = first + i;
    store_.steering_index[a] = steering_index;
    store_.ids[a] = next_id_;
    index_of_id_.push_back(static_cast<int>(a));
    ++next_id_;
  }
  rebuild_membership();
  return first_id;
}

int World::index_of(std::int64_t id) const {
  const std::string unknown = unknown_id(id);
  if (!unknown.empty()) throw std::out_of_range("id: " + unknown);
  return index_of_id_[id];
}

void World::remove_agents(const std::int64_t* ids, int count) {
  const BusyFlag::Hold hold(busy_, "remove_agents");
  std::vector<bool> keep(store_.size, true);
  for (int i = 0; i < count; ++i) keep[index_of(ids[i])] = false;  // throws before anything changes
  for (int a = 0; a < store_.size; ++a) {
    if (!keep[a]) events_.push_back({steps_, time_, store_.ids[a], EventKind::removed});
  }
  remove_rows(keep);
}

void World::remove_rows(const std::vector<bool>& keep) {
  for (int a = 0; a < store_.size; ++a) {
    if (!keep[a]) index_of_id_[store_.ids[a]] = -1;
  }
  store_.compact(keep);
  for (int a = 0; a < store_.size; ++a) index_of_id_[store_.ids[a]] = a;
  rebuild_membership();
}

void World::reset() {
  const BusyFlag::Hold hold(busy_, "reset");
  store_.reset();
  steps_ = 0;
  time_ = 0;
  cache_.forget_kept();
  moving_.reset();
}

std::unique_ptr<KeptState> World::kept_copy(const void* owner) {
  const BusyFlag::Hold hold(busy_, "kept_copy");
  const KeptState* kept = cache_.find_kept(owner);
  return kept ? kept->clone() : nullptr;
}

SceneView World::scene() const {
  SceneView v;
  v.agents = store_.size;
#define CONTEXTSTEER_SCENE(name, type, width, fill, check, scene, ...) show_in_scene(v, scene, store_.name);
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_SCENE, CONTEXTSTEER_SCENE, CONTEXTSTEER_SCENE, CONTEXTSTEER_SCENE)
#undef CONTEXTSTEER_SCENE
  v.target_index = index_.target_index.data();
  v.max_radius = index_.max_radius;
  v.obstacles = &obstacles_;
  v.moving = moving_.empty() ? nullptr : &moving_;
  v.grid = &grid_;
  v.time = time_;
  if (store_.memory.width > 0) {
    v.memory = store_.memory.data();
    v.memory_width = store_.memory.width;
  }
  return v;
}

const Steering& World::steering_to_explain(int index) {
  if (index < 0 || index >= store_.size)
    throw std::out_of_range("agent: expected a row from 0 to " + std::to_string(store_.size - 1) + ", got " +
                            std::to_string(index));
  check_state();  // the state views are writable: a target id written there may name no agent
  index_stage();  // targets and grid from the current state
  return controllers_[store_.steering_index[index]].steering;
}

Pipeline::Explanation World::explain(int index) {
  const BusyFlag::Hold hold(busy_, "explain");
  const PipelinesRead reading(controllers_, [](const Controller& c) { return c.steering.pipeline.get(); });
  const Pipeline* p = steering_to_explain(index).pipeline.get();
  if (!p) throw std::invalid_argument("agent: it is steered classically, so it has no context maps to explain");
  const std::size_t row = static_cast<std::size_t>(index) * slots_;
  const bool has_previous = steps_ > 0;
  // As in a step, every pipeline first tells the others about its agents (publish), in
  // a cache of the explanation's own, holding a copy of what the behaviours keep (the
  // crowd's fields), so that the explanation is what the next step decides.
  SceneView view = scene();
  EvaluationCache cache;
  cache.copy_kept_from(cache_);
  cache.begin(*pool_);
  view.cache = &cache;
  view.workers = worker_scratch_.data();  // the calling thread is worker 0
  view.worker_count = static_cast<int>(worker_scratch_.size());
  for (const Controller& c : controllers_) {
    if (c.steering.pipeline) c.steering.pipeline->publish(view, c.members.data(), static_cast<int>(c.members.size()));
  }
  return p->explain(view, index, has_previous ? store_.interest.data() + row : nullptr,
                    has_previous ? store_.danger.data() + row : nullptr, [this] {
                      check_state_written_during(
                          " (written during explain, by a Python behaviour or another thread; nothing was explained)");
                    });
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
  grid_.build(store_.positions.data(), store_.size, std::max(radius, Real(1e-3)), store_.radius.data(),
              store_.layers.data(), store_.sense_masks.data());
  grid_.for_each_within(p, radius, [&](const Neighbor& n) {
    if (n.agent != exclude && (mask & n.layer)) out.push_back(n.agent);
  });
}

}  // namespace contextsteer
