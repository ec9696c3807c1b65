// The world: agents, steerings, obstacles, stepping and recording, with zero-copy views
// of its per-agent arrays.
#include <pybind11/stl.h>

#include <set>
#include <string>
#include <type_traits>
#include <utility>

#include "arrays.hpp"
#include "bind_parameters.hpp"
#include "contextsteer/world/world.hpp"

namespace contextsteer::bindings {

namespace {

// Whether a behaviour of `pipeline` is written in Python: it then runs while the world
// steps, and may write the world's state through the views.
bool runs_python(const Pipeline& pipeline) {
  const py::object python_behavior = py::module_::import("contextsteer._core").attr("PythonBehavior");
  for (const auto& behavior : pipeline.behaviors()) {
    if (py::isinstance(py::cast(std::const_pointer_cast<Behavior>(behavior)), python_behavior)) return true;
  }
  return false;
}

Steering steering_from(const py::object& obj) {
  if (py::isinstance<Pipeline>(obj)) {
    auto pipeline = obj.cast<std::shared_ptr<Pipeline>>();
    const bool python = runs_python(*pipeline);
    return {std::move(pipeline), nullptr, python};
  }
  if (py::isinstance<ClassicSteering>(obj)) return {nullptr, obj.cast<std::shared_ptr<ClassicSteering>>()};
  throw py::type_error("steering: expected a context Pipeline or a classic steering, got " +
                       std::string(py::str(py::type::of(obj).attr("__name__"))));
}

py::object steering_to(const Steering& s) {
  if (s.pipeline) return py::cast(std::const_pointer_cast<Pipeline>(s.pipeline));
  return py::cast(std::const_pointer_cast<ClassicSteering>(s.classic));
}

// The Python dtype of a column's values: its C++ type's, but bool for flags (uint8).
template <class T>
py::dtype dtype_of() {
  return std::is_same_v<T, std::uint8_t> ? py::dtype("bool") : py::dtype::of<T>();
}

// Shape (n, width), or (n,) for width 1.
std::vector<py::ssize_t> column_shape(py::ssize_t n, int width) {
  if (width == 1) return {n};
  return {n, static_cast<py::ssize_t>(width)};
}

// A spawned column's values from `columns`, by its name: null when absent or None, else
// an (n, width) or (n,) array of the column's type, held in `held` for the call.
template <class T>
const T* spawn_values(const py::dict& columns, const char* name, py::ssize_t n, int width,
                      std::vector<py::object>& held) {
  if (!columns.contains(name) || columns[name].is_none()) return nullptr;
  auto a = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(columns[name]);
  if (!a || a.ndim() != static_cast<py::ssize_t>(column_shape(n, width).size()) || a.shape(0) != n ||
      (width != 1 && a.shape(1) != width)) {
    throw py::value_error(std::string(name) + ": array has the wrong shape");
  }
  held.push_back(a);
  return a.data();
}

// add_agents(columns, steering): columns maps the names of spawned columns to arrays
// (positions required); the others take their fill.
std::int64_t add_agents_py(World& w, const py::dict& columns, int steering) {
  std::set<std::string> unknown;
  for (const auto& item : columns) unknown.insert(item.first.cast<std::string>());
  if (!columns.contains("positions")) throw py::value_error("positions: required");
  const RealArray positions = columns["positions"].cast<RealArray>();
  require_shape(positions, "positions", {-1, 2});
  const py::ssize_t n = positions.shape(0);
  std::vector<py::object> held;
  AgentSpawn spawn;
#define CONTEXTSTEER_SPAWN(name, type, width, ...)                 \
  spawn.name = spawn_values<type>(columns, #name, n, width, held); \
  unknown.erase(#name);
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_SPAWN, CONTEXTSTEER_SPAWN, CONTEXTSTEER_SKIP_COLUMN, CONTEXTSTEER_SKIP_COLUMN)
#undef CONTEXTSTEER_SPAWN
  if (!unknown.empty()) throw py::value_error("columns: no agent is spawned with a column " + *unknown.begin());
  return w.add_agents(static_cast<int>(n), spawn, steering);
}

// A recording array from `record`, by the column's record name: null when absent, else
// (steps, agents, width) values, or (steps, agents) when width is 1.
template <class T>
T* record_target(const py::dict& record, const char* name, py::ssize_t steps, py::ssize_t agents, py::ssize_t width) {
  if (!name || !record.contains(name)) return nullptr;
  using Stored = std::conditional_t<std::is_same_v<T, std::uint8_t>, bool, T>;
  auto a = py::array_t<Stored, py::array::c_style>::ensure(record[name]);
  const bool ok = a && a.dtype().is(dtype_of<T>()) &&
                  (width == 1 ? (a.ndim() == 2 && a.shape(0) == steps && a.shape(1) == agents)
                              : (a.ndim() == 3 && a.shape(0) == steps && a.shape(1) == agents && a.shape(2) == width));
  if (!ok || !a.writeable() || a.ptr() != record[name].ptr()) {
    throw py::value_error(std::string(name) + ": recording array has the wrong shape");
  }
  return reinterpret_cast<T*>(a.mutable_data());
}

using RecTime = std::optional<py::array_t<double, py::array::c_style>>;
using RecIds = std::optional<py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>>;

// Events as Python sees them: a dict of equal-length arrays step, time, agent, kind (the
// kinds by name), other and depth.
py::dict events_to_python(const std::vector<StepEvent>& events) {
  const py::ssize_t n = static_cast<py::ssize_t>(events.size());
  py::array_t<std::int64_t> step(n), agent(n), other(n);
  py::array_t<double> time(n), depth(n);
  py::list kind;
  for (py::ssize_t i = 0; i < n; ++i) {
    step.mutable_data()[i] = events[i].step;
    time.mutable_data()[i] = events[i].time;
    agent.mutable_data()[i] = events[i].agent;
    kind.append(name_of(events[i].kind));
    other.mutable_data()[i] = events[i].other;
    depth.mutable_data()[i] = events[i].depth;
  }
  py::dict d;
  d["step"] = step;
  d["time"] = time;
  d["agent"] = agent;
  d["kind"] = kind;
  d["other"] = other;
  d["depth"] = depth;
  return d;
}

// run(steps, dt, substeps, record, time, ids): record maps record names (agent_columns.hpp)
// to arrays to fill, one row per agent of `ids` (every agent when None); returns the
// events of the steps taken.
py::dict run_py(World& w, int steps, Real dt, int substeps, const py::dict& record, RecTime time, RecIds ids) {
  const py::ssize_t n = ids ? ids->size() : w.agent_count();
  std::set<std::string> unknown;
  for (const auto& item : record) unknown.insert(item.first.cast<std::string>());
  RecordTargets r;
  const AgentStore& store = w.agents();
#define CONTEXTSTEER_RECORD(name, type, declared_width, fill, check, scene, record_name, ...) \
  r.name = record_target<type>(record, record_name, steps, n, store.name.width);              \
  if (const char* recorded = record_name) unknown.erase(recorded);
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_RECORD, CONTEXTSTEER_RECORD, CONTEXTSTEER_RECORD, CONTEXTSTEER_RECORD)
#undef CONTEXTSTEER_RECORD
  const py::ssize_t bodies = std::as_const(w).moving().count();
  r.moving_positions = record_target<Real>(record, "moving_positions", steps, bodies, 2);
  r.moving_angles = record_target<Real>(record, "moving_angles", steps, bodies, 1);
  unknown.erase("moving_positions");
  unknown.erase("moving_angles");
  if (!unknown.empty()) throw py::value_error("record: no column is recorded as " + *unknown.begin());
  if (time) {
    if (time->ndim() != 1 || time->shape(0) != steps)
      throw py::value_error("time: recording array has the wrong shape");
    r.time = time->mutable_data();
  }
  // Safe: the recording arrays are held by this frame and the world by the caller; the
  // world's own buffers are not resized during a run (a call from another thread that
  // would resize them throws: World's BusyFlag).
  if (ids) {
    r.row_ids = ids->data();
    r.rows = static_cast<int>(n);
  }
  std::vector<StepEvent> events;
  {
    py::gil_scoped_release release;
    w.run(steps, dt, substeps, r, &events);
  }
  return events_to_python(events);
}

// A row of agent_columns.hpp for Python: world.py builds its views and the checks of
// add_agents from these.
template <class T>
py::dict describe_column(const char* name, const char* kind, int width, T fill, ValueCheck check, const char* record,
                         const char* doc) {
  py::dict d;
  d["name"] = name;
  d["kind"] = kind;
  d["dtype"] = dtype_of<T>();
  d["width"] = width == kSlotsWide ? py::object(py::str("slots")) : py::object(py::int_(width));
  d["default"] = std::is_same_v<T, std::uint8_t> ? py::object(py::bool_(fill != 0)) : py::object(py::cast(fill));
  d["writable"] = std::string(kind) == "state" || std::string(kind) == "parameter";
  py::object minimum = py::none(), maximum = py::none();
  bool allow_inf = false;
  if (check == ValueCheck::agent_id) {
    minimum = py::int_(-1);
  } else if (check == ValueCheck::layer_bits) {
    minimum = py::int_(0), maximum = py::int_(kAllLayers);
  } else if (check == ValueCheck::group) {
    minimum = py::int_(0), maximum = py::int_(kMaxGroup);
  } else if (check != ValueCheck::none) {
    const ValueRange range = value_range(check);
    allow_inf = range.allow_inf;
    minimum = py::float_(check == ValueCheck::coordinate ? -kInfinity : range.lowest);
  }
  d["minimum"] = minimum;
  d["maximum"] = maximum;
  d["allow_inf"] = allow_inf;
  d["record"] = record ? py::object(py::str(record)) : py::none();
  d["doc"] = doc;
  return d;
}

py::tuple agent_columns() {
  py::list rows;
#define CONTEXTSTEER_DESCRIBE(kind)                                                                        \
  [&rows](const char* name, auto fill, int width, ValueCheck check, const char* record, const char* doc) { \
    rows.append(describe_column(name, kind, width, fill, check, record, doc));                             \
  }
  auto state = CONTEXTSTEER_DESCRIBE("state");
  auto parameter = CONTEXTSTEER_DESCRIBE("parameter");
  auto identity = CONTEXTSTEER_DESCRIBE("identity");
  auto result = CONTEXTSTEER_DESCRIBE("result");
#undef CONTEXTSTEER_DESCRIBE
#define CONTEXTSTEER_STATE_ROW(name, type, width, fill, check, scene, record, doc) \
  state(#name, type(fill), width, ValueCheck::check, record, doc);
#define CONTEXTSTEER_PARAMETER_ROW(name, type, width, fill, check, scene, record, doc) \
  parameter(#name, type(fill), width, ValueCheck::check, record, doc);
#define CONTEXTSTEER_IDENTITY_ROW(name, type, width, fill, check, scene, record, doc) \
  identity(#name, type(fill), width, ValueCheck::check, record, doc);
#define CONTEXTSTEER_RESULT_ROW(name, type, width, fill, check, scene, record, doc) \
  result(#name, type(fill), width, ValueCheck::check, record, doc);
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_STATE_ROW, CONTEXTSTEER_PARAMETER_ROW, CONTEXTSTEER_IDENTITY_ROW,
                             CONTEXTSTEER_RESULT_ROW)
#undef CONTEXTSTEER_RESULT_ROW
#undef CONTEXTSTEER_IDENTITY_ROW
#undef CONTEXTSTEER_PARAMETER_ROW
#undef CONTEXTSTEER_STATE_ROW
  return py::tuple(rows);
}

py::array_t<int> neighbors_py(World& w, const RealArray& point, Real radius, std::uint32_t mask, int exclude) {
  require_shape(point, "point", {2});
  std::vector<int> found;
  w.neighbors(load(point.data(), 0), radius, mask, exclude, found);
  return array_of(found);
}

// Registers a property for a column of the agent store: a view of its values.
template <class T>
void view_property(py::class_<World>& cls, const char* name, Column<T> AgentStore::* column, bool writable) {
  cls.def_property_readonly(name, [column, writable](World& w) {
    const Column<T>& c = w.agents().*column;
    return shared_view(c.buffer, column_shape(w.agent_count(), c.width), writable, dtype_of<T>());
  });
}

py::array_t<Real> circles_array(const Obstacles& o) {
  py::array_t<Real> out({static_cast<py::ssize_t>(o.circles().size()), py::ssize_t(3)});
  Real* d = out.mutable_data();
  for (const Circle& c : o.circles()) *d++ = c.centre.x, *d++ = c.centre.y, *d++ = c.radius;
  return out;
}

py::array_t<Real> segments_array(const std::vector<Segment>& segments) {
  py::array_t<Real> out({static_cast<py::ssize_t>(segments.size()), py::ssize_t(4)});
  Real* d = out.mutable_data();
  for (const Segment& s : segments) *d++ = s.a.x, *d++ = s.a.y, *d++ = s.b.x, *d++ = s.b.y;
  return out;
}

// A world's state as Python values, for pickling (World::state): a format number, the
// agent count, each column's bytes, index_of_id, next_id, steps, time and keep_maps.
constexpr int kStateFormat = 1;

py::tuple saved_state(World& w) {
  World::State saved = w.state("pickle");  // the busy error while another thread steps it
  py::list columns;
  for (const auto& bytes : saved.columns) {
    columns.append(py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }
  return py::make_tuple(kStateFormat, saved.agents, columns, array_of(saved.index_of_id), saved.next_id, saved.steps,
                        saved.time, saved.keep_maps);
}

void restore_state(World& w, const py::tuple& state) {
  if (state.size() != 8 || !py::isinstance<py::int_>(state[0]) || state[0].cast<int>() != kStateFormat) {
    throw std::invalid_argument("state: expected the state of a pickled world, 8 items of format " +
                                std::to_string(kStateFormat) + ", got " + std::to_string(state.size()) + " items");
  }
  World::State saved;
  saved.agents = state[1].cast<int>();
  for (const py::handle column : state[2].cast<py::list>()) {
    const std::string bytes = column.cast<py::bytes>();
    saved.columns.emplace_back(bytes.begin(), bytes.end());
  }
  const auto rows = state[3].cast<py::array_t<int, py::array::c_style | py::array::forcecast>>();
  saved.index_of_id.assign(rows.data(), rows.data() + rows.size());
  saved.next_id = state[4].cast<std::int64_t>();
  saved.steps = state[5].cast<long long>();
  saved.time = state[6].cast<double>();
  saved.keep_maps = state[7].cast<bool>();
  w.restore(std::move(saved));
}

}  // namespace

void bind_world(py::module_& m) {
  bind_params<GoalParams>(m, "GoalParams");
  py::list goal_fields;
  std::apply([&](const auto&... f) { (goal_fields.append(parameters::describe(f)), ...); }, GoalParams::fields());
  m.attr("GOAL_FIELDS") = goal_fields;
  bind_params<ContactParams>(m, "ContactParams");
  py::list contact_fields;
  std::apply([&](const auto&... f) { (contact_fields.append(parameters::describe(f)), ...); }, ContactParams::fields());
  m.attr("CONTACT_FIELDS") = contact_fields;
  py::class_<World> cls(m, "World");
  cls.def(py::init([](const py::object& steering) { return std::make_unique<World>(steering_from(steering)); }),
          py::arg("steering"))
      .def(
          "add_steering", [](World& w, const py::object& s) { return w.add_steering(steering_from(s)); },
          py::arg("steering"))
      .def(
          "set_steering", [](World& w, int i, const py::object& s) { w.set_steering(i, steering_from(s)); },
          py::arg("index"), py::arg("steering"))
      .def(
          "steering", [](const World& w, int i) { return steering_to(w.steering(i)); }, py::arg("index"))
      .def_property_readonly("steering_count", &World::steering_count)
      .def("add_agents", &add_agents_py, py::arg("columns"), py::arg("steering"))
      .def(
          "remove_agents",
          [](World& w, const IdArray& ids) { w.remove_agents(ids.data(), static_cast<int>(ids.size())); },
          py::arg("ids"))
      .def(
          "index_of",
          [](const World& w, const IdArray& ids) {
            py::array_t<std::int64_t> out(ids.size());
            for (py::ssize_t i = 0; i < ids.size(); ++i) out.mutable_data()[i] = w.index_of(ids.data()[i]);
            return out;
          },
          py::arg("ids"))
      .def("reset", &World::reset)
      .def("copy", &World::copy)
      .def("saved_state", &saved_state)
      .def("restore_state", &restore_state, py::arg("state"))
      .def_property_readonly("obstacle_layers",
                             [](const World& w) {
                               const Obstacles& o = w.obstacles();
                               return py::make_tuple(array_of(o.circle_layers()), array_of(o.segment_layers()),
                                                     array_of(o.polygon_layers()));
                             })
      .def_property("threads", &World::threads, &World::set_threads)
      .def_property("keep_maps", &World::keep_maps, &World::set_keep_maps)
      // Safe to release: the caller keeps the world alive, and a call from another thread
      // that would change it meanwhile throws (World's BusyFlag).
      .def("step", &World::step, py::arg("dt"), py::arg("substeps"), py::call_guard<py::gil_scoped_release>())
      .def("run", &run_py, py::arg("steps"), py::arg("dt"), py::arg("substeps"), py::arg("record"),
           py::arg("time") = py::none(), py::arg("ids") = py::none())
      .def_property(
          "goals", [](const World& w) { return w.goals(); }, [](World& w, const GoalParams& p) { w.set_goals(p); })
      .def_property_readonly("events", [](const World& w) { return events_to_python(w.events()); })
      .def_property(
          "contact",
          [](const World& w) -> std::optional<ContactParams> {
            if (const ContactParams* p = w.contact()) return *p;
            return std::nullopt;
          },
          [](World& w, const std::optional<ContactParams>& p) { w.set_contact(p ? &*p : nullptr); })
      .def_property_readonly("contact_correction",
                             [](const World& w) {
                               const ContactReport& r = w.contact_report();
                               py::dict d;
                               d["total"] = r.total;
                               d["max"] = r.max;
                               d["agents"] = r.agents;
                               d["passes"] = r.passes;
                               return d;
                             })
      .def(
          "explain",
          [](World& w, int index) {
            const Pipeline::Explanation e = w.explain(index);
            py::list maps;
            for (std::size_t k = 0; k < e.behavior_maps.size(); ++k) {
              maps.append(py::make_tuple(e.behavior_index[k], e.is_danger[k] ? "danger" : "interest",
                                         py::array_t<Real>(e.behavior_maps[k].size(), e.behavior_maps[k].data())));
            }
            py::dict d;
            d["behaviors"] = maps;
            d["interest"] = py::array_t<Real>(e.interest.size(), e.interest.data());
            d["danger"] = py::array_t<Real>(e.danger.size(), e.danger.data());
            d["final"] = py::array_t<Real>(e.final_map.size(), e.final_map.data());
            d["direction"] = py::make_tuple(e.decision.direction.x, e.decision.direction.y);
            d["strength"] = e.decision.strength;
            d["slot"] = e.decision.slot;
            d["blocked"] = e.decision.blocked;
            return d;
          },
          py::arg("index"))
      .def(
          "explain_classic",
          [](World& w, int index, Real dt) {
            const ClassicSteering::Explanation e = w.explain_classic(index, dt);
            py::list behaviors;
            for (const SteeringOutput& o : e.behaviors) {
              behaviors.append(py::make_tuple(py::make_tuple(o.linear.x, o.linear.y), o.angular));
            }
            py::dict d;
            d["behaviors"] = behaviors;
            d["linear"] = py::make_tuple(e.combined.linear.x, e.combined.linear.y);
            d["angular"] = e.combined.angular;
            d["level"] = e.level;
            return d;
          },
          py::arg("index"), py::arg("dt"))
      .def("neighbors", &neighbors_py, py::arg("point"), py::arg("radius"), py::arg("mask"), py::arg("exclude"))
      .def_property_readonly("agent_count", &World::agent_count)
      .def_property_readonly("slots", &World::slots)
      .def_property_readonly("steps_taken", &World::steps_taken)
      .def_property_readonly("time", &World::time)
      .def_property_readonly("stage_times",
                             [](const World& w) {
                               const StageTimes& t = w.stage_times();
                               py::dict d;
                               d["check"] = t.check;
                               d["index"] = t.index;
                               d["evaluate"] = t.evaluate;
                               d["integrate"] = t.integrate;
                               d["contact"] = t.contact;
                               d["measure"] = t.measure;
                               d["progress"] = t.progress;
                               return d;
                             })
      // Obstacles.
      .def(
          "add_circles",
          [](World& w, const RealArray& circles, std::uint32_t layer) {
            w.obstacles().add_circles(circles_from(circles, "circles"), layer);
          },
          py::arg("circles"), py::arg("layer"))
      .def(
          "add_segments",
          [](World& w, const RealArray& segments, std::uint32_t layer) {
            w.obstacles().add_segments(segments_from(segments, "segments"), layer);
          },
          py::arg("segments"), py::arg("layer"))
      .def(
          "add_polygon",
          [](World& w, const RealArray& vertices, std::uint32_t layer) {
            require_shape(vertices, "vertices", {-1, 2});
            std::vector<Vec2> v(vertices.shape(0));
            for (std::size_t i = 0; i < v.size(); ++i) v[i] = load(vertices.data(), i);
            w.obstacles().add_polygon(v, layer);
          },
          py::arg("vertices"), py::arg("layer"))
      .def(
          "set_bounds",
          [](World& w, const RealArray& b) {
            require_shape(b, "bounds", {4});
            w.obstacles().set_bounds({{b.data()[0], b.data()[1]}, {b.data()[2], b.data()[3]}});
          },
          py::arg("bounds"))
      .def("clear_bounds", [](World& w) { w.obstacles().clear_bounds(); })
      .def("clear_obstacles", [](World& w) { w.obstacles().clear(); })
      .def_property_readonly("circles", [](const World& w) { return circles_array(w.obstacles()); })
      .def_property_readonly("segments", [](const World& w) { return segments_array(w.obstacles().free_segments()); })
      .def_property_readonly("polygons",
                             [](const World& w) {
                               const Obstacles& o = w.obstacles();
                               py::list out;
                               for (int k = 0; k < o.polygon_count(); ++k) {
                                 const int begin = o.polygon_start(k), end = o.polygon_start(k + 1);
                                 py::array_t<Real> p({static_cast<py::ssize_t>(end - begin), py::ssize_t(2)});
                                 for (int i = begin; i < end; ++i)
                                   store(p.mutable_data(), i - begin, o.polygon_vertices()[i]);
                                 out.append(p);
                               }
                               return out;
                             })
      .def_property_readonly("bounds", [](const World& w) -> py::object {
        if (!w.obstacles().has_bounds()) return py::none();
        const Bounds& b = w.obstacles().bounds();
        return py::make_tuple(b.min.x, b.min.y, b.max.x, b.max.y);
      });

  // Per-agent arrays, one per row of agent_columns.hpp: writable state and parameters,
  // read-only identity and results.
#define CONTEXTSTEER_WRITABLE_VIEW(name, ...) view_property(cls, #name, &AgentStore::name, true);
#define CONTEXTSTEER_READ_ONLY_VIEW(name, ...) view_property(cls, #name, &AgentStore::name, false);
  CONTEXTSTEER_AGENT_COLUMNS(CONTEXTSTEER_WRITABLE_VIEW, CONTEXTSTEER_WRITABLE_VIEW, CONTEXTSTEER_READ_ONLY_VIEW,
                             CONTEXTSTEER_READ_ONLY_VIEW)
#undef CONTEXTSTEER_READ_ONLY_VIEW
#undef CONTEXTSTEER_WRITABLE_VIEW
  m.attr("AGENT_COLUMNS") = agent_columns();
}

}  // namespace contextsteer::bindings
