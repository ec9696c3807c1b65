// The world: agents, obstacles and the step, with zero-copy views of its state.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "contextsteer/world.hpp"

namespace contextsteer::bindings {

namespace {

int add_agents_py(World& w, const RealArray& positions, std::optional<RealArray> velocities,
                  const RealArray& max_speed, const RealArray& max_acceleration, const RealArray& radius) {
  require_shape(positions, "positions", {-1, 2});
  const py::ssize_t n = positions.shape(0);
  if (velocities) require_shape(*velocities, "velocities", {n, 2});
  require_shape(max_speed, "max_speed", {n});
  require_shape(max_acceleration, "max_acceleration", {n});
  require_shape(radius, "radius", {n});
  AgentSpawn spawn{positions.data(), velocities ? velocities->data() : nullptr, max_speed.data(),
                   max_acceleration.data(), radius.data()};
  return w.add_agents(static_cast<int>(n), spawn);
}

py::ssize_t agents(const World& w) { return static_cast<py::ssize_t>(w.agent_count()); }
py::ssize_t slots(const World& w) { return static_cast<py::ssize_t>(w.slots()); }

}  // namespace

void bind_world(py::module_& m) {
  py::class_<World>(m, "World")
      .def(py::init<std::shared_ptr<const Pipeline>>(), py::arg("pipeline"))
      .def("add_agents", &add_agents_py, py::arg("positions"), py::arg("velocities"), py::arg("max_speed"),
           py::arg("max_acceleration"), py::arg("radius"))
      .def("set_obstacles", [](World& w, const RealArray& circles) { w.set_obstacles(circles_from(circles, "obstacles")); },
           py::arg("obstacles"))
      // Safe to release: the world's buffers are only reached through this World, which
      // the Python caller keeps alive for the duration of the call.
      .def("step", &World::step, py::arg("dt"), py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("agent_count", &World::agent_count)
      .def_property_readonly("slots", &World::slots)
      .def_property_readonly("steps_taken", &World::steps_taken)
      .def_property_readonly("time", &World::time)
      .def_property_readonly("obstacles",
                             [](const World& w) {
                               py::array_t<Real> out({static_cast<py::ssize_t>(w.obstacles().size()), py::ssize_t(3)});
                               Real* d = out.mutable_data();
                               for (const Circle& c : w.obstacles()) {
                                 *d++ = c.centre.x;
                                 *d++ = c.centre.y;
                                 *d++ = c.radius;
                               }
                               return out;
                             })
      .def_property_readonly("positions", [](const World& w) { return shared_view(w.positions(), {agents(w), 2}, true); })
      .def_property_readonly("velocities", [](const World& w) { return shared_view(w.velocities(), {agents(w), 2}, true); })
      .def_property_readonly("max_speed", [](const World& w) { return shared_view(w.max_speed(), {agents(w)}, true); })
      .def_property_readonly("max_acceleration",
                             [](const World& w) { return shared_view(w.max_acceleration(), {agents(w)}, true); })
      .def_property_readonly("radius", [](const World& w) { return shared_view(w.radius(), {agents(w)}, true); })
      .def_property_readonly("interest", [](const World& w) { return shared_view(w.interest(), {agents(w), slots(w)}, false); })
      .def_property_readonly("danger", [](const World& w) { return shared_view(w.danger(), {agents(w), slots(w)}, false); })
      .def_property_readonly("final", [](const World& w) { return shared_view(w.final_map(), {agents(w), slots(w)}, false); })
      .def_property_readonly("direction", [](const World& w) { return shared_view(w.direction(), {agents(w), 2}, false); })
      .def_property_readonly("strength", [](const World& w) { return shared_view(w.strength(), {agents(w)}, false); })
      .def_property_readonly("slot", [](const World& w) { return shared_view(w.slot(), {agents(w)}, false); })
      .def_property_readonly("blocked", [](const World& w) {
        return shared_view(w.blocked(), {agents(w)}, false, py::dtype("bool"));
      });
}

}  // namespace contextsteer::bindings
