// The world: agents, steerings, obstacles, stepping and recording, with zero-copy views
// of its per-agent arrays.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "contextsteer/world/world.hpp"

namespace contextsteer::bindings {

namespace {

Steering steering_from(const py::object& obj) {
  if (py::isinstance<Pipeline>(obj)) return {obj.cast<std::shared_ptr<Pipeline>>(), nullptr};
  if (py::isinstance<ClassicSteering>(obj)) return {nullptr, obj.cast<std::shared_ptr<ClassicSteering>>()};
  throw py::type_error("steering: expected a context Pipeline or a classic steering, got " +
                       std::string(py::str(py::type::of(obj).attr("__name__"))));
}

py::object steering_to(const Steering& s) {
  if (s.pipeline) return py::cast(std::const_pointer_cast<Pipeline>(s.pipeline));
  return py::cast(std::const_pointer_cast<ClassicSteering>(s.classic));
}

// An optional (n, width) or (n,) input; null when absent.
template <class Array>
const typename Array::value_type* optional_data(const std::optional<Array>& a, const char* argument, py::ssize_t n,
                                                int width) {
  if (!a) return nullptr;
  if (width == 1) {
    if (a->ndim() != 1 || a->shape(0) != n)
      throw py::value_error(std::string(argument) + ": array has the wrong shape");
  } else if (a->ndim() != 2 || a->shape(0) != n || a->shape(1) != width) {
    throw py::value_error(std::string(argument) + ": array has the wrong shape");
  }
  return a->data();
}

using OptReal = std::optional<RealArray>;
using OptId = std::optional<IdArray>;
using OptMask = std::optional<MaskArray>;

std::int64_t add_agents_py(World& w, const RealArray& positions, OptReal velocities, OptReal headings,
                           OptReal angular_velocities, OptReal radius, OptReal max_speed, OptReal max_acceleration,
                           OptReal max_turn_rate, OptReal mass, OptReal max_force, OptReal targets, OptId target_ids,
                           OptMask layers, OptMask sense_masks, int steering) {
  require_shape(positions, "positions", {-1, 2});
  const py::ssize_t n = positions.shape(0);
  AgentSpawn s;
  s.positions = positions.data();
  s.velocities = optional_data(velocities, "velocities", n, 2);
  s.headings = optional_data(headings, "heading", n, 1);
  s.angular_velocities = optional_data(angular_velocities, "angular_velocity", n, 1);
  s.radius = optional_data(radius, "radius", n, 1);
  s.max_speed = optional_data(max_speed, "max_speed", n, 1);
  s.max_acceleration = optional_data(max_acceleration, "max_acceleration", n, 1);
  s.max_turn_rate = optional_data(max_turn_rate, "max_turn_rate", n, 1);
  s.mass = optional_data(mass, "mass", n, 1);
  s.max_force = optional_data(max_force, "max_force", n, 1);
  s.targets = optional_data(targets, "targets", n, 2);
  s.target_ids = optional_data(target_ids, "target_ids", n, 1);
  s.layers = optional_data(layers, "layers", n, 1);
  s.sense_masks = optional_data(sense_masks, "sense_masks", n, 1);
  return w.add_agents(static_cast<int>(n), s, steering);
}

// Checks a recording array: (steps, agents, width), or (steps, agents) when width is 1.
template <class T>
T* record_target(std::optional<py::array_t<T, py::array::c_style>>& a, const char* name, py::ssize_t steps,
                 py::ssize_t agents, py::ssize_t width) {
  if (!a) return nullptr;
  const bool ok = width == 1
                      ? (a->ndim() == 2 && a->shape(0) == steps && a->shape(1) == agents)
                      : (a->ndim() == 3 && a->shape(0) == steps && a->shape(1) == agents && a->shape(2) == width);
  if (!ok || !a->writeable()) throw py::value_error(std::string(name) + ": recording array has the wrong shape");
  return a->mutable_data();
}

using RecReal = std::optional<py::array_t<Real, py::array::c_style>>;
using RecByte = std::optional<py::array_t<bool, py::array::c_style>>;
using RecTime = std::optional<py::array_t<double, py::array::c_style>>;

void run_py(World& w, int steps, Real dt, int substeps, RecReal positions, RecReal velocities, RecReal headings,
            RecReal interest, RecReal danger, RecReal final_map, RecReal direction, RecReal strength, RecReal slot,
            RecByte blocked, RecReal penetration, RecReal overlap, RecTime time) {
  const py::ssize_t n = w.agent_count();
  const py::ssize_t s = w.slots();
  RecordTargets r;
  r.positions = record_target(positions, "positions", steps, n, 2);
  r.velocities = record_target(velocities, "velocities", steps, n, 2);
  r.headings = record_target(headings, "headings", steps, n, 1);
  r.interest = record_target(interest, "interest", steps, n, s);
  r.danger = record_target(danger, "danger", steps, n, s);
  r.final_map = record_target(final_map, "final", steps, n, s);
  r.direction = record_target(direction, "direction", steps, n, 2);
  r.strength = record_target(strength, "strength", steps, n, 1);
  r.slot = record_target(slot, "slot", steps, n, 1);
  r.blocked = reinterpret_cast<std::uint8_t*>(record_target(blocked, "blocked", steps, n, 1));
  r.penetration = record_target(penetration, "penetration", steps, n, 1);
  r.overlap = record_target(overlap, "overlap", steps, n, 1);
  if (time) {
    if (time->ndim() != 1 || time->shape(0) != steps)
      throw py::value_error("time: recording array has the wrong shape");
    r.time = time->mutable_data();
  }
  // Safe: the recording arrays are held by this frame and the world by the caller; the
  // world's own buffers are not resized during a run (a call from another thread that
  // would resize them throws: World's BusyFlag).
  py::gil_scoped_release release;
  w.run(steps, dt, substeps, r);
}

py::array_t<int> neighbors_py(World& w, const RealArray& point, Real radius, std::uint32_t mask, int exclude) {
  require_shape(point, "point", {2});
  std::vector<int> found;
  w.neighbors(load(point.data(), 0), radius, mask, exclude, found);
  return array_of(found);
}

template <class T>
py::array column_view(const Column<T>& c, py::ssize_t n, bool writable, py::dtype dtype = py::dtype::of<T>()) {
  if (c.width == 1) return shared_view(c.buffer, {n}, writable, dtype);
  return shared_view(c.buffer, {n, static_cast<py::ssize_t>(c.width)}, writable, dtype);
}

// Registers a property for a column of the agent store.
template <class T>
void view_property(py::class_<World>& cls, const char* name, Column<T> AgentStore::* column, bool writable,
                   const char* dtype = nullptr) {
  cls.def_property_readonly(name, [column, writable, dtype](World& w) {
    const Column<T>& c = w.agents().*column;
    return dtype ? column_view(c, w.agent_count(), writable, py::dtype(dtype))
                 : column_view(c, w.agent_count(), writable);
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

py::tuple saved_state(const World& w) {
  World::State saved = w.state();
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
      .def("add_agents", &add_agents_py, py::arg("positions"), py::arg("velocities"), py::arg("headings"),
           py::arg("angular_velocities"), py::arg("radius"), py::arg("max_speed"), py::arg("max_acceleration"),
           py::arg("max_turn_rate"), py::arg("mass"), py::arg("max_force"), py::arg("targets"), py::arg("target_ids"),
           py::arg("layers"), py::arg("sense_masks"), py::arg("steering"))
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
      .def("run", &run_py, py::arg("steps"), py::arg("dt"), py::arg("substeps"), py::arg("positions") = py::none(),
           py::arg("velocities") = py::none(), py::arg("headings") = py::none(), py::arg("interest") = py::none(),
           py::arg("danger") = py::none(), py::arg("final") = py::none(), py::arg("direction") = py::none(),
           py::arg("strength") = py::none(), py::arg("slot") = py::none(), py::arg("blocked") = py::none(),
           py::arg("penetration") = py::none(), py::arg("overlap") = py::none(), py::arg("time") = py::none())
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
                               d["measure"] = t.measure;
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

  // Per-agent arrays: writable state and parameters, read-only identity, maps, decisions
  // and measurements.
  view_property(cls, "positions", &AgentStore::position, true);
  view_property(cls, "velocities", &AgentStore::velocity, true);
  view_property(cls, "heading", &AgentStore::heading, true);
  view_property(cls, "angular_velocity", &AgentStore::angular_velocity, true);
  view_property(cls, "radius", &AgentStore::radius, true);
  view_property(cls, "max_speed", &AgentStore::max_speed, true);
  view_property(cls, "max_acceleration", &AgentStore::max_acceleration, true);
  view_property(cls, "max_turn_rate", &AgentStore::max_turn_rate, true);
  view_property(cls, "mass", &AgentStore::mass, true);
  view_property(cls, "max_force", &AgentStore::max_force, true);
  view_property(cls, "targets", &AgentStore::target, true);
  view_property(cls, "target_ids", &AgentStore::target_id, true);
  view_property(cls, "layers", &AgentStore::layer, true);
  view_property(cls, "sense_masks", &AgentStore::sense_mask, true);
  view_property(cls, "ids", &AgentStore::id, false);
  view_property(cls, "steering_index", &AgentStore::controller, false);
  view_property(cls, "interest", &AgentStore::interest, false);
  view_property(cls, "danger", &AgentStore::danger, false);
  view_property(cls, "final", &AgentStore::final_map, false);
  view_property(cls, "direction", &AgentStore::direction, false);
  view_property(cls, "strength", &AgentStore::strength, false);
  view_property(cls, "slot", &AgentStore::slot, false);
  view_property(cls, "blocked", &AgentStore::blocked, false, "bool");
  view_property(cls, "penetration", &AgentStore::penetration, false);
  view_property(cls, "overlap", &AgentStore::overlap, false);
}

}  // namespace contextsteer::bindings
