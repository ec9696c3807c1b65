// A behaviour's parameters, described once beside the struct that holds them.
//
// Each behaviour keeps its parameters in a struct with defaults (as Box2D's b2BodyDef),
// e.g. ArriveParams, and lists its fields in a static `fields()`: name, member, unit, one
// line of doc and the values accepted. From that one list come the checks the
// constructor and every later change run (each error names the field), the Python
// bindings (each field bound by name) and the Python classes' signatures, defaults and
// checks. Enumerations name their values in a Names<E> specialisation.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/base/real.hpp"

namespace contextsteer {

// The values a numeric parameter accepts: from `low` to `high` (an end excluded when
// open), never NaN, within the core's bound of 1e9 unless `infinite` lets +inf through.
struct Accepts {
  Real low = -kMaxMagnitude;
  bool low_open = false;
  Real high = kMaxMagnitude;
  bool high_open = false;
  bool infinite = false;  // +inf accepted too (a distance without limit)
  bool absent = false;    // NaN accepted: the parameter is left unset (None in Python)
};
constexpr Accepts kAnyBoundedValue{};
constexpr Accepts above(Real low) { return {low, true, kMaxMagnitude, false, false}; }
constexpr Accepts at_least(Real low) { return {low, false, kMaxMagnitude, false, false}; }
constexpr Accepts from_to(Real low, Real high) { return {low, false, high, false, false}; }
constexpr Accepts from_below(Real low, Real high) { return {low, false, high, true, false}; }
constexpr Accepts above_or_infinite(Real low) { return {low, true, kMaxMagnitude, false, true}; }
constexpr Accepts above_or_absent(Real low) { return {low, true, kMaxMagnitude, false, false, true}; }
// For whole numbers (counts): from low to high, both included.
constexpr Accepts count_from_to(int low, int high) { return from_to(Real(low), Real(high)); }
// The share of a lobe's peak left at right angles (add_lobe).
constexpr Accepts kSidewaysBounds = from_below(0, 1);

// Names<E>::values: the (name, value) pairs of an enumeration a parameter takes, in the
// order its error message lists them.
template <class E>
struct Names;

template <class E>
struct NamedValue {
  const char* name;
  E value;
};

template <class E>
E value_named(const std::string& name, const char* argument) {
  for (const auto& v : Names<E>::values) {
    if (name == v.name) return v.value;
  }
  std::string expected;
  for (const auto& v : Names<E>::values) expected += (expected.empty() ? "'" : ", '") + std::string(v.name) + "'";
  throw std::invalid_argument(std::string(argument) + ": expected one of " + expected + ", got '" + name + "'");
}

template <class E>
const char* name_of(E value) {
  for (const auto& v : Names<E>::values) {
    if (v.value == value) return v.name;
  }
  return "?";
}

// One field of a parameter struct P. unit: "m", "s", "m/s", "rad", "Hz", "" (none).
template <class P, class T>
struct Field {
  const char* name;
  T P::* member;
  const char* unit;
  const char* doc;
  Accepts bounds;  // for numbers; ignored for flags and names
};

template <class P, class T>
constexpr Field<P, T> field(const char* name, T P::* member, const char* unit, const char* doc,
                            Accepts bounds = kAnyBoundedValue) {
  return {name, member, unit, doc, bounds};
}

// The weight every behaviour has: the factor the pipeline's combine rule applies to its maps.
template <class P>
constexpr Field<P, Real> weight_field() {
  return field("weight", &P::weight, "", "factor the pipeline's combine rule applies to this behaviour's maps");
}

// The sideways share of a behaviour that adds lobes (add_lobe): with w > 0 a lobe gives
// max(0, w + (1 - w) dot(u, d_i)) instead of max(0, dot(u, d_i)).
template <class P>
constexpr Field<P, Real> sideways_field() {
  return field("sideways", &P::sideways, "", "the lobe's share of its peak at right angles, in [0, 1)",
               kSidewaysBounds);
}

// Throws std::invalid_argument naming the field, what it takes and the value that came,
// e.g. "radius: expected a distance > 0 and at most 1e9 in metres, got 0".
void check_number(const char* name, Real value, const Accepts& bounds, const char* unit);
// The same for a whole number counted in `unit`, e.g. "lanes: expected from 1 to 256 lanes, got 0".
void check_count(const char* name, long long value, const Accepts& bounds, const char* unit);

template <class P>
void check_fields(const P& params) {
  std::apply(
      [&](const auto&... f) {
        auto check = [&](const auto& one) {
          using T = std::decay_t<decltype(params.*(one.member))>;
          if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
            if constexpr (std::is_same_v<T, std::uint64_t>)
              return;  // seeds: every value
            else if constexpr (std::is_integral_v<T>)
              check_count(one.name, static_cast<long long>(params.*(one.member)), one.bounds, one.unit);
            else
              check_number(one.name, static_cast<Real>(params.*(one.member)), one.bounds, one.unit);
          }
        };
        (check(f), ...);
      },
      P::fields());
}

class ParameterGuard;

// The guards a thread reads now, the first kMost of them (a step holds a few, one per
// pipeline and behaviour): ParameterGuard tells by them whether a change that meets a
// reader came from inside the reading call, on its own thread.
struct GuardsReadHere {
  static constexpr int kMost = 64;
  const ParameterGuard* guards[kMost];
  int count = 0;
};

// Parameters that worlds read while they step and Python may change between steps.
// Any number of readers (steps, evaluations) at once; a change waits for none of them:
// it throws the busy std::runtime_error while one reads. A reader that meets a change
// under way waits for it, which takes as long as copying the struct.
class ParameterGuard {
 public:
  void begin_reading() const {
    int seen = state_.load(std::memory_order_relaxed);
    for (;;) {
      if (seen < 0) {
        seen = state_.load(std::memory_order_relaxed);
        continue;
      }
      if (state_.compare_exchange_weak(seen, seen + 1, std::memory_order_acquire)) break;
    }
    if (read_here_.count < GuardsReadHere::kMost) read_here_.guards[read_here_.count] = this;
    ++read_here_.count;
  }
  // On the thread that began the reading.
  void end_reading() const {
    const int held = std::min(read_here_.count, static_cast<int>(GuardsReadHere::kMost));
    int k = held - 1;
    while (k >= 0 && read_here_.guards[k] != this) --k;
    if (k >= 0) std::copy(read_here_.guards + k + 1, read_here_.guards + held, read_here_.guards + k);
    --read_here_.count;
    state_.fetch_sub(1, std::memory_order_release);
  }

  // Runs `change` (which must not throw) while no reader reads; throws the busy error
  // naming `what` while one does: a read on this very thread (the change came from
  // inside a step, from a behaviour's Python code) or on another.
  template <class Change>
  void write(const char* what, Change&& change) {
    int idle = 0;
    if (!state_.compare_exchange_strong(idle, -1, std::memory_order_acquire)) {
      if (read_on_this_thread()) {
        throw std::runtime_error(std::string(what) +
                                 ": in use by the world's step() or run() (or an evaluation) this call came from, on "
                                 "the same thread (from a behaviour's Python code): set it once that returns");
      }
      throw std::runtime_error(std::string(what) +
                               ": in use by a world's step() or run() (or an evaluation) in another thread; "
                               "set it again once that returns");
    }
    change();
    state_.store(0, std::memory_order_release);
  }

 private:
  bool read_on_this_thread() const {
    for (int k = 0; k < std::min(read_here_.count, static_cast<int>(GuardsReadHere::kMost)); ++k)
      if (read_here_.guards[k] == this) return true;
    return false;
  }

  mutable std::atomic<int> state_{0};                    // readers, or -1 while a change is written
  static inline thread_local GuardsReadHere read_here_;  // this thread's
};

}  // namespace contextsteer
