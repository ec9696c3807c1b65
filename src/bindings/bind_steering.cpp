// Classic steering: behaviours (seek, flee, arrive, ...) and their combiner.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "contextsteer/steering/steering.hpp"

namespace contextsteer::bindings {

namespace {
const char* kind_name(ClassicKind k) {
  switch (k) {
    case ClassicKind::Seek:
      return "seek";
    case ClassicKind::Flee:
      return "flee";
    case ClassicKind::Arrive:
      return "arrive";
    case ClassicKind::Leave:
      return "leave";
    case ClassicKind::Pursue:
      return "pursue";
    case ClassicKind::Evade:
      return "evade";
    case ClassicKind::Face:
      return "face";
    case ClassicKind::LookWhereYouGo:
      return "look_where_you_go";
    case ClassicKind::ObstacleAvoidance:
      return "obstacle_avoidance";
    case ClassicKind::WallAvoidance:
      return "wall_avoidance";
    case ClassicKind::Separation:
      return "separation";
    case ClassicKind::FollowPath:
      return "follow_path";
    case ClassicKind::FollowField:
      return "follow_field";
  }
  return "?";
}
}  // namespace

void bind_steering(py::module_& m) {
  py::class_<ClassicBehavior>(m, "ClassicBehavior")
      .def(py::init([](const std::string& kind, Real weight, int priority, std::optional<RealArray> target,
                       Real target_radius, Real slowing_radius, Real time_to_target, Real escape_radius,
                       Real danger_radius, Real max_prediction, Real align_tolerance, Real horizon, Real margin,
                       Real feeler_angle, Real radius, Real lookahead, std::optional<RealArray> path, bool loop,
                       std::optional<std::shared_ptr<NavigationField>> field) {
             ClassicBehavior b;
             b.kind = parse_classic_kind(kind, "kind");
             b.weight = weight;
             b.priority = priority;
             if (target) {
               require_shape(*target, "target", {2});
               b.fixed_target = true;
               b.target = load(target->data(), 0);
             }
             b.target_radius = target_radius;
             b.slowing_radius = slowing_radius;
             b.time_to_target = time_to_target;
             b.escape_radius = escape_radius;
             b.danger_radius = danger_radius;
             b.max_prediction = max_prediction;
             b.align_tolerance = align_tolerance;
             b.horizon = horizon;
             b.margin = margin;
             b.feeler_angle = feeler_angle;
             b.radius = radius;
             b.lookahead = lookahead;
             if (path) b.path = std::make_shared<const Polyline>(points_from(*path, "path"), loop);
             if (field) b.field = *field;
             return b;
           }),
           py::arg("kind"), py::arg("weight"), py::arg("priority"), py::arg("target"), py::arg("target_radius"),
           py::arg("slowing_radius"), py::arg("time_to_target"), py::arg("escape_radius"), py::arg("danger_radius"),
           py::arg("max_prediction"), py::arg("align_tolerance"), py::arg("horizon"), py::arg("margin"),
           py::arg("feeler_angle"), py::arg("radius"), py::arg("lookahead"), py::arg("path").none(true),
           py::arg("loop"), py::arg("field"))
      .def_property_readonly("kind", [](const ClassicBehavior& b) { return kind_name(b.kind); })
      .def_readonly("weight", &ClassicBehavior::weight)
      .def_readonly("priority", &ClassicBehavior::priority);

  py::class_<ClassicSteering, std::shared_ptr<ClassicSteering>>(m, "ClassicSteering")
      .def(py::init([](const std::vector<ClassicBehavior>& behaviors, const std::string& combiner, Real epsilon) {
             return std::make_shared<ClassicSteering>(behaviors, parse_combiner(combiner, "combiner"), epsilon);
           }),
           py::arg("behaviors"), py::arg("combiner"), py::arg("epsilon"))
      .def_property_readonly("behaviors", &ClassicSteering::behaviors)
      .def_property_readonly("steers_heading", &ClassicSteering::steers_heading);
}

}  // namespace contextsteer::bindings
