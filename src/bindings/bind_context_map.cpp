// Batch functions over context maps: slot directions, combine, resolve and shaping.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "contextsteer/maps/combine.hpp"
#include "contextsteer/maps/resolve.hpp"
#include "contextsteer/maps/shaping.hpp"
#include "contextsteer/maps/slots.hpp"

namespace contextsteer::bindings {

namespace {

py::array_t<Real> slot_directions_py(int slots, Real offset) {
  check_slot_count(slots, "slots");
  py::array_t<Real> out({static_cast<py::ssize_t>(slots), py::ssize_t(2)});
  slot_directions(slots, offset, out.mutable_data());
  return out;
}

// maps: (k, count) stacked maps; weights: (k,) or None.
py::array_t<Real> combine_py(const RealArray& maps, const std::string& rule_name, std::optional<RealArray> weights) {
  require_shape(maps, "maps", {-1, -1});
  const CombineRule rule = parse_combine_rule(rule_name, "rule");
  const int k = static_cast<int>(maps.shape(0));
  const std::size_t count = static_cast<std::size_t>(maps.shape(1));
  if (weights) require_shape(*weights, "weights", {k});
  std::vector<const Real*> rows(k);
  for (int i = 0; i < k; ++i) rows[i] = maps.data() + i * count;
  py::array_t<Real> out(static_cast<py::ssize_t>(count));
  Real* dst = out.mutable_data();
  const Real* w = weights ? weights->data() : nullptr;
  {
    // Safe: the inputs are held by this frame and the output is not yet visible to Python.
    py::gil_scoped_release release;
    combine(rows.data(), k, count, rule, w, dst);
  }
  return out;
}

py::tuple resolve_py(const RealArray& interest, std::optional<RealArray> danger, const std::string& danger_mode,
                     Real threshold, Real margin, const std::string& select, Real offset, Real hysteresis,
                     std::optional<RealArray> current) {
  require_shape(interest, "interest", {-1, -1});
  const py::ssize_t n = interest.shape(0);
  const py::ssize_t s = interest.shape(1);
  if (danger) require_shape(*danger, "danger", {n, s});
  ResolveParams params;
  params.danger_mode = parse_danger_mode(danger_mode, "danger_mode");
  params.select = parse_select_method(select, "select");
  params.threshold = threshold;
  params.margin = margin;
  params.hysteresis = hysteresis;
  check_resolve_params(params);
  if (current) require_shape(*current, "current", {n, 2});
  const Real* current_data = current ? current->data() : nullptr;
  check_slot_count(static_cast<int>(s), "interest slots");
  const SlotDirections dirs(static_cast<int>(s), offset);

  py::array_t<Real> direction({n, py::ssize_t(2)});
  py::array_t<Real> strength(n);
  py::array_t<Real> slot(n);
  py::array_t<bool> blocked(n);
  py::array_t<Real> final_map({n, s});
  DecisionBatch out{direction.mutable_data(), strength.mutable_data(), slot.mutable_data(),
                    reinterpret_cast<std::uint8_t*>(blocked.mutable_data()), final_map.mutable_data()};
  const Real* danger_data = danger ? danger->data() : nullptr;
  {
    // Safe: inputs are held by this frame, outputs are not yet visible to Python.
    py::gil_scoped_release release;
    resolve(ConstMapBatch(interest.data(), static_cast<int>(n), static_cast<int>(s)), danger_data, dirs, params, out,
            current_data);
  }
  return py::make_tuple(direction, strength, slot, blocked, final_map);
}

py::array_t<Real> blur_py(const RealArray& maps, Real width) {
  require_shape(maps, "maps", {-1, -1});
  const int n = static_cast<int>(maps.shape(0));
  const int s = static_cast<int>(maps.shape(1));
  const CircularBlur kernel(width, s);
  py::array_t<Real> out({maps.shape(0), maps.shape(1)});
  Real* dst = out.mutable_data();
  {
    py::gil_scoped_release release;  // Safe: see combine_py.
    for (int a = 0; a < n; ++a)
      kernel.apply(maps.data() + static_cast<std::size_t>(a) * s, dst + static_cast<std::size_t>(a) * s);
  }
  return out;
}

py::array_t<Real> smooth_py(const RealArray& maps, const RealArray& previous, Real factor) {
  require_shape(maps, "maps", {-1, -1});
  require_shape(previous, "previous", {maps.shape(0), maps.shape(1)});
  check_smooth_factor(factor, "factor");
  py::array_t<Real> out({maps.shape(0), maps.shape(1)});
  Real* dst = out.mutable_data();
  {
    py::gil_scoped_release release;  // Safe: see combine_py.
    smooth(maps.data(), previous.data(), static_cast<std::size_t>(maps.size()), factor, dst);
  }
  return out;
}

py::array_t<Real> resample_py(const RealArray& maps, int slots, const std::string& method_name) {
  require_shape(maps, "maps", {-1, -1});
  check_slot_count(slots, "slots");
  const ResampleMethod method = parse_resample_method(method_name, "method");
  const int n = static_cast<int>(maps.shape(0));
  py::array_t<Real> out({maps.shape(0), static_cast<py::ssize_t>(slots)});
  MapBatch dst{out.mutable_data(), n, slots};
  {
    py::gil_scoped_release release;  // Safe: see combine_py.
    resample(ConstMapBatch(maps.data(), n, static_cast<int>(maps.shape(1))), method, dst);
  }
  return out;
}

}  // namespace

void bind_context_map(py::module_& m) {
  m.def("slot_directions", &slot_directions_py, py::arg("slots"), py::arg("offset") = 0.0f);
  m.def("combine", &combine_py, py::arg("maps"), py::arg("rule"), py::arg("weights") = py::none());
  m.def("resolve", &resolve_py, py::arg("interest"), py::arg("danger"), py::arg("danger_mode"), py::arg("threshold"),
        py::arg("margin"), py::arg("select"), py::arg("offset"), py::arg("hysteresis") = 0.0f,
        py::arg("current") = py::none());
  m.def("blur", &blur_py, py::arg("maps"), py::arg("width"));
  m.def("smooth", &smooth_py, py::arg("maps"), py::arg("previous"), py::arg("factor"));
  m.def("resample", &resample_py, py::arg("maps"), py::arg("slots"), py::arg("method"));
}

}  // namespace contextsteer::bindings
