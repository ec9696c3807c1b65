// Binds a behaviour's parameter struct field by field (behaviors/support/parameters.hpp).
//
// bind_behavior<B>(m, "Name") binds behaviour B with every field of B::Params as a
// property of that name (read, and set: checked, taking effect at the next step), and
// `_fields`: one dict per field (name, kind, default, unit, doc, bounds or choices),
// from which the Python class builds its signature, defaults, checks and properties.
// The constructor is bound beside it: `.def(py::init<const B::Params&>(), ...)`, with
// B::Params bound as B.Params (a struct of defaults whose fields are set by name).
#pragma once

#include <pybind11/pybind11.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>

#include "contextsteer/behaviors/behavior.hpp"

namespace contextsteer::bindings {

namespace py = pybind11;

namespace parameters {

template <class T>
constexpr bool is_name = std::is_enum_v<T>;

// A field's value as Python sees it: enumerations by name.
template <class T>
py::object to_python(const T& value) {
  if constexpr (is_name<T>) {
    return py::str(name_of(value));
  } else {
    return py::cast(value);
  }
}

template <class T>
T from_python(const py::handle& value, const char* name) {
  if constexpr (is_name<T>) {
    return value_named<T>(py::cast<std::string>(value), name);
  } else {
    return py::cast<T>(value);
  }
}

template <class T>
const char* kind_of() {
  if constexpr (is_name<T>) return "name";
  if constexpr (std::is_same_v<T, bool>) return "flag";
  if constexpr (std::is_same_v<T, std::uint64_t>) return "seed";
  if constexpr (std::is_integral_v<T>) return "count";
  return "number";
}

// A field's value as Python sees it: an unset one (NaN where the field accepts absent) as None.
template <class P, class T>
py::object field_to_python(const Field<P, T>& f, const T& value) {
  if constexpr (std::is_floating_point_v<T>) {
    if (f.bounds.absent && std::isnan(value)) return py::none();
  }
  return to_python(value);
}

template <class P, class T>
T field_from_python(const Field<P, T>& f, const py::handle& value) {
  if constexpr (std::is_floating_point_v<T>) {
    if (f.bounds.absent && value.is_none()) return std::numeric_limits<T>::quiet_NaN();
  }
  return from_python<T>(value, f.name);
}

template <class P, class T>
py::dict describe(const Field<P, T>& f) {
  py::dict d;
  d["name"] = f.name;
  d["kind"] = kind_of<T>();
  d["default"] = field_to_python(f, P{}.*(f.member));
  d["unit"] = f.unit;
  d["doc"] = f.doc;
  if constexpr (is_name<T>) {
    py::list choices;
    for (const auto& v : Names<T>::values) choices.append(v.name);
    d["choices"] = choices;
  } else if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    const Accepts& b = f.bounds;
    py::dict bounds;
    if (b.low != -kMaxMagnitude) bounds[b.low_open ? "above" : "minimum"] = static_cast<double>(b.low);
    if (b.high != kMaxMagnitude) bounds[b.high_open ? "below" : "maximum"] = static_cast<double>(b.high);
    if (b.infinite) bounds["allow_inf"] = true;
    if (b.absent) bounds["absent"] = true;
    d["bounds"] = bounds;
  }
  return d;
}

}  // namespace parameters

// Binds P as a struct of defaults, each field by name.
template <class P, class Scope>
void bind_params(Scope& scope, const char* name) {
  py::class_<P> c(scope, name);
  c.def(py::init<>());
  std::apply(
      [&](const auto&... f) {
        (c.def_property(
             f.name, [f](const P& p) { return parameters::field_to_python(f, p.*(f.member)); },
             [f](P& p, const py::object& value) { p.*(f.member) = parameters::field_from_python(f, value); }, f.doc),
         ...);
      },
      P::fields());
}

template <class B>
py::class_<B, Behavior, std::shared_ptr<B>> bind_behavior(py::module_& m, const char* name) {
  using P = typename B::Params;
  py::class_<B, Behavior, std::shared_ptr<B>> c(m, name);
  bind_params<P>(c, "Params");
  py::list fields;
  std::apply(
      [&](const auto&... f) {
        (fields.append(parameters::describe(f)), ...);
        (c.def_property(
             f.name, [f](const B& b) { return parameters::field_to_python(f, b.params().*(f.member)); },
             [f](B& b, const py::object& value) {
               P changed = b.params();
               changed.*(f.member) = parameters::field_from_python(f, value);
               b.set_params(changed, f.name);
             },
             f.doc),
         ...);
      },
      P::fields());
  c.attr("_fields") = fields;
  return c;
}

}  // namespace contextsteer::bindings
