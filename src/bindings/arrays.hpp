// Array helpers shared by the binding files: the input array type and zero-copy views
// of the core's shared buffers.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/geometry/geometry.hpp"
#include "contextsteer/world/agent_store.hpp"

namespace contextsteer::bindings {

namespace py = pybind11;

// Inputs arrive as C-contiguous float32, converted by pybind11 when needed; the Python
// layer has already checked shapes and values with messages that name the argument.
using RealArray = py::array_t<Real, py::array::c_style | py::array::forcecast>;

// Throws ValueError unless `a` has `ndim` dimensions and, where `shape` gives a value
// >= 0, that extent. A guard for direct users of _core; the Python layer checks first.
inline void require_shape(const RealArray& a, const char* argument, std::vector<py::ssize_t> shape) {
  bool ok = a.ndim() == static_cast<py::ssize_t>(shape.size());
  for (std::size_t d = 0; ok && d < shape.size(); ++d) ok = shape[d] < 0 || a.shape(d) == shape[d];
  if (!ok) throw py::value_error(std::string(argument) + ": array has the wrong shape");
}

inline std::vector<Circle> circles_from(const RealArray& a, const char* argument) {
  require_shape(a, argument, {-1, 3});
  std::vector<Circle> circles(a.shape(0));
  const Real* d = a.data();
  for (std::size_t i = 0; i < circles.size(); ++i) circles[i] = Circle{{d[3 * i], d[3 * i + 1]}, d[3 * i + 2]};
  return circles;
}

inline std::vector<Segment> segments_from(const RealArray& a, const char* argument) {
  require_shape(a, argument, {-1, 4});
  std::vector<Segment> segments(a.shape(0));
  const Real* d = a.data();
  for (std::size_t i = 0; i < segments.size(); ++i, d += 4) segments[i] = Segment{{d[0], d[1]}, {d[2], d[3]}};
  return segments;
}

inline std::vector<Vec2> points_from(const RealArray& a, const char* argument) {
  require_shape(a, argument, {-1, 2});
  std::vector<Vec2> points(a.shape(0));
  for (std::size_t i = 0; i < points.size(); ++i) points[i] = load(a.data(), i);
  return points;
}

inline py::array_t<Real> points_to_array(const std::vector<Vec2>& points) {
  py::array_t<Real> out({static_cast<py::ssize_t>(points.size()), py::ssize_t(2)});
  for (std::size_t i = 0; i < points.size(); ++i) store(out.mutable_data(), i, points[i]);
  return out;
}

// A new 1-D array holding a copy of `values`.
template <class T>
py::array_t<T> array_of(const std::vector<T>& values) {
  return py::array_t<T>(static_cast<py::ssize_t>(values.size()), values.data());
}

// Optional typed inputs of other dtypes, converted like RealArray.
using IdArray = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using MaskArray = py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>;

// A NumPy view of a shared buffer; the view's base holds a reference to the buffer, so
// the memory outlives the world that made it and any later growth of that world.
template <class T>
py::array shared_view(const SharedBuffer<T>& buffer, std::vector<py::ssize_t> shape, bool writable,
                      py::dtype dtype = py::dtype::of<T>()) {
  auto* holder = new SharedBuffer<T>(buffer);
  py::capsule base(holder, [](void* p) { delete static_cast<SharedBuffer<T>*>(p); });
  py::array view(dtype, shape, {}, buffer->data(), base);
  if (!writable) view.attr("flags").attr("writeable") = false;
  return view;
}

}  // namespace contextsteer::bindings
