// Behaviours written in Python. The core calls prepare() once per step, on one thread:
// this takes the GIL, hands the batch to the Python callable and keeps the rows it
// wrote in the evaluation's cache (the world's, so that one behaviour may serve worlds
// stepping at once in several threads); fill() then copies them in the parallel
// blocks, with no Python involved. Values the behaviour keeps per agent (its part of
// the world's memory) are handed over and written back in prepare() too.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "arrays.hpp"
#include "bind_parameters.hpp"
#include "contextsteer/base/format_real.hpp"
#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/scene/evaluation_cache.hpp"

namespace contextsteer::bindings {

namespace {

struct PythonBehaviorParams {
  Real neighbor_radius = 0;  // metres within which it asks for neighbors
  Real weight = 1;

  static constexpr auto fields() {
    return std::make_tuple(
        field("neighbor_radius", &PythonBehaviorParams::neighbor_radius, "m",
              "within which it will ask batch.neighbors, so that the world's grid covers it", at_least(0)),
        weight_field<PythonBehaviorParams>());
  }
};

// What it fills and how many values it keeps per agent are fixed when it is built: the
// pipeline and the world's memory are laid out by them.
class PythonBehavior : public BehaviorWith<PythonBehaviorParams, Behavior> {
 public:
  // Most values a Python behaviour may keep per agent.
  static constexpr int kMaxMemory = 256;

  PythonBehavior(py::object callback, bool fills_interest, bool fills_danger, int memory_width,
                 const PythonBehaviorParams& params)
      : BehaviorWith(params),
        callback_(std::move(callback)),
        fills_interest_(fills_interest),
        fills_danger_(fills_danger),
        memory_width_(memory_width) {
    if (memory_width < 0 || memory_width > kMaxMemory) {
      throw py::value_error("memory: expected from 0 to " + std::to_string(kMaxMemory) + " values per agent, got " +
                            std::to_string(memory_width));
    }
  }

  ~PythonBehavior() override {
    py::gil_scoped_acquire gil;  // the callback may be released from a thread without the GIL
    callback_ = py::object();
  }

  bool fills_interest() const override { return fills_interest_; }
  bool fills_danger() const override { return fills_danger_; }
  Real neighbor_radius() const override { return params_.neighbor_radius; }
  int memory_width() const override { return memory_width_; }

  void prepare(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs) const override {
    const int slots = dirs.slots();
    if (!scene.cache) throw std::logic_error("PythonBehavior: the scene has no evaluation cache to keep its rows in");
    py::gil_scoped_acquire gil;
    const py::ssize_t n = count;
    py::array_t<Real> positions({n, py::ssize_t(2)}), velocities({n, py::ssize_t(2)}), targets({n, py::ssize_t(2)});
    py::array_t<Real> headings(n), radius(n);
    py::array_t<std::int64_t> ids(n);
    for (int k = 0; k < count; ++k) {
      const int a = agents[k];
      store(positions.mutable_data(), k, scene.position(a));
      store(velocities.mutable_data(), k, scene.velocity(a));
      store(targets.mutable_data(), k, scene.target_of(a));
      headings.mutable_data()[k] = scene.heading(a);
      radius.mutable_data()[k] = scene.radius_of(a);
      ids.mutable_data()[k] = scene.id_of(a);
    }
    py::array_t<Real> directions({static_cast<py::ssize_t>(slots), py::ssize_t(2)});
    for (int i = 0; i < slots; ++i) store(directions.mutable_data(), i, dirs[i]);
    // Each agent's kept values (NaN where none were kept, and outside a world), for the
    // callback to read and write in place.
    py::object memory = py::none();
    if (memory_width_ > 0) {
      py::array_t<Real> kept({n, static_cast<py::ssize_t>(memory_width_)});
      for (int k = 0; k < count; ++k) {
        const Real* from = scene.memory_of(agents[k]);
        Real* to = kept.mutable_data() + static_cast<std::size_t>(k) * memory_width_;
        if (from) {
          std::copy_n(from, memory_width_, to);
        } else {
          std::fill_n(to, memory_width_, std::numeric_limits<Real>::quiet_NaN());
        }
      }
      memory = kept;
    }

    // Neighbor queries are answered only while the callback runs: the scene they read
    // is valid only then.
    auto alive = std::make_shared<bool>(true);
    const SceneView* view = &scene;
    std::vector<int> members(agents, agents + count);
    py::cpp_function neighbors([alive, view, members](Real radius) {
      if (!*alive) throw py::value_error("neighbors: only available while the behaviour fills its maps");
      if (!(radius >= 0) || std::isinf(radius)) throw py::value_error("radius: expected a finite distance >= 0");
      if (!view->grid) throw py::value_error("neighbors: this evaluation has no neighbor grid");
      std::vector<std::int64_t> offsets{0}, found_ids;
      std::vector<Real> found_xy, found_v;
      for (int a : members) {
        const LayerMask senses = view->senses(a);
        view->grid->for_each_within(view->position(a), radius, [&](const Neighbor& nb) {
          if (nb.agent == a || !(senses & nb.layer)) return;
          found_ids.push_back(view->id_of(nb.agent));
          found_xy.push_back(nb.position.x), found_xy.push_back(nb.position.y);
          const Vec2 v = view->velocity(nb.agent);
          found_v.push_back(v.x), found_v.push_back(v.y);
        });
        offsets.push_back(static_cast<std::int64_t>(found_ids.size()));
      }
      const py::ssize_t k = static_cast<py::ssize_t>(found_ids.size());
      py::array_t<Real> xy({k, py::ssize_t(2)}, found_xy.data()), vel({k, py::ssize_t(2)}, found_v.data());
      return py::make_tuple(py::array_t<std::int64_t>(offsets.size(), offsets.data()),
                            py::array_t<std::int64_t>(k, found_ids.data()), xy, vel);
    });

    py::dict batch;
    batch["positions"] = positions;
    batch["velocities"] = velocities;
    batch["headings"] = headings;
    batch["radius"] = radius;
    batch["targets"] = targets;
    batch["ids"] = ids;
    batch["slot_directions"] = directions;
    batch["time"] = scene.time;
    batch["neighbors"] = neighbors;
    batch["memory"] = memory;
    py::object interest =
        fills_interest_ ? py::object(py::array_t<Real>({n, static_cast<py::ssize_t>(slots)})) : py::none();
    py::object danger =
        fills_danger_ ? py::object(py::array_t<Real>({n, static_cast<py::ssize_t>(slots)})) : py::none();
    for (py::object* out : {&interest, &danger}) {
      if (!out->is_none()) out->cast<py::array_t<Real>>().attr("fill")(0.0);
    }
    try {
      callback_(batch, interest, danger);
    } catch (...) {
      *alive = false;
      throw;
    }
    *alive = false;
    // Each agent's rows at its index in the scene: interest in the first (agents, slots)
    // block, danger in the second; keyed by the slot directions, one pipeline's own.
    const std::size_t block = static_cast<std::size_t>(scene.agents) * slots;
    Real* rows = scene.cache->store(this, &dirs, 2 * block);
    keep(interest, agents, count, slots, rows, "interest");
    keep(danger, agents, count, slots, rows + block, "danger");
    if (!memory.is_none() && scene.memory_out) keep_memory(memory.cast<py::array_t<Real>>(), scene, agents, count);
  }

  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override {
    const int slots = dirs.slots();
    const Real* rows = scene.cache ? scene.cache->find(this, &dirs) : nullptr;
    if (!rows) throw std::logic_error("PythonBehavior: fill() without prepare() in this evaluation");
    const std::size_t block = static_cast<std::size_t>(scene.agents) * slots;
    for (int k = 0; k < count; ++k) {
      const std::size_t from = static_cast<std::size_t>(agents[k]) * slots;
      const std::size_t to = static_cast<std::size_t>(k) * slots;
      if (interest) std::copy_n(rows + from, slots, interest + to);
      if (danger) std::copy_n(rows + block + from, slots, danger + to);
    }
  }

 private:
  // Copies a map the callback wrote (row k for agents[k]) to the agents' rows, refusing
  // values beyond the core's bound (NaN and inf among them), as for any input.
  static void keep(const py::object& out, const int* agents, int count, int slots, Real* rows, const char* kind) {
    if (out.is_none()) return;
    const auto a = out.cast<py::array_t<Real>>();
    for (int k = 0; k < count; ++k) {
      const Real* from = a.data() + static_cast<std::size_t>(k) * slots;
      for (int i = 0; i < slots; ++i) {
        if (!(std::fabs(from[i]) <= kMaxMagnitude)) {
          throw py::value_error(std::string(kind) + ": a Python behaviour wrote a value that is not finite " +
                                "within -1e9 to 1e9, " + format_real(from[i]) + " at row " + std::to_string(k) +
                                ", slot " + std::to_string(i));
        }
      }
      std::copy_n(from, slots, rows + static_cast<std::size_t>(agents[k]) * slots);
    }
  }

  // Writes the kept values back to the world's memory, refusing values beyond the core's
  // bound other than NaN (which stands for "nothing kept").
  void keep_memory(const py::array_t<Real>& kept, const SceneView& scene, const int* agents, int count) const {
    for (int k = 0; k < count; ++k) {
      const Real* from = kept.data() + static_cast<std::size_t>(k) * memory_width_;
      for (int j = 0; j < memory_width_; ++j) {
        if (!std::isnan(from[j]) && !within_bound(from[j])) {
          throw py::value_error("memory: a Python behaviour kept a value that is neither NaN nor within -1e9 to 1e9, " +
                                format_real(from[j]) + " at row " + std::to_string(k) + ", value " + std::to_string(j));
        }
      }
    }
    for (int k = 0; k < count; ++k) {
      std::copy_n(kept.data() + static_cast<std::size_t>(k) * memory_width_, memory_width_,
                  scene.memory_out_of(agents[k]));
    }
  }

  py::object callback_;
  bool fills_interest_, fills_danger_;
  int memory_width_;
};

}  // namespace

void bind_python_behavior(py::module_& m) {
  bind_behavior<PythonBehavior>(m, "PythonBehavior")
      .def(py::init<py::object, bool, bool, int, const PythonBehaviorParams&>(), py::arg("callback"),
           py::arg("fills_interest"), py::arg("fills_danger"), py::arg("memory_width"), py::arg("params"));
}

}  // namespace contextsteer::bindings
