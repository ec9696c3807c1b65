// Batch functions over context maps: slot directions, combine, resolve and shaping.
#include <pybind11/stl.h>

#include <cstring>
#include <limits>
#include <optional>

#include "arrays.hpp"
#include "contextsteer/maps/combine.hpp"
#include "contextsteer/maps/resolve.hpp"
#include "contextsteer/maps/shaping.hpp"
#include "contextsteer/maps/slots.hpp"
#include "fast_inputs.hpp"

namespace contextsteer::bindings {

namespace {

py::array_t<Real> slot_directions_py(int slots, Real offset) {
  check_slot_count(slots, "slots");
  py::array_t<Real> out({static_cast<py::ssize_t>(slots), py::ssize_t(2)});
  slot_directions(slots, offset, out.mutable_data());
  return out;
}

// Small inputs are computed under the GIL: releasing and taking it back costs more
// than the work. Counted in map values.
constexpr std::size_t kReleaseGilFrom = std::size_t(1) << 14;

// rows: k maps of `count` values each; weights: k or null. Returns (count,) values.
py::array_t<Real> run_combine(const std::vector<const Real*>& rows, std::size_t count, const std::string& rule_name,
                              const Real* weights) {
  const CombineRule rule = parse_combine_rule(rule_name, "rule");
  py::array_t<Real> out(static_cast<py::ssize_t>(count));
  Real* dst = out.mutable_data();
  const int k = static_cast<int>(rows.size());
  if (count * rows.size() < kReleaseGilFrom) {
    combine(rows.data(), k, count, rule, weights, dst);
  } else {
    // Safe: the inputs are held by the caller's frame and the output is not yet visible to Python.
    py::gil_scoped_release release;
    combine(rows.data(), k, count, rule, weights, dst);
  }
  return out;
}

// maps: (k, count) stacked maps; weights: (k,) or None.
py::array_t<Real> combine_py(const RealArray& maps, const std::string& rule_name, std::optional<RealArray> weights) {
  require_shape(maps, "maps", {-1, -1});
  const int k = static_cast<int>(maps.shape(0));
  const std::size_t count = static_cast<std::size_t>(maps.shape(1));
  parse_combine_rule(rule_name, "rule");  // before the weights' shape
  if (weights) require_shape(*weights, "weights", {k});
  std::vector<const Real*> rows(k);
  for (int i = 0; i < k; ++i) rows[i] = maps.data() + i * count;
  return run_combine(rows, count, rule_name, weights ? weights->data() : nullptr);
}

// contextsteer.combine for input its Python checks would pass unchanged (fast_inputs.hpp):
// maps as a (k, n, S) array or a list or tuple of k (n, S) or (S,) maps of one shape,
// weights None or (k,). The combined map(s), of the rank of one input map; None for any
// other input, which the Python function then checks.
py::object try_combine(py::handle maps, py::handle rule, py::handle weights) {
  std::string rule_name;
  if (rule.is_none()) {
    rule_name = weights.is_none() ? "max" : "sum";
  } else if (!fast_name(rule, rule_name)) {
    return py::none();
  }
  std::vector<FastArray> inputs;
  py::ssize_t n = 0, s = 0;
  bool single = false;
  if (Py_TYPE(maps.ptr()) == py::detail::npy_api::get().PyArray_Type_) {
    inputs.emplace_back();
    if (!fast_real_array(maps, 3, 3, inputs.back())) return py::none();
    n = inputs.back().shape[1];
    s = inputs.back().shape[2];
  } else if (PyList_CheckExact(maps.ptr()) || PyTuple_CheckExact(maps.ptr())) {
    const py::ssize_t k = PySequence_Fast_GET_SIZE(maps.ptr());
    if (k == 0) return py::none();
    inputs.resize(static_cast<std::size_t>(k));
    PyObject** items = PySequence_Fast_ITEMS(maps.ptr());
    for (py::ssize_t i = 0; i < k; ++i) {
      FastArray& a = inputs[static_cast<std::size_t>(i)];
      if (!fast_real_array(items[i], 1, 2, a)) return py::none();
      // check.map_batch compares (n, S) shapes: a (S,) map is a batch of one.
      const py::ssize_t rows = a.ndim == 1 ? 1 : a.shape[0];
      const py::ssize_t slots = a.shape[a.ndim - 1];
      if (i == 0) {
        n = rows;
        s = slots;
        single = a.ndim == 1;
      } else if (rows != n || slots != s) {
        return py::none();
      }
    }
  } else {
    return py::none();
  }
  const std::size_t count = static_cast<std::size_t>(n * s);
  std::vector<const Real*> rows;
  for (const FastArray& a : inputs)
    for (py::ssize_t i = 0; i < a.size; i += static_cast<py::ssize_t>(count)) rows.push_back(a.data() + i);
  FastArray w;
  if (!weights.is_none() && (!fast_real_array(weights, 1, 1, w) || w.shape[0] != static_cast<py::ssize_t>(rows.size())))
    return py::none();
  py::array_t<Real> out = run_combine(rows, count, rule_name, weights.is_none() ? nullptr : w.data());
  if (single) return std::move(out);
  return out.reshape({n, s});
}

struct ResolveInput {
  const Real* interest;
  const Real* danger;   // or null
  const Real* current;  // (n, 2) or null
  py::ssize_t n, s;
};

struct ResolveArgs {
  std::string danger_mode;
  Real threshold, margin;
  std::string select;
  Real offset, hysteresis;
};

// The slot directions of the last resolution this thread asked for, made again when it
// changes: small calls mostly repeat one resolution.
const SlotDirections& slot_directions_for(int slots, Real offset) {
  thread_local std::optional<SlotDirections> last;
  const Real last_offset = last ? last->offset() : Real(0);
  const bool same = last && last->slots() == slots && std::memcmp(&offset, &last_offset, sizeof(Real)) == 0;
  if (!same) last.emplace(slots, offset);
  return *last;
}

// Checks the arguments (as the core does, after the Python-side checks) and writes the n
// decisions into `out`.
void resolve_into(const ResolveInput& in, const ResolveArgs& args, DecisionBatch out) {
  ResolveParams params;
  params.danger_mode = parse_danger_mode(args.danger_mode, "danger_mode");
  params.select = parse_select_method(args.select, "select");
  params.threshold = args.threshold;
  params.margin = args.margin;
  params.hysteresis = args.hysteresis;
  check_resolve_params(params);
  check_slot_count(static_cast<int>(in.s), "interest slots");
  const SlotDirections& dirs = slot_directions_for(static_cast<int>(in.s), args.offset);
  const ConstMapBatch interest(in.interest, static_cast<int>(in.n), static_cast<int>(in.s));
  if (static_cast<std::size_t>(in.n * in.s) < kReleaseGilFrom) {
    resolve(interest, in.danger, dirs, params, out, in.current);
  } else {
    // Safe: inputs are held by the caller's frame, outputs are not yet visible to Python.
    py::gil_scoped_release release;
    resolve(interest, in.danger, dirs, params, out, in.current);
  }
}

// The decision arrays for n agents: direction (n, 2), strength, slot, blocked (n,), final (n, S).
py::tuple resolve_batch(const ResolveInput& in, const ResolveArgs& args) {
  const py::ssize_t n = in.n;
  py::array_t<Real> direction({n, py::ssize_t(2)});
  py::array_t<Real> strength(n);
  py::array_t<Real> slot(n);
  py::array_t<bool> blocked(n);
  py::array_t<Real> final_map({n, in.s});
  resolve_into(in, args,
               {direction.mutable_data(), strength.mutable_data(), slot.mutable_data(),
                reinterpret_cast<std::uint8_t*>(blocked.mutable_data()), final_map.mutable_data()});
  return py::make_tuple(direction, strength, slot, blocked, final_map);
}

// The numpy scalar types of a decision for one map.
struct ScalarTypes {
  py::object float32, true_, false_;
};

const ScalarTypes& scalar_types() {
  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<ScalarTypes> storage;
  return storage
      .call_once_and_store_result([] {
        py::object numpy = py::module_::import("numpy");
        return ScalarTypes{numpy.attr("float32"), numpy.attr("True_"), numpy.attr("False_")};
      })
      .get_stored();
}

// The decision for one (S,) map, as indexing row 0 of resolve_batch's arrays gives it:
// direction (2,) and final (S,) arrays, strength and slot numpy.float32, blocked numpy.bool_.
py::tuple resolve_single(const ResolveInput& in, const ResolveArgs& args) {
  py::array_t<Real> direction(2);
  py::array_t<Real> final_map(in.s);
  Real strength = 0, slot = 0;
  std::uint8_t blocked = 0;
  resolve_into(in, args, {direction.mutable_data(), &strength, &slot, &blocked, final_map.mutable_data()});
  const ScalarTypes& types = scalar_types();
  return py::make_tuple(direction, types.float32(py::float_(strength)), types.float32(py::float_(slot)),
                        blocked ? types.true_ : types.false_, final_map);
}

py::tuple resolve_py(const RealArray& interest, std::optional<RealArray> danger, const std::string& danger_mode,
                     Real threshold, Real margin, const std::string& select, Real offset, Real hysteresis,
                     std::optional<RealArray> current) {
  require_shape(interest, "interest", {-1, -1});
  const py::ssize_t n = interest.shape(0);
  const py::ssize_t s = interest.shape(1);
  if (danger) require_shape(*danger, "danger", {n, s});
  if (current) require_shape(*current, "current", {n, 2});
  const ResolveInput in{interest.data(), danger ? danger->data() : nullptr, current ? current->data() : nullptr, n, s};
  return resolve_batch(in, {danger_mode, threshold, margin, select, offset, hysteresis});
}

// An instance of `type`, contextsteer.Decision (a frozen dataclass without __post_init__),
// holding the five decision arrays: what its generated __init__ makes, one
// object.__setattr__ per field into the instance's __dict__, in one step.
py::object make_decision(py::handle type, const py::tuple& arrays) {
  static const char* const names[5] = {"direction", "strength", "slot", "blocked", "final"};
  auto* cls = reinterpret_cast<PyTypeObject*>(type.ptr());
  py::object record = py::reinterpret_steal<py::object>(PyBaseObject_Type.tp_new(cls, py::tuple().ptr(), nullptr));
  if (!record) throw py::error_already_set();
  py::object dict = py::reinterpret_steal<py::object>(PyObject_GenericGetDict(record.ptr(), nullptr));
  if (!dict) throw py::error_already_set();
  for (std::size_t i = 0; i < 5; ++i)
    if (PyDict_SetItemString(dict.ptr(), names[i], arrays[i].ptr()) != 0) throw py::error_already_set();
  return record;
}

// contextsteer.resolve for input its Python checks would pass unchanged (fast_inputs.hpp):
// the Decision (of type `decision`) as the Python path makes it, without the first axis
// for one (S,) map; None for any other input, which the Python function then checks.
py::object try_resolve(py::handle decision, py::handle interest, py::handle danger, py::handle danger_mode,
                       py::handle threshold, py::handle margin, py::handle select, py::handle offset,
                       py::handle hysteresis, py::handle current) {
  FastArray in, dn, cur;
  if (!fast_real_array(interest, 1, 2, in)) return py::none();
  const bool single = in.ndim == 1;
  const py::ssize_t n = single ? 1 : in.shape[0];
  const py::ssize_t s = in.shape[in.ndim - 1];
  if (!danger.is_none()) {
    if (!fast_real_array(danger, 1, 2, dn) || dn.ndim != in.ndim || dn.size != in.size || dn.shape[0] != in.shape[0])
      return py::none();
  }
  if (!current.is_none()) {
    // check.shaped takes (n, 2), and (2,) as (1, 2).
    if (!fast_real_array(current, 1, 2, cur)) return py::none();
    const bool fits = cur.ndim == 1 ? cur.shape[0] == 2 && n == 1 : cur.shape[0] == n && cur.shape[1] == 2;
    if (!fits) return py::none();
  }
  ResolveArgs args;
  const double any = -std::numeric_limits<double>::infinity();
  if (!fast_name(danger_mode, args.danger_mode) || !fast_number(threshold, any, args.threshold) ||
      !fast_number(margin, 0.0, args.margin) || !fast_name(select, args.select) ||
      !fast_number(offset, any, args.offset) || !fast_number(hysteresis, 0.0, args.hysteresis))
    return py::none();
  const ResolveInput input{in.data(), danger.is_none() ? nullptr : dn.data(), current.is_none() ? nullptr : cur.data(),
                           n, s};
  return make_decision(decision, single ? resolve_single(input, args) : resolve_batch(input, args));
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
  m.def("try_combine", &try_combine, py::arg("maps"), py::arg("rule"), py::arg("weights"));
  m.def("try_resolve", &try_resolve, py::arg("decision"), py::arg("interest"), py::arg("danger"),
        py::arg("danger_mode"), py::arg("threshold"), py::arg("margin"), py::arg("select"), py::arg("offset"),
        py::arg("hysteresis"), py::arg("current"));
  m.def("blur", &blur_py, py::arg("maps"), py::arg("width"));
  m.def("smooth", &smooth_py, py::arg("maps"), py::arg("previous"), py::arg("factor"));
  m.def("resample", &resample_py, py::arg("maps"), py::arg("slots"), py::arg("method"));
}

}  // namespace contextsteer::bindings
