#include "python/src/errors.h"

namespace py = pybind11;

namespace simdex::python {

void RegisterErrors(py::module_& m) {
  static py::exception<StatusError> error(m, "Error", PyExc_RuntimeError);
  error.doc() = "Base class of the errors simdex raises besides ValueError and OSError.";
  static py::exception<StatusError> corruption(m, "CorruptionError", error.ptr());
  corruption.doc() = "Stored or input bytes are not what the format allows (a damaged index, a bad record).";
  static PyObject* not_found_bases = PyTuple_Pack(2, error.ptr(), PyExc_KeyError);
  static py::exception<StatusError> not_found(m, "NotFoundError", not_found_bases);
  not_found.doc() = "A looked-up item (a string id, a file) does not exist.";
  static py::exception<StatusError> not_supported(m, "NotSupportedError", error.ptr());
  not_supported.doc() = "The operation is not supported for these inputs.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const StatusError& e) {
      const Status& s = e.status();
      PyObject* type = error.ptr();
      if (s.IsInvalidArgument()) type = PyExc_ValueError;
      else if (s.IsIOError()) type = PyExc_OSError;
      else if (s.IsCorruption()) type = corruption.ptr();
      else if (s.IsNotFound()) type = not_found.ptr();
      else if (s.IsNotSupported()) type = not_supported.ptr();
      PyErr_SetString(type, s.message().c_str());
    }
  });
}

}  // namespace simdex::python
