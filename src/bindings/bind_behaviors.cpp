// Context behaviours: the abstract base and the built-in behaviours.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/chase.hpp"

namespace contextsteer::bindings {

namespace {

std::vector<Vec2> points_from(const RealArray& a, const char* argument) {
  require_shape(a, argument, {-1, 2});
  std::vector<Vec2> points(a.shape(0));
  for (std::size_t i = 0; i < points.size(); ++i) points[i] = load(a.data(), i);
  return points;
}

py::array_t<Real> points_to_array(const std::vector<Vec2>& points) {
  py::array_t<Real> out({static_cast<py::ssize_t>(points.size()), py::ssize_t(2)});
  for (std::size_t i = 0; i < points.size(); ++i) store(out.mutable_data(), i, points[i]);
  return out;
}

py::array_t<Real> circles_to_array(const std::vector<Circle>& circles) {
  py::array_t<Real> out({static_cast<py::ssize_t>(circles.size()), py::ssize_t(3)});
  Real* d = out.mutable_data();
  for (std::size_t i = 0; i < circles.size(); ++i) {
    d[3 * i] = circles[i].centre.x;
    d[3 * i + 1] = circles[i].centre.y;
    d[3 * i + 2] = circles[i].radius;
  }
  return out;
}

}  // namespace

void bind_behaviors(py::module_& m) {
  py::class_<Behavior, std::shared_ptr<Behavior>>(m, "Behavior")
      .def_property_readonly("weight", &Behavior::weight)
      .def_property_readonly("fills_interest", &Behavior::fills_interest)
      .def_property_readonly("fills_danger", &Behavior::fills_danger);

  py::class_<Chase, Behavior, std::shared_ptr<Chase>>(m, "Chase")
      .def(py::init([](const RealArray& targets, bool agent_target, Real max_distance, const std::string& falloff,
                       const std::string& combine, Real weight) {
             ChaseParams p;
             p.max_distance = max_distance;
             p.falloff = parse_falloff(falloff, "falloff");
             p.combine = parse_target_combine(combine, "combine");
             p.agent_target = agent_target;
             p.weight = weight;
             return std::make_shared<Chase>(points_from(targets, "targets"), p);
           }),
           py::arg("targets"), py::arg("agent_target"), py::arg("max_distance"), py::arg("falloff"),
           py::arg("combine"), py::arg("weight"))
      .def_property(
          "targets", [](const Chase& c) { return points_to_array(c.targets()); },
          [](Chase& c, const RealArray& targets) { c.set_targets(points_from(targets, "targets")); })
      .def_property_readonly("max_distance", [](const Chase& c) { return c.params().max_distance; });

  py::class_<Avoid, Behavior, std::shared_ptr<Avoid>>(m, "Avoid")
      .def(py::init([](const RealArray& circles, Real max_distance, const std::string& falloff, bool world_obstacles,
                       bool agents, Real weight) {
             AvoidParams p;
             p.max_distance = max_distance;
             p.falloff = parse_falloff(falloff, "falloff");
             p.world_obstacles = world_obstacles;
             p.agents = agents;
             p.weight = weight;
             return std::make_shared<Avoid>(circles_from(circles, "circles"), p);
           }),
           py::arg("circles"), py::arg("max_distance"), py::arg("falloff"), py::arg("world_obstacles"), py::arg("agents"),
           py::arg("weight"))
      .def_property_readonly("agents", [](const Avoid& a) { return a.params().agents; })
      .def_property_readonly("circles", [](const Avoid& a) { return circles_to_array(a.circles()); })
      .def_property_readonly("max_distance", [](const Avoid& a) { return a.params().max_distance; })
      .def_property_readonly("world_obstacles", [](const Avoid& a) { return a.params().world_obstacles; });
}

}  // namespace contextsteer::bindings
