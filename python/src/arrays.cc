#include "python/src/arrays.h"

#include <string>

namespace simdex::python {

uint64_t ToFingerprint(py::handle obj, const char* what) {
  if (!PyLong_Check(obj.ptr()) && !py::isinstance(obj, py::module_::import("numpy").attr("integer"))) {
    throw py::type_error(std::string(what) + " must be an int, got " +
                         py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>());
  }
  const py::int_ value = py::reinterpret_steal<py::int_>(PyNumber_Index(obj.ptr()));
  if (value.ptr() == nullptr || value < py::int_(0) || value > py::int_(~uint64_t{0})) {
    PyErr_Clear();
    throw py::value_error(std::string(what) + " must be in 0..2**64-1, got " + py::repr(obj).cast<std::string>());
  }
  return value.cast<uint64_t>();
}

std::string StrId(py::handle obj, const std::string& what) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(obj.ptr(), &size);
  if (data == nullptr) {
    PyErr_Clear();
    throw py::value_error(what + " " + py::repr(obj).cast<std::string>() +
                          " is not valid text: it holds a lone surrogate, which UTF-8 cannot encode (string ids are "
                          "UTF-8)");
  }
  return std::string(data, static_cast<size_t>(size));
}

}  // namespace simdex::python
