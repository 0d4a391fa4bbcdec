// Errors: a simdex::Status that is not OK becomes a Python exception carrying
// the library's message. The C++ side throws StatusError (safe with the GIL
// released); the translator registered by RegisterErrors() raises, by code:
//   InvalidArgument -> ValueError        IOError      -> OSError
//   Corruption      -> simdex.CorruptionError (a simdex.Error)
//   NotFound        -> simdex.NotFoundError (a simdex.Error and a KeyError)
//   NotSupported    -> simdex.NotSupportedError (a simdex.Error)
#ifndef SIMDEX_PYTHON_ERRORS_H_
#define SIMDEX_PYTHON_ERRORS_H_

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <type_traits>

#include "simdex/status.h"

namespace simdex::python {

class StatusError : public std::runtime_error {
 public:
  explicit StatusError(Status status) : std::runtime_error(status.message()), status_(std::move(status)) {}
  const Status& status() const { return status_; }

 private:
  Status status_;
};

inline void ThrowIfError(const Status& s) {
  if (!s.ok()) throw StatusError(s);
}

// Runs call() with the GIL released, then raises the Status it returns
// unless OK (a call returning void raises nothing).
template <typename Call>
void WithoutGil(Call&& call) {
  pybind11::gil_scoped_release release;
  if constexpr (std::is_void_v<std::invoke_result_t<Call&>>) {
    call();
  } else {
    ThrowIfError(call());
  }
}

// Creates simdex.Error and its subclasses in `m` and registers the
// translator.
void RegisterErrors(pybind11::module_& m);

}  // namespace simdex::python

#endif  // SIMDEX_PYTHON_ERRORS_H_
