// The contextsteer._core extension module: bindings only, no logic of their own.
#include <pybind11/pybind11.h>

#include "contextsteer/base/real.hpp"

namespace contextsteer::bindings {
void bind_context_map(pybind11::module_& m);
void bind_navigation_field(pybind11::module_& m);
void bind_behaviors(pybind11::module_& m);
void bind_python_behavior(pybind11::module_& m);
void bind_pipeline(pybind11::module_& m);
void bind_steering(pybind11::module_& m);
void bind_world(pybind11::module_& m);
void bind_moving_obstacles(pybind11::module_& m);
void bind_navigation_field_from_world(pybind11::module_& m);
}  // namespace contextsteer::bindings

PYBIND11_MODULE(_core, m) {
  m.doc() = "C++ core of contextsteer. Use the contextsteer package, which checks inputs first.";
  m.attr("MAX_MAGNITUDE") = contextsteer::kMaxMagnitude;
  m.attr("MIN_TIME_STEP") = contextsteer::kMinTimeStep;
  m.attr("MIN_MASS") = contextsteer::kMinMass;
  contextsteer::bindings::bind_context_map(m);
  contextsteer::bindings::bind_navigation_field(m);
  contextsteer::bindings::bind_behaviors(m);
  contextsteer::bindings::bind_python_behavior(m);
  contextsteer::bindings::bind_pipeline(m);
  contextsteer::bindings::bind_steering(m);
  contextsteer::bindings::bind_world(m);
  contextsteer::bindings::bind_moving_obstacles(m);
  contextsteer::bindings::bind_navigation_field_from_world(m);
}
