// The world's moving obstacles: adders, paths, zero-copy views of their poses and
// velocities, where they stand now, the agents' overlap with them, and their saved state.
#include <pybind11/stl.h>

#include <string>

#include "arrays.hpp"
#include "contextsteer/world/world.hpp"

namespace contextsteer::bindings {

namespace {

using Columns = MovingObstacles::Columns;

// A view of one column of the moving obstacles; its base holds the columns' buffer.
py::array moving_view(const World& w, std::vector<Real> Columns::* column, int width) {
  auto* holder = new std::shared_ptr<Columns>(w.moving().columns());
  py::capsule base(holder, [](void* p) { delete static_cast<std::shared_ptr<Columns>*>(p); });
  std::vector<Real>& values = (**holder).*column;
  const auto n = static_cast<py::ssize_t>(values.size() / width);
  std::vector<py::ssize_t> shape = width == 1 ? std::vector<py::ssize_t>{n} : std::vector<py::ssize_t>{n, width};
  return py::array(py::dtype::of<Real>(), shape, {}, values.data(), base);
}

std::vector<Vec2> velocities_from(const RealArray& a) {
  if (a.size() == 0) return {};
  return points_from(a, "velocities");
}

void set_path(World& w, const IdArray& bodies, const RealArray& waypoints, Real speed, bool back_and_forth) {
  // Waypoints (k, 2) for every body, or (bodies, k, 2), one path each.
  const bool each = waypoints.ndim() == 3;
  if (!(waypoints.ndim() == 2 || (each && waypoints.shape(0) == bodies.size())) ||
      waypoints.shape(waypoints.ndim() - 1) != 2) {
    throw py::value_error("waypoints: array has the wrong shape");
  }
  const py::ssize_t k = waypoints.shape(waypoints.ndim() - 2);
  MovingObstacles& moving = w.moving();
  std::vector<ObstaclePath> paths;
  for (py::ssize_t i = 0; i < bodies.size(); ++i) {
    ObstaclePath path;
    const Real* d = waypoints.data() + (each ? i * k * 2 : 0);
    for (py::ssize_t j = 0; j < k; ++j) path.waypoints.push_back({d[2 * j], d[2 * j + 1]});
    path.speed = speed, path.back_and_forth = back_and_forth;
    paths.push_back(std::move(path));
  }
  // All checked before any is set.
  MovingObstacles trial = moving;
  for (py::ssize_t i = 0; i < bodies.size(); ++i) trial.set_path(static_cast<int>(bodies.data()[i]), paths[i]);
  for (py::ssize_t i = 0; i < bodies.size(); ++i) moving.set_path(static_cast<int>(bodies.data()[i]), paths[i]);
}

}  // namespace

void bind_moving_obstacles(py::module_& m) {
  auto cls = py::reinterpret_borrow<py::class_<World>>(m.attr("World"));
  cls.def(
         "add_moving_circles",
         [](World& w, const RealArray& circles, const RealArray& velocities, std::uint32_t layer) {
           return w.moving().add_circles(circles_from(circles, "circles"), velocities_from(velocities), layer);
         },
         py::arg("circles"), py::arg("velocities"), py::arg("layer"))
      .def(
          "add_moving_segments",
          [](World& w, const RealArray& segments, const RealArray& velocities, std::uint32_t layer) {
            return w.moving().add_segments(segments_from(segments, "segments"), velocities_from(velocities), layer);
          },
          py::arg("segments"), py::arg("velocities"), py::arg("layer"))
      .def(
          "add_moving_polygon",
          [](World& w, const RealArray& vertices, Real vx, Real vy, Real angular_velocity, std::uint32_t layer) {
            return w.moving().add_polygon(points_from(vertices, "vertices"), {vx, vy}, angular_velocity, layer);
          },
          py::arg("vertices"), py::arg("vx"), py::arg("vy"), py::arg("angular_velocity"), py::arg("layer"))
      .def("set_obstacle_path", &set_path, py::arg("bodies"), py::arg("waypoints"), py::arg("speed"),
           py::arg("back_and_forth"))
      .def(
          "clear_obstacle_path",
          [](World& w, const IdArray& bodies) {
            MovingObstacles trial = w.moving();  // all checked before any is cleared
            for (py::ssize_t i = 0; i < bodies.size(); ++i) trial.clear_path(static_cast<int>(bodies.data()[i]));
            for (py::ssize_t i = 0; i < bodies.size(); ++i) w.moving().clear_path(static_cast<int>(bodies.data()[i]));
          },
          py::arg("bodies"))
      .def("clear_moving_obstacles", [](World& w) { w.moving().clear(); })
      .def("place_moving_obstacles",
           [](World& w) {
             w.moving().check();
             w.moving().place();
           })
      .def_property_readonly("moving_count", [](const World& w) { return w.moving().count(); })
      .def_property_readonly("moving_positions", [](const World& w) { return moving_view(w, &Columns::position, 2); })
      .def_property_readonly("moving_velocities", [](const World& w) { return moving_view(w, &Columns::velocity, 2); })
      .def_property_readonly("moving_angles", [](const World& w) { return moving_view(w, &Columns::angle, 1); })
      .def_property_readonly("moving_angular_velocities",
                             [](const World& w) { return moving_view(w, &Columns::angular_velocity, 1); })
      .def_property_readonly("moving_kinds",
                             [](const World& w) {
                               std::vector<std::int32_t> kinds;
                               for (int b = 0; b < w.moving().count(); ++b)
                                 kinds.push_back(static_cast<std::int32_t>(w.moving().kind(b)));
                               return array_of(kinds);
                             })
      .def_property_readonly("moving_layers",
                             [](const World& w) {
                               std::vector<std::uint32_t> layers;
                               for (int b = 0; b < w.moving().count(); ++b) layers.push_back(w.moving().layer(b));
                               return array_of(layers);
                             })
      .def(
          "moving_shape", [](const World& w, int body) { return points_to_array(w.moving().local_shape(body)); },
          py::arg("body"))
      .def(
          "moving_path",
          [](const World& w, int body) -> py::object {
            const ObstaclePath* path = w.moving().path(body);
            if (!path) return py::none();
            return py::make_tuple(points_to_array(path->waypoints), path->speed, path->back_and_forth);
          },
          py::arg("body"))
      .def("moving_overlap",
           [](const World& w) {
             const AgentStore& agents = w.agents();
             py::array_t<Real> out(agents.size);
             for (int a = 0; a < agents.size; ++a) {
               out.mutable_data()[a] = w.moving().empty()
                                           ? Real(0)
                                           : w.moving().shapes().penetration(load(agents.positions.data(), a),
                                                                             agents.radius[a], agents.sense_masks[a]);
             }
             return out;
           })
      .def("moving_state",
           [](const World& w) {
             const std::vector<unsigned char> bytes = w.moving().save();
             return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
           })
      .def(
          "load_moving",
          [](World& w, const py::bytes& state) {
            const std::string s = state;
            w.moving().load(std::vector<unsigned char>(s.begin(), s.end()));
          },
          py::arg("state"));
}

}  // namespace contextsteer::bindings
