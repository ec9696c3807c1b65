// The navigation field: built from obstacle arrays or a world's obstacles, read through
// read-only views.
#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "arrays.hpp"
#include "contextsteer/behaviors/follow_field.hpp"
#include "contextsteer/navigation/navigation_field.hpp"
#include "contextsteer/navigation/widest_way.hpp"
#include "contextsteer/world/world.hpp"

namespace contextsteer::bindings {

namespace {

using FieldPtr = std::shared_ptr<NavigationField>;

// A read-only view of one of the field's arrays; its base holds the field, which never
// changes once built, so the view stays valid and true for as long as it lives.
template <class T>
py::array field_view(const FieldPtr& field, const std::vector<T>& values, std::vector<py::ssize_t> shape) {
  auto* holder = new FieldPtr(field);
  py::capsule base(holder, [](void* p) { delete static_cast<FieldPtr*>(p); });
  py::array view(py::dtype::of<T>(), shape, {}, values.data(), base);
  view.attr("flags").attr("writeable") = false;
  return view;
}

std::vector<Bounds> rectangles_from(const RealArray& a, const char* argument) {
  require_shape(a, argument, {-1, 4});
  std::vector<Bounds> rectangles(a.shape(0));
  const Real* d = a.data();
  for (std::size_t i = 0; i < rectangles.size(); ++i)
    rectangles[i] = {{d[4 * i], d[4 * i + 1]}, {d[4 * i + 2], d[4 * i + 3]}};
  return rectangles;
}

py::array_t<Real> rectangles_to_array(const std::vector<Bounds>& rectangles) {
  py::array_t<Real> out({static_cast<py::ssize_t>(rectangles.size()), py::ssize_t(4)});
  Real* d = out.mutable_data();
  for (std::size_t i = 0; i < rectangles.size(); ++i) {
    const Bounds& b = rectangles[i];
    d[4 * i] = b.min.x, d[4 * i + 1] = b.min.y, d[4 * i + 2] = b.max.x, d[4 * i + 3] = b.max.y;
  }
  return out;
}

// Builds the field round `obstacles` (a copy of the caller's, so nothing the build reads
// can change under it), the layers of `mask` blocking.
FieldPtr build_field(const Obstacles& obstacles, LayerMask mask, const RealArray& goals, const RealArray& goal_areas,
                     const RealArray& area, Real cell, Real clearance, Real keep_right) {
  require_shape(area, "area", {4});
  std::vector<Vec2> goal_points = points_from(goals, "goals");
  std::vector<Bounds> goal_rectangles = rectangles_from(goal_areas, "goal_areas");
  const Bounds rectangle{{area.data()[0], area.data()[1]}, {area.data()[2], area.data()[3]}};
  // Safe: everything the build reads is a copy held by this frame; the field is not yet shared.
  py::gil_scoped_release release;
  return std::make_shared<NavigationField>(obstacles, mask, rectangle, cell, clearance, goal_points, goal_rectangles,
                                           keep_right);
}

Obstacles obstacles_from_arrays(const RealArray& circles, const RealArray& segments,
                                const std::vector<RealArray>& polygons, const std::optional<RealArray>& bounds) {
  Obstacles obstacles;
  obstacles.add_circles(circles_from(circles, "circles"));
  obstacles.add_segments(segments_from(segments, "segments"));
  for (const RealArray& polygon : polygons) obstacles.add_polygon(points_from(polygon, "polygons"));
  if (bounds) {
    require_shape(*bounds, "bounds", {4});
    const Real* b = bounds->data();
    obstacles.set_bounds({{b[0], b[1]}, {b[2], b[3]}});
  }
  return obstacles;
}

FieldPtr field_from_arrays(const RealArray& goals, const RealArray& goal_areas, const RealArray& area, Real cell,
                           Real clearance, Real keep_right, const RealArray& circles, const RealArray& segments,
                           const std::vector<RealArray>& polygons, const std::optional<RealArray>& bounds) {
  return build_field(obstacles_from_arrays(circles, segments, polygons, bounds), kAllLayers, goals, goal_areas, area,
                     cell, clearance, keep_right);
}

Real widest_way_from_arrays(const RealArray& goal_areas, const RealArray& area, Real cell, const RealArray& starts,
                            Real cap, const RealArray& circles, const RealArray& segments,
                            const std::vector<RealArray>& polygons) {
  require_shape(area, "area", {4});
  const Obstacles obstacles = obstacles_from_arrays(circles, segments, polygons, std::nullopt);
  const std::vector<Bounds> rectangles = rectangles_from(goal_areas, "goal_areas");
  const std::vector<Vec2> points = points_from(starts, "starts");
  const Bounds rectangle{{area.data()[0], area.data()[1]}, {area.data()[2], area.data()[3]}};
  // Safe: everything it reads is a copy held by this frame.
  py::gil_scoped_release release;
  return widest_way(obstacles, rectangle, cell, rectangles, points, cap);
}

// The world's obstacles are copied with the GIL held: a step running meanwhile only
// reads them, and whatever changes them needs the GIL and an idle world.
FieldPtr field_from_world(const World& world, LayerMask layers, const RealArray& goals, const RealArray& goal_areas,
                          const RealArray& area, Real cell, Real clearance, Real keep_right) {
  const Obstacles obstacles = world.obstacles();
  return build_field(obstacles, layers, goals, goal_areas, area, cell, clearance, keep_right);
}

// Applies `at` to each row of points (m, 2) into (m, width) out, without the GIL.
template <int Width, class At>
py::array_t<Real> at_points(const RealArray& points, At&& at) {
  require_shape(points, "points", {-1, 2});
  const py::ssize_t m = points.shape(0);
  py::array_t<Real> out = Width == 1 ? py::array_t<Real>(m) : py::array_t<Real>({m, py::ssize_t(Width)});
  const Real* in = points.data();
  Real* o = out.mutable_data();
  // Safe: the input is held by this frame, the output is not yet visible to Python.
  py::gil_scoped_release release;
  for (py::ssize_t i = 0; i < m; ++i) at(load(in, i), o + Width * i);
  return out;
}

// What a pickled field holds: a format number, then what NavigationField::from_cells
// takes. Saved as built, so that loading one is a copy, not a new build. Format 1 (12
// items) had no costs: such a field loads with a cost of 1 per metre everywhere.
constexpr int kPickleFormat = 2;

py::tuple field_state(const NavigationField& f) {
  return py::make_tuple(kPickleFormat, f.origin().x, f.origin().y, f.cell(), f.clearance(), f.columns(), f.rows(),
                        points_to_array(f.goals()), rectangles_to_array(f.goal_areas()), array_of(f.distances()),
                        array_of(f.directions()), array_of(f.blocked()), array_of(f.costs()));
}

FieldPtr field_from_state(const py::tuple& state) {
  const bool format_1 = state.size() == 12 && py::isinstance<py::int_>(state[0]) && state[0].cast<int>() == 1;
  if (!format_1 &&
      (state.size() != 13 || !py::isinstance<py::int_>(state[0]) || state[0].cast<int>() != kPickleFormat)) {
    throw std::invalid_argument("NavigationField: expected the state of a pickled field, 13 items of format " +
                                std::to_string(kPickleFormat) + ", got " + std::to_string(state.size()) + " items" +
                                (state.size() ? " of format " + py::repr(state[0]).cast<std::string>() : ""));
  }
  using Bytes = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;
  const RealArray distances = state[9].cast<RealArray>(), directions = state[10].cast<RealArray>();
  const Bytes blocked = state[11].cast<Bytes>();
  std::vector<Real> costs;
  if (!format_1) {
    const RealArray given = state[12].cast<RealArray>();
    costs.assign(given.data(), given.data() + given.size());
  }
  return std::make_shared<NavigationField>(NavigationField::from_cells(
      {state[1].cast<Real>(), state[2].cast<Real>()}, state[3].cast<Real>(), state[4].cast<Real>(),
      state[5].cast<int>(), state[6].cast<int>(), points_from(state[7].cast<RealArray>(), "goals"),
      rectangles_from(state[8].cast<RealArray>(), "goal_areas"),
      std::vector<Real>(distances.data(), distances.data() + distances.size()),
      std::vector<Real>(directions.data(), directions.data() + directions.size()),
      std::vector<std::uint8_t>(blocked.data(), blocked.data() + blocked.size()), std::move(costs)));
}

}  // namespace

void bind_navigation_field(py::module_& m) {
  py::class_<NavigationField, FieldPtr>(m, "NavigationField")
      .def(py::init(&field_from_arrays), py::arg("goals"), py::arg("goal_areas"), py::arg("area"), py::arg("cell"),
           py::arg("clearance"), py::arg("keep_right"), py::arg("circles"), py::arg("segments"), py::arg("polygons"),
           py::arg("bounds"))
      .def_property_readonly("columns", &NavigationField::columns)
      .def_property_readonly("rows", &NavigationField::rows)
      .def_property_readonly("cell", &NavigationField::cell)
      .def_property_readonly("clearance", &NavigationField::clearance)
      .def_property_readonly("origin",
                             [](const NavigationField& f) { return py::make_tuple(f.origin().x, f.origin().y); })
      .def_property_readonly("goals", [](const NavigationField& f) { return points_to_array(f.goals()); })
      .def_property_readonly("goal_areas", [](const NavigationField& f) { return rectangles_to_array(f.goal_areas()); })
      .def_property_readonly("distances",
                             [](const FieldPtr& f) { return field_view(f, f->distances(), {f->rows(), f->columns()}); })
      .def_property_readonly(
          "directions", [](const FieldPtr& f) { return field_view(f, f->directions(), {f->rows(), f->columns(), 2}); })
      .def_property_readonly(
          "blocked",
          [](const FieldPtr& f) { return field_view(f, f->blocked(), {f->rows(), f->columns()}).attr("view")("bool"); })
      .def_property_readonly("costs",
                             [](const FieldPtr& f) { return field_view(f, f->costs(), {f->rows(), f->columns()}); })
      .def(
          "direction_at",
          [](const NavigationField& f, const RealArray& points) {
            return at_points<2>(points, [&](Vec2 p, Real* out) { store(out, 0, f.direction_at(p)); });
          },
          py::arg("points"))
      .def(
          "path_from",
          [](const NavigationField& f, const RealArray& start, Real step, Real max_length) {
            require_shape(start, "start", {2});
            const Vec2 p{start.data()[0], start.data()[1]};
            std::vector<Vec2> path;
            {
              // Safe: the field never changes once built; p is a copy.
              py::gil_scoped_release release;
              path = f.path_from(p, step, max_length);
            }
            return points_to_array(path);
          },
          py::arg("start"), py::arg("step"), py::arg("max_length"))
      .def(
          "distance_at",
          [](const NavigationField& f, const RealArray& points) {
            return at_points<1>(points, [&](Vec2 p, Real* out) { out[0] = f.distance_at(p); });
          },
          py::arg("points"))
      .def(py::pickle(&field_state, &field_from_state), py::arg("state"));
  m.def("widest_way", &widest_way_from_arrays, py::arg("goal_areas"), py::arg("area"), py::arg("cell"),
        py::arg("starts"), py::arg("cap"), py::arg("circles"), py::arg("segments"), py::arg("polygons"));
}

// Registered after World, so that the signature names World's Python type.
void bind_navigation_field_from_world(py::module_& m) {
  auto cls = py::reinterpret_borrow<py::class_<NavigationField, FieldPtr>>(m.attr("NavigationField"));
  cls.def_static("from_world", &field_from_world, py::arg("world"), py::arg("layers"), py::arg("goals"),
                 py::arg("goal_areas"), py::arg("area"), py::arg("cell"), py::arg("clearance"), py::arg("keep_right"));
  // FollowField's fields as a world keeps them, marched with the crowd's costs: copies,
  // or None before the world's first step with them.
  auto follow =
      py::reinterpret_borrow<py::class_<FollowField, Behavior, std::shared_ptr<FollowField>>>(m.attr("FollowField"));
  follow.def(
      "crowd_fields",
      [](const FollowField& f, World& world) -> py::object {
        const std::unique_ptr<KeptState> kept = world.kept_copy(&f);
        const auto* crowd = dynamic_cast<const FollowField::CrowdFields*>(kept.get());
        if (!crowd || crowd->bases != f.fields()) return py::none();
        py::list fields;
        for (const NavigationField& field : crowd->fields) fields.append(std::make_shared<NavigationField>(field));
        return fields;
      },
      py::arg("world"));
}

}  // namespace contextsteer::bindings
