// Context behaviours: the abstract base and the built-in behaviours.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "bind_parameters.hpp"
#include "contextsteer/behaviors/anticipate.hpp"
#include "contextsteer/behaviors/arrive_leave.hpp"
#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/behaviors/flee.hpp"
#include "contextsteer/behaviors/flocking.hpp"
#include "contextsteer/behaviors/follow_field.hpp"
#include "contextsteer/behaviors/follow_path.hpp"
#include "contextsteer/behaviors/forward.hpp"
#include "contextsteer/behaviors/pursue_evade.hpp"
#include "contextsteer/behaviors/racing_lane_maps.hpp"
#include "contextsteer/behaviors/racing_lanes.hpp"
#include "contextsteer/behaviors/rays.hpp"
#include "contextsteer/behaviors/time_to_collision.hpp"
#include "contextsteer/behaviors/wander.hpp"

namespace contextsteer::bindings {

namespace {

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

// RacingLanes lane maps as decide() gives them for each car among the others in a grid.
void lane_maps_by_grid(const RacingLanes& r, const RealArray& positions, const RealArray& radius, LaneMapsOut out) {
  const int n = static_cast<int>(positions.shape(0)), lanes = r.lanes();
  Real max_radius = 0;
  for (int a = 0; a < n; ++a) max_radius = std::max(max_radius, radius.data()[a]);
  SpatialGrid grid;
  grid.build(positions.data(), n, std::max(r.neighbor_radius(), Real(1e-3)), radius.data());
  SceneView scene;
  scene.agents = n;
  scene.positions = positions.data();
  scene.radius = radius.data();
  scene.max_radius = max_radius;
  scene.grid = &grid;
  for (int a = 0; a < n; ++a) {
    const std::size_t row = static_cast<std::size_t>(a) * lanes;
    const LaneDecision d = r.decide(scene, a, out.interest + row, out.danger + row, out.final_map + row);
    out.lateral[a] = d.lateral;
    store(out.target, a, d.target);
    out.strength[a] = d.strength;
    out.blocked[a] = d.blocked;
  }
}

}  // namespace

void bind_behaviors(py::module_& m) {
  py::class_<Behavior, std::shared_ptr<Behavior>>(m, "Behavior")
      .def_property_readonly("weight", &Behavior::weight)
      .def_property_readonly("fills_interest", &Behavior::fills_interest)
      .def_property_readonly("fills_danger", &Behavior::fills_danger);

  bind_behavior<Chase>(m, "Chase")
      .def(py::init([](const RealArray& targets, bool agent_target, ChaseParams p) {
             p.agent_target = agent_target;
             return std::make_shared<Chase>(points_from(targets, "targets"), p);
           }),
           py::arg("targets"), py::arg("agent_target"), py::arg("params"))
      .def_property(
          "targets", [](const Chase& c) { return points_to_array(c.targets()); },
          [](Chase& c, const RealArray& targets) { c.set_targets(points_from(targets, "targets")); });
  bind_behavior<Avoid>(m, "Avoid")
      .def(py::init([](const RealArray& circles, const AvoidParams& p) {
             return std::make_shared<Avoid>(circles_from(circles, "circles"), p);
           }),
           py::arg("circles"), py::arg("params"))
      .def_property_readonly("circles", [](const Avoid& a) { return circles_to_array(a.circles()); });

  bind_behavior<Flee>(m, "Flee").def(py::init([](const RealArray& threats, bool agent_target, FleeParams p) {
                                       p.agent_target = agent_target;
                                       return std::make_shared<Flee>(points_from(threats, "threats"), p);
                                     }),
                                     py::arg("threats"), py::arg("agent_target"), py::arg("params"));
  bind_behavior<Forward>(m, "Forward").def(py::init<const ForwardParams&>(), py::arg("params"));
  bind_behavior<Pursue>(m, "Pursue").def(py::init<const PursueParams&>(), py::arg("params"));
  bind_behavior<Evade>(m, "Evade").def(py::init<const EvadeParams&>(), py::arg("params"));
  bind_behavior<Arrive>(m, "Arrive")
      .def(py::init([](const RealArray& targets, bool agent_target, ArriveParams p) {
             p.agent_target = agent_target;
             return std::make_shared<Arrive>(points_from(targets, "targets"), p);
           }),
           py::arg("targets"), py::arg("agent_target"), py::arg("params"));
  bind_behavior<Leave>(m, "Leave")
      .def(py::init([](const RealArray& threats, bool agent_target, LeaveParams p) {
             p.agent_target = agent_target;
             return std::make_shared<Leave>(points_from(threats, "threats"), p);
           }),
           py::arg("threats"), py::arg("agent_target"), py::arg("params"));
  bind_behavior<Separation>(m, "Separation").def(py::init<const SeparationParams&>(), py::arg("params"));
  bind_behavior<Alignment>(m, "Alignment").def(py::init<const AlignmentParams&>(), py::arg("params"));
  bind_behavior<Cohesion>(m, "Cohesion").def(py::init<const CohesionParams&>(), py::arg("params"));
  bind_behavior<Wander>(m, "Wander")
      .def(py::init<const WanderParams&>(), py::arg("params"))
      .def("offset", &Wander::offset, py::arg("id"), py::arg("time"));
  bind_behavior<FollowField>(m, "FollowField")
      .def(py::init([](const std::vector<std::shared_ptr<NavigationField>>& fields, bool per_group,
                       const FollowFieldParams& p) {
             return std::make_shared<FollowField>(
                 std::vector<std::shared_ptr<const NavigationField>>(fields.begin(), fields.end()), per_group, p);
           }),
           py::arg("fields"), py::arg("per_group"), py::arg("params"))
      .def_property_readonly("per_group", &FollowField::per_group)
      .def_property_readonly("fields", [](const FollowField& f) {
        std::vector<std::shared_ptr<NavigationField>> out;
        for (const auto& field : f.fields()) out.push_back(std::const_pointer_cast<NavigationField>(field));
        return out;
      });
  bind_behavior<FollowPath>(m, "FollowPath")
      .def(py::init([](const RealArray& waypoints, const FollowPathParams& p) {
             return std::make_shared<FollowPath>(points_from(waypoints, "waypoints"), p);
           }),
           py::arg("waypoints"), py::arg("params"))
      .def_property_readonly("waypoints", [](const FollowPath& f) { return points_to_array(f.waypoints()); })
      .def_property_readonly("length", &FollowPath::length)
      .def(
          "progress",
          [](const FollowPath& f, const RealArray& point, Real last) {
            if (point.ndim() != 1 || point.shape(0) != 2) throw py::value_error("point: expected shape (2,)");
            return f.progress({point.at(0), point.at(1)}, last);
          },
          py::arg("point"), py::arg("last"));
  bind_behavior<Rays>(m, "Rays").def(py::init<const RaysParams&>(), py::arg("params"));
  py::class_<Track, std::shared_ptr<Track>>(m, "Track")
      .def(py::init([](const RealArray& centreline, Real half_width, const RealArray& racing_line, bool closed) {
             if (racing_line.ndim() != 1) throw py::value_error("racing_line: expected a 1-D array");
             return std::make_shared<Track>(
                 points_from(centreline, "centreline"), half_width,
                 std::vector<Real>(racing_line.data(), racing_line.data() + racing_line.size()), closed);
           }),
           py::arg("centreline"), py::arg("half_width"), py::arg("racing_line"), py::arg("closed"))
      .def_property_readonly("length", &Track::length)
      .def_property_readonly("half_width", &Track::half_width)
      .def_property_readonly("closed", &Track::closed)
      .def(
          "locate",
          [](const Track& t, const RealArray& points) {
            require_shape(points, "points", {-1, 2});
            py::array_t<Real> out({points.shape(0), py::ssize_t(2)});
            for (py::ssize_t i = 0; i < points.shape(0); ++i) {
              t.locate(load(points.data(), i), out.mutable_data()[2 * i], out.mutable_data()[2 * i + 1]);
            }
            return out;
          },
          py::arg("points"))
      .def(
          "point_at",
          [](const Track& t, Real s, Real e) {
            const Vec2 p = t.point_at(s, e);
            return py::make_tuple(p.x, p.y);
          },
          py::arg("s"), py::arg("lateral"));
  bind_behavior<RacingLanes>(m, "RacingLanes")
      .def(py::init<std::shared_ptr<Track>, const RacingLanesParams&>(), py::arg("track"), py::arg("params"))
      .def(
          "lane_maps",
          [](const RacingLanes& r, const RealArray& positions, const RealArray& radius, bool by_grid) {
            // The lane maps and decisions of cars at `positions` on their own (no world needed);
            // by_grid: as decide() over a grid of them finds them (the reference, in the tests).
            require_shape(positions, "positions", {-1, 2});
            const py::ssize_t n = positions.shape(0), lanes = r.lanes();
            require_shape(radius, "radius", {n});
            py::array_t<Real> interest({n, lanes}), danger({n, lanes}), final_map({n, lanes}), lateral(n),
                target({n, py::ssize_t(2)});
            py::array_t<Real> strength(n);
            py::array_t<bool> blocked(n);
            const LaneMapsOut out{interest.mutable_data(),
                                  danger.mutable_data(),
                                  final_map.mutable_data(),
                                  lateral.mutable_data(),
                                  target.mutable_data(),
                                  strength.mutable_data(),
                                  reinterpret_cast<std::uint8_t*>(blocked.mutable_data())};
            if (by_grid) {
              lane_maps_by_grid(r, positions, radius, out);
            } else {
              py::gil_scoped_release release;  // Safe: inputs held by this frame, outputs not yet visible.
              racing_lane_maps(r, positions.data(), radius.data(), static_cast<int>(n), out);
            }
            py::dict result;
            result["interest"] = interest, result["danger"] = danger, result["final"] = final_map;
            result["lateral"] = lateral, result["target"] = target, result["strength"] = strength;
            result["blocked"] = blocked;
            return result;
          },
          py::arg("positions"), py::arg("radius"), py::arg("by_grid") = false);
  bind_behavior<TimeToCollision>(m, "TimeToCollision").def(py::init<const TimeToCollisionParams&>(), py::arg("params"));
  bind_behavior<Anticipate>(m, "Anticipate").def(py::init<const AnticipateParams&>(), py::arg("params"));
}

}  // namespace contextsteer::bindings
