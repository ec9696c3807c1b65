// Context behaviours: the abstract base and the built-in behaviours.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "bind_parameters.hpp"
#include "contextsteer/behaviors/arrive_leave.hpp"
#include "contextsteer/behaviors/anticipate.hpp"
#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/behaviors/flee.hpp"
#include "contextsteer/behaviors/flocking.hpp"
#include "contextsteer/behaviors/follow_field.hpp"
#include "contextsteer/behaviors/follow_path.hpp"
#include "contextsteer/behaviors/forward.hpp"
#include "contextsteer/behaviors/pursue_evade.hpp"
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

Targets targets_from(const RealArray& points, bool agent_target, const char* argument) {
  return Targets{points_from(points, argument), agent_target};
}

FlockRule parse_flock_rule(const std::string& name) {
  if (name == "separation") return FlockRule::Separation;
  if (name == "alignment") return FlockRule::Alignment;
  if (name == "cohesion") return FlockRule::Cohesion;
  throw std::invalid_argument("rule: expected one of 'separation', 'alignment', 'cohesion', got '" + name + "'");
}

RayMode parse_ray_mode(const std::string& name) {
  if (name == "binary") return RayMode::Binary;
  if (name == "distance") return RayMode::Distance;
  throw std::invalid_argument("mode: expected one of 'binary', 'distance', got '" + name + "'");
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

  py::class_<Flee, Behavior, std::shared_ptr<Flee>>(m, "Flee")
      .def(py::init([](const RealArray& threats, bool agent_target, Real radius, const std::string& falloff,
                       Real sideways, Real weight) {
             return std::make_shared<Flee>(targets_from(threats, agent_target, "threats"), radius,
                                           parse_falloff(falloff, "falloff"), weight, sideways);
           }),
           py::arg("threats"), py::arg("agent_target"), py::arg("radius"), py::arg("falloff"), py::arg("sideways"),
           py::arg("weight"))
      .def_property_readonly("sideways", &Flee::sideways);
  py::class_<Forward, Behavior, std::shared_ptr<Forward>>(m, "Forward")
      .def(py::init<Real, Real>(), py::arg("strength"), py::arg("weight"));
  py::class_<Pursue, Behavior, std::shared_ptr<Pursue>>(m, "Pursue")
      .def(py::init<Real, Real, Real>(), py::arg("max_prediction"), py::arg("weight"), py::arg("sideways"))
      .def_property_readonly("sideways", &Pursue::sideways);
  py::class_<Evade, Behavior, std::shared_ptr<Evade>>(m, "Evade")
      .def(py::init([](Real max_prediction, Real radius, const std::string& falloff, Real sideways, Real weight) {
             return std::make_shared<Evade>(max_prediction, radius, parse_falloff(falloff, "falloff"), weight,
                                            sideways);
           }),
           py::arg("max_prediction"), py::arg("radius"), py::arg("falloff"), py::arg("sideways"), py::arg("weight"))
      .def_property_readonly("sideways", &Evade::sideways);
  py::class_<Arrive, Behavior, std::shared_ptr<Arrive>>(m, "Arrive")
      .def(py::init([](const RealArray& targets, bool agent_target, Real target_radius, Real slowing_radius,
                       Real sideways, Real weight) {
             return std::make_shared<Arrive>(targets_from(targets, agent_target, "targets"), target_radius,
                                             slowing_radius, weight, sideways);
           }),
           py::arg("targets"), py::arg("agent_target"), py::arg("target_radius"), py::arg("slowing_radius"),
           py::arg("sideways"), py::arg("weight"))
      .def_property_readonly("sideways", &Arrive::sideways);
  py::class_<Leave, Behavior, std::shared_ptr<Leave>>(m, "Leave")
      .def(py::init([](const RealArray& threats, bool agent_target, Real escape_radius, Real danger_radius,
                       Real sideways, Real weight) {
             return std::make_shared<Leave>(targets_from(threats, agent_target, "threats"), escape_radius,
                                            danger_radius, weight, sideways);
           }),
           py::arg("threats"), py::arg("agent_target"), py::arg("escape_radius"), py::arg("danger_radius"),
           py::arg("sideways"), py::arg("weight"))
      .def_property_readonly("sideways", &Leave::sideways);
  py::class_<Flocking, Behavior, std::shared_ptr<Flocking>>(m, "Flocking")
      .def(py::init([](const std::string& rule, Real radius, const std::string& falloff, Real weight) {
             return std::make_shared<Flocking>(parse_flock_rule(rule), radius, parse_falloff(falloff, "falloff"),
                                               weight);
           }),
           py::arg("rule"), py::arg("radius"), py::arg("falloff"), py::arg("weight"));
  py::class_<Wander, Behavior, std::shared_ptr<Wander>>(m, "Wander")
      .def(py::init<std::uint64_t, Real, Real, Real, Real>(), py::arg("seed"), py::arg("rate"), py::arg("spread"),
           py::arg("strength"), py::arg("weight"))
      .def("offset", &Wander::offset, py::arg("id"), py::arg("time"));
  py::class_<FollowField, Behavior, std::shared_ptr<FollowField>>(m, "FollowField")
      .def(py::init([](std::shared_ptr<NavigationField> field, Real arrive_radius, Real slowing_radius, Real sideways,
                       Real weight) {
             return std::make_shared<FollowField>(std::move(field), arrive_radius, slowing_radius, weight, sideways);
           }),
           py::arg("field"), py::arg("arrive_radius"), py::arg("slowing_radius"), py::arg("sideways"),
           py::arg("weight"))
      .def_property_readonly("sideways", &FollowField::sideways)
      .def_property_readonly("field",
                             [](const FollowField& f) { return std::const_pointer_cast<NavigationField>(f.field()); });
  py::class_<FollowPath, Behavior, std::shared_ptr<FollowPath>>(m, "FollowPath")
      .def(py::init([](const RealArray& waypoints, Real lookahead, Real arrive_radius, Real slowing_radius, Real window,
                       bool loop, Real sideways, Real weight) {
             return std::make_shared<FollowPath>(points_from(waypoints, "waypoints"), lookahead, arrive_radius,
                                                 slowing_radius, window, loop, weight, sideways);
           }),
           py::arg("waypoints"), py::arg("lookahead"), py::arg("arrive_radius"), py::arg("slowing_radius"),
           py::arg("window"), py::arg("loop"), py::arg("sideways"), py::arg("weight"))
      .def_property_readonly("sideways", &FollowPath::sideways)
      .def_property_readonly("loop", &FollowPath::loop)
      .def_property_readonly("waypoints", [](const FollowPath& f) { return points_to_array(f.waypoints()); })
      .def_property_readonly("length", &FollowPath::length)
      .def(
          "progress",
          [](const FollowPath& f, const RealArray& point, Real last) {
            if (point.ndim() != 1 || point.shape(0) != 2) throw py::value_error("point: expected shape (2,)");
            return f.progress({point.at(0), point.at(1)}, last);
          },
          py::arg("point"), py::arg("last"));
  py::class_<Rays, Behavior, std::shared_ptr<Rays>>(m, "Rays").def(
      py::init([](Real length, const std::string& mode, Real weight) {
        return std::make_shared<Rays>(length, parse_ray_mode(mode), weight);
      }),
      py::arg("length"), py::arg("mode"), py::arg("weight"));
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
  py::class_<RacingLanes, Behavior, std::shared_ptr<RacingLanes>>(m, "RacingLanes")
      .def(py::init([](std::shared_ptr<Track> track, int lanes, Real lookahead, Real line_width, Real window,
                       const std::string& falloff, Real weight) {
             return std::make_shared<RacingLanes>(track, lanes, lookahead, line_width, window,
                                                  parse_falloff(falloff, "falloff"), weight);
           }),
           py::arg("track"), py::arg("lanes"), py::arg("lookahead"), py::arg("line_width"), py::arg("window"),
           py::arg("falloff"), py::arg("weight"))
      .def_property_readonly("lanes", &RacingLanes::lanes)
      .def(
          "lane_maps",
          [](const RacingLanes& r, const RealArray& positions, const RealArray& radius) {
            // The lane maps and decisions of cars at `positions` on their own (no world needed).
            require_shape(positions, "positions", {-1, 2});
            const py::ssize_t n = positions.shape(0), lanes = r.lanes();
            require_shape(radius, "radius", {n});
            Real max_radius = 0;
            for (py::ssize_t a = 0; a < n; ++a) max_radius = std::max(max_radius, radius.data()[a]);
            SpatialGrid grid;
            grid.build(positions.data(), static_cast<int>(n), std::max(r.neighbor_radius(), Real(1e-3)), radius.data());
            SceneView scene;
            scene.agents = static_cast<int>(n);
            scene.positions = positions.data();
            scene.radius = radius.data();
            scene.max_radius = max_radius;
            scene.grid = &grid;
            py::array_t<Real> interest({n, lanes}), danger({n, lanes}), final_map({n, lanes}), lateral(n),
                target({n, py::ssize_t(2)});
            py::array_t<Real> strength(n);
            py::array_t<bool> blocked(n);
            for (py::ssize_t a = 0; a < n; ++a) {
              const LaneDecision d = r.decide(scene, static_cast<int>(a), interest.mutable_data() + a * lanes,
                                              danger.mutable_data() + a * lanes, final_map.mutable_data() + a * lanes);
              lateral.mutable_data()[a] = d.lateral;
              store(target.mutable_data(), a, d.target);
              strength.mutable_data()[a] = d.strength;
              blocked.mutable_data()[a] = d.blocked;
            }
            py::dict out;
            out["interest"] = interest, out["danger"] = danger, out["final"] = final_map;
            out["lateral"] = lateral, out["target"] = target, out["strength"] = strength, out["blocked"] = blocked;
            return out;
          },
          py::arg("positions"), py::arg("radius"));
  py::class_<TimeToCollision, Behavior, std::shared_ptr<TimeToCollision>>(m, "TimeToCollision")
      .def(py::init([](Real radius, Real horizon, const std::string& falloff, Real weight) {
             return std::make_shared<TimeToCollision>(radius, horizon, parse_falloff(falloff, "falloff"), weight);
           }),
           py::arg("radius"), py::arg("horizon"), py::arg("falloff"), py::arg("weight"));
  py::class_<Anticipate, Behavior, std::shared_ptr<Anticipate>>(m, "Anticipate")
      .def(py::init([](Real radius, Real horizon, Real keep_right, Real make_way, Real weight) {
             return std::make_shared<Anticipate>(AnticipateParams{radius, horizon, keep_right, make_way, weight});
           }),
           py::arg("radius"), py::arg("horizon"), py::arg("keep_right"), py::arg("make_way"), py::arg("weight"));
}

}  // namespace contextsteer::bindings
