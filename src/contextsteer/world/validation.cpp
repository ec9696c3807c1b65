// The world's checks: of a time step, of per-agent values (on every thread, branch-free,
// as every step checks the whole state) and of target ids.
#include "contextsteer/world/validation.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/kernels/dispatch.hpp"
#include "contextsteer/world/world.hpp"

namespace contextsteer {

namespace {

// True when v lies outside [lowest, highest] and is not `also` (a second value allowed:
// +inf where limits may be infinite, else `highest` again); NaN fails every comparison.
inline bool outside(Real v, Real lowest, Real highest, Real also) {
  return !(v >= lowest && (v <= highest || v == also));
}

// True when some value of values[0..count) is outside (as above): the vector kernel
// (kernels/wide/any_outside.inl) where there is one, else this loop, its reference.
bool any_outside(const Real* values, std::size_t count, Real lowest, Real highest, Real also) {
  if (const KernelTable* kernels = vector_kernels()) return kernels->any_outside(values, count, lowest, highest, also);
  bool any = false;
  for (std::size_t i = 0; i < count; ++i) any |= outside(values[i], lowest, highest, also);
  return any;
}

// Throws std::invalid_argument or std::out_of_range as `check` does, with `note` added
// to the message.
template <class Check>
void with_note(const char* note, Check check) {
  try {
    check();
  } catch (const std::out_of_range& e) {
    throw std::out_of_range(e.what() + std::string(note));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(e.what() + std::string(note));
  }
}

// Runs check(first, count) over ranges of kRange agents on every thread of `pool`; only
// a failure pays for a pass over all n in agent order, which throws for the first bad
// agent whatever the number of threads.
template <class Check>
void check_in_ranges(ThreadPool& pool, std::size_t n, Check check) {
  constexpr std::size_t kRange = 8192;
  const int ranges = static_cast<int>((n + kRange - 1) / kRange);
  std::atomic<bool> failed{false};
  auto body = [&](int r, int) {
    const std::size_t first = static_cast<std::size_t>(r) * kRange;
    try {
      check(first, std::min(kRange, n - first));
    } catch (const std::exception&) {  // a bad value, or a removed target id
      failed.store(true, std::memory_order_relaxed);
    }
  };
  pool.run(ranges, body);
  if (failed.load()) check(0, n);
}

}  // namespace

void check_time_step(Real dt) {
  if (!(dt >= kMinTimeStep && dt <= kMaxMagnitude)) {
    throw std::invalid_argument("dt: expected a time step from 1e-6 to 1e9 seconds, got " + format_real(dt));
  }
}

void check_step_arguments(Real dt, int substeps) {
  check_time_step(dt);
  if (substeps < 1) throw std::invalid_argument("substeps: expected an integer >= 1, got " + std::to_string(substeps));
  if (dt / static_cast<Real>(substeps) < kMinTimeStep) {
    throw std::invalid_argument("substeps: expected substeps of at least 1e-6 seconds, got " +
                                std::to_string(substeps) + " of a " + format_real(dt) + " s step");
  }
}

void check_values(const Real* values, std::size_t count, int width, const char* argument, Real lowest, bool allow_inf,
                  const char* expected, std::size_t first_agent) {
  check_values(values, count, width, argument, lowest, kMaxMagnitude, allow_inf, expected, first_agent);
}

void check_values(const Real* values, std::size_t count, int width, const char* argument, Real lowest, Real highest,
                  bool allow_inf, const char* expected, std::size_t first_agent) {
  const Real also = allow_inf ? kInfinity : highest;
  if (!any_outside(values, count, lowest, highest, also)) return;
  for (std::size_t i = 0; i < count; ++i) {
    const Real v = values[i];
    if (outside(v, lowest, highest, also)) {
      throw std::invalid_argument(std::string(argument) + ": expected values " + expected + ", got " + format_real(v) +
                                  " for agent " + std::to_string(first_agent + i / width));
    }
  }
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

void World::check_target_id(std::int64_t target, std::size_t agent, std::int64_t ids_end) const {
  if (target == -1) return;
  const std::string unknown = unknown_id(target, ids_end);
  if (!unknown.empty()) {
    throw std::out_of_range("target_ids: expected -1 or the id of an agent in the world, got " +
                            std::to_string(target) + " for agent " + std::to_string(agent) + ": " + unknown);
  }
}

void World::check_column(const Real* values, std::size_t agents, int width, ValueCheck what, const char* name,
                         std::size_t first_agent, std::int64_t) const {
  if (what == ValueCheck::none || what == ValueCheck::layer_bits || what == ValueCheck::agent_id) return;
  const ValueRange range = value_range(what);
  check_values(values, agents * width, width, name, range.lowest, range.allow_inf, range.expected, first_agent);
}

void World::check_column(const std::int64_t* values, std::size_t agents, int, ValueCheck what, const char*,
                         std::size_t first_agent, std::int64_t ids_end) const {
  if (what != ValueCheck::agent_id) return;
  // Most agents target no agent: the call (which looks the id up) is left for the others.
  for (std::size_t i = 0; i < agents; ++i) {
    if (values[i] != -1) check_target_id(values[i], first_agent + i, ids_end);
  }
}

void World::check_column(const std::int32_t* values, std::size_t agents, int, ValueCheck what, const char* name,
                         std::size_t first_agent, std::int64_t) const {
  if (what != ValueCheck::group) return;
  for (std::size_t i = 0; i < agents; ++i) {
    if (values[i] < 0 || values[i] > kMaxGroup) {
      throw std::invalid_argument(std::string(name) + ": expected values from 0 to " + std::to_string(kMaxGroup) +
                                  ", got " + std::to_string(values[i]) + " for agent " +
                                  std::to_string(first_agent + i));
    }
  }
}

void World::check_agents(std::size_t first, std::size_t count) const {
#define CONTEXTSTEER_CHECK(name, type, width, fill, what, ...) \
  check_column(store_.name.data() + first * width, count, width, ValueCheck::what, #name, first, next_id_);
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_CHECK, CONTEXTSTEER_CHECK, CONTEXTSTEER_SKIP_COLUMN, CONTEXTSTEER_SKIP_COLUMN)
#undef CONTEXTSTEER_CHECK
}

void World::check_state() const {
  // Users may write into the state views between steps.
  check_in_ranges(*pool_, static_cast<std::size_t>(store_.size),
                  [this](std::size_t first, std::size_t count) { check_agents(first, count); });
}

void World::check_state_written_during(const char* note) const {
  const bool foreign = std::any_of(controllers_.begin(), controllers_.end(),
                                   [](const Controller& c) { return c.steering.runs_foreign_code; });
  if (foreign) with_note(note, [this] { check_state(); });
}

void World::check_moved_state() const {
  const char* note =
      " (a value written during the step by another thread; the agents moved and the step counts as taken, "
      "but penetration and overlap were not measured)";
  const char* expected = "from -1e20 to 1e20 after the agents moved";
  const Real bound = kMaxMovedMagnitude;
  with_note(note, [&] {
    check_in_ranges(*pool_, static_cast<std::size_t>(store_.size), [&](std::size_t first, std::size_t count) {
      check_values(store_.positions.data() + 2 * first, 2 * count, 2, "positions", -bound, bound, false, expected,
                   first);
      check_values(store_.velocities.data() + 2 * first, 2 * count, 2, "velocities", -bound, bound, false, expected,
                   first);
      check_values(store_.heading.data() + first, count, 1, "heading", -bound, bound, false, expected, first);
      check_values(store_.angular_velocity.data() + first, count, 1, "angular_velocity", -bound, bound, false, expected,
                   first);
    });
  });
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

}  // namespace contextsteer
