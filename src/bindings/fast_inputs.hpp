// Inputs the Python-side checks (python/contextsteer/_internal/validation.py) pass unchanged,
// recognised in one pass in C++ so that small calls skip those checks.
//
// Each helper answers true only for input those checks accept, and gives it exactly as
// they would hand it on (float32, C order): an exact numpy.ndarray of native float32 or
// float64 in C order, or a flat list or tuple of Python floats and ints (not bools);
// every value within +-kMaxMagnitude (so neither NaN nor inf); scalars a Python float
// or int within the same bound. For anything else -- other dtypes, byte-swapped,
// non-contiguous or empty arrays, ndarray subclasses, nested lists, numpy scalars, an
// out-of-range value -- they answer false and the caller takes the Python path, whose
// checks convert the input or raise the documented error. So the accepted inputs, the
// error messages and the exception types are those of the Python checks by construction.
#pragma once

#include <Python.h>

#include <cmath>
#include <string>
#include <vector>

#include "arrays.hpp"

namespace contextsteer::bindings {

// A checked real array: float32 data in C order, borrowed from the input or converted.
struct FastArray {
  int ndim = 0;
  py::ssize_t shape[3] = {0, 0, 0};
  py::ssize_t size = 0;
  const Real* borrowed = nullptr;
  std::vector<Real> converted;
  bool owns = false;

  const Real* data() const { return owns ? converted.data() : borrowed; }
};

namespace fast_detail {

// A Python float (or subclass, as numpy.float64) or int (not bool) as a double; false for
// anything else, and for an int beyond double's range.
inline bool python_real(PyObject* item, double& out) {
  if (PyFloat_Check(item)) {
    out = PyFloat_AS_DOUBLE(item);
    return true;
  }
  if (PyLong_CheckExact(item)) {
    out = PyLong_AsDouble(item);
    if (out == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    return true;
  }
  return false;
}

inline bool within(double x) { return std::fabs(x) <= static_cast<double>(kMaxMagnitude); }

inline bool from_ndarray(PyObject* obj, int min_ndim, int max_ndim, FastArray& out) {
  const auto* proxy = py::detail::array_proxy(obj);
  if (proxy->nd < min_ndim || proxy->nd > max_ndim) return false;
  const int needed = py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_ | py::detail::npy_api::NPY_ARRAY_ALIGNED_;
  if ((proxy->flags & needed) != needed) return false;
  const auto dtype = py::reinterpret_borrow<py::dtype>(proxy->descr);
  const int num = dtype.num();
  const bool is_float = num == py::detail::npy_api::NPY_FLOAT_;
  const bool is_double = num == py::detail::npy_api::NPY_DOUBLE_;
  if ((!is_float && !is_double) || dtype.byteorder() == '>' || dtype.byteorder() == '<') {
    // '<' or '>' only when not native: numpy writes native order as '='.
    return false;
  }
  out.ndim = proxy->nd;
  out.size = 1;
  for (int d = 0; d < proxy->nd; ++d) {
    out.shape[d] = proxy->dimensions[d];
    out.size *= proxy->dimensions[d];
  }
  if (out.size == 0) return false;
  if (is_float) {
    const Real* p = reinterpret_cast<const Real*>(proxy->data);
    for (py::ssize_t i = 0; i < out.size; ++i)
      if (!within_bound(p[i])) return false;
    out.borrowed = p;
    return true;
  }
  const double* p = reinterpret_cast<const double*>(proxy->data);
  out.converted.resize(static_cast<std::size_t>(out.size));
  for (py::ssize_t i = 0; i < out.size; ++i) {
    if (!within(p[i])) return false;
    out.converted[i] = static_cast<Real>(p[i]);
  }
  out.owns = true;
  return true;
}

inline bool from_sequence(PyObject* obj, FastArray& out) {
  const py::ssize_t n = PySequence_Fast_GET_SIZE(obj);
  if (n == 0) return false;
  PyObject** items = PySequence_Fast_ITEMS(obj);
  out.converted.resize(static_cast<std::size_t>(n));
  for (py::ssize_t i = 0; i < n; ++i) {
    double x = 0;
    if (!python_real(items[i], x) || !within(x)) return false;
    out.converted[i] = static_cast<Real>(x);
  }
  out.ndim = 1;
  out.shape[0] = out.size = n;
  out.owns = true;
  return true;
}

}  // namespace fast_detail

// `value` as the Python checks would accept it (check.real_array), with min_ndim to
// max_ndim (at most 3) dimensions and at least one value.
inline bool fast_real_array(py::handle value, int min_ndim, int max_ndim, FastArray& out) {
  PyObject* obj = value.ptr();
  if (Py_TYPE(obj) == py::detail::npy_api::get().PyArray_Type_)
    return fast_detail::from_ndarray(obj, min_ndim, max_ndim, out);
  if ((PyList_CheckExact(obj) || PyTuple_CheckExact(obj)) && min_ndim <= 1 && max_ndim >= 1)
    return fast_detail::from_sequence(obj, out);
  return false;
}

// A number as check.number accepts it: a Python float or int within +-kMaxMagnitude,
// and at least `minimum` (which is -inf or 0 here, so that the float32 rounding the
// core sees keeps the bound).
inline bool fast_number(py::handle value, double minimum, Real& out) {
  double x = 0;
  if (!fast_detail::python_real(value.ptr(), x) || !fast_detail::within(x) || !(x >= minimum)) return false;
  out = static_cast<Real>(x);
  return true;
}

// A mode name as check.name accepts it: a str, given as UTF-8.
inline bool fast_name(py::handle value, std::string& out) {
  if (!PyUnicode_Check(value.ptr())) return false;
  py::ssize_t length = 0;
  const char* text = PyUnicode_AsUTF8AndSize(value.ptr(), &length);
  if (text == nullptr) {  // lone surrogates: the Python path reports them
    PyErr_Clear();
    return false;
  }
  out.assign(text, static_cast<std::size_t>(length));
  return true;
}

}  // namespace contextsteer::bindings
