// numpy arrays in and out of the bindings.
//
// Inputs: a 1-D C-contiguous numpy array of the exact dtype is used in
// place (no copy); the caller keeps the returned holder alive while the
// span is used. A numpy array of another dtype is a TypeError, of another
// shape or layout a ValueError, each naming the argument. A Python sequence
// of ints (a list) is converted (a copy), with the same errors for values
// out of range.
#ifndef SIMDEX_PYTHON_ARRAYS_H_
#define SIMDEX_PYTHON_ARRAYS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace simdex::python {

namespace py = pybind11;

template <typename T>
struct ArrayView {
  py::array_t<T> holder;  // keeps the memory alive
  std::span<const T> span;
};

// `what` names the argument in errors ("fingerprints").
// The name numpy gives a dtype ("uint64").
inline std::string DtypeName(const py::dtype& d) { return py::str(py::handle(d)).cast<std::string>(); }

// TypeError unless a's dtype is T's.
template <typename T>
void CheckDtype(const py::array& a, const char* what) {
  const py::dtype want = py::dtype::of<T>();
  if (!a.dtype().is(want) && !a.dtype().equal(want)) {
    throw py::type_error(std::string(what) + " must be a numpy array of dtype " + DtypeName(want) + ", got dtype " +
                         DtypeName(a.dtype()) + " (convert with .astype(np." + DtypeName(want) + "))");
  }
}

// ValueError unless a is C-contiguous.
inline void CheckContiguous(const py::array& a, const char* what) {
  if (!(a.flags() & py::array::c_style)) {
    throw py::value_error(std::string(what) + " must be C-contiguous (use np.ascontiguousarray)");
  }
}

template <typename T>
ArrayView<T> ViewArray(py::handle obj, const char* what) {
  ArrayView<T> view;
  if (py::isinstance<py::array>(obj)) {
    py::array a = py::reinterpret_borrow<py::array>(obj);
    CheckDtype<T>(a, what);
    if (a.ndim() != 1) {
      throw py::value_error(std::string(what) + " must be a 1-D array, got " + std::to_string(a.ndim()) +
                            " dimensions (shape " + py::str(py::object(a.attr("shape"))).cast<std::string>() + ")");
    }
    CheckContiguous(a, what);
    view.holder = py::reinterpret_borrow<py::array_t<T>>(a);
  } else if (py::isinstance<py::sequence>(obj) && !py::isinstance<py::str>(obj) && !py::isinstance<py::bytes>(obj)) {
    const py::sequence seq = py::reinterpret_borrow<py::sequence>(obj);
    py::array_t<T> copy(static_cast<py::ssize_t>(seq.size()));
    T* out = copy.mutable_data();
    for (size_t i = 0; i < seq.size(); ++i) {
      try {
        out[i] = seq[i].cast<T>();
      } catch (const py::cast_error&) {
        throw py::type_error(std::string(what) + "[" + std::to_string(i) + "] is not a valid " +
                             DtypeName(py::dtype::of<T>()) + ": " +
                             py::repr(seq[i]).cast<std::string>());
      }
    }
    view.holder = std::move(copy);
  } else {
    throw py::type_error(std::string(what) + " must be a 1-D numpy array or a sequence, got " +
                         py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>());
  }
  view.span = std::span<const T>(view.holder.data(), static_cast<size_t>(view.holder.size()));
  return view;
}

// Rows of `width` values: a C-contiguous n x width numpy array of the exact
// dtype (used in place), or a 1-D one of `width` values (one row); the
// errors of ViewArray, and a ValueError naming `what` and `width` for
// another shape.
template <typename T>
struct RowsView {
  py::array_t<T> holder;
  size_t rows = 0;
  const T* data = nullptr;  // rows x width values
};

template <typename T>
RowsView<T> ViewRows(py::handle obj, size_t width, const char* what) {
  RowsView<T> view;
  py::array a = py::isinstance<py::array>(obj) ? py::reinterpret_borrow<py::array>(obj)
                                               : py::array(py::array_t<T, py::array::c_style | py::array::forcecast>(
                                                     py::reinterpret_borrow<py::object>(obj)));
  CheckDtype<T>(a, what);
  const bool one = a.ndim() == 1 && static_cast<size_t>(a.shape(0)) == width;
  if (!one && !(a.ndim() == 2 && static_cast<size_t>(a.shape(1)) == width)) {
    throw py::value_error(std::string(what) + " must be an n x " + std::to_string(width) + " array (or one row of " +
                          std::to_string(width) + " values), got shape " +
                          py::str(py::object(a.attr("shape"))).cast<std::string>());
  }
  CheckContiguous(a, what);
  view.holder = py::reinterpret_borrow<py::array_t<T>>(a);
  view.rows = one ? 1 : static_cast<size_t>(a.shape(0));
  view.data = view.holder.data();
  return view;
}

// Values in pieces: a list or tuple of numpy arrays (each as ViewArray,
// named what[i]), or anything ViewArray takes as one piece.
template <typename T>
std::vector<ArrayView<T>> ViewPieces(py::handle obj, const char* what) {
  std::vector<ArrayView<T>> pieces;
  if ((py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) && py::len(obj) > 0 &&
      py::isinstance<py::array>(py::reinterpret_borrow<py::sequence>(obj)[0])) {
    const py::sequence seq = py::reinterpret_borrow<py::sequence>(obj);
    for (size_t i = 0; i < seq.size(); ++i) {
      pieces.push_back(ViewArray<T>(seq[i], (std::string(what) + "[" + std::to_string(i) + "]").c_str()));
    }
  } else {
    pieces.push_back(ViewArray<T>(obj, what));
  }
  return pieces;
}

// The spans of pieces, for the library's calls.
template <typename T>
std::vector<std::span<const T>> Spans(const std::vector<ArrayView<T>>& pieces) {
  std::vector<std::span<const T>> spans;
  for (const ArrayView<T>& p : pieces) spans.push_back(p.span);
  return spans;
}

// Flags, one byte each, non-zero meaning set: a bool, int8 or uint8 array
// (e.g. the empty reasons of fingerprint_file), used in place; None gives
// an empty span.
struct FlagsView {
  py::array holder;
  std::span<const uint8_t> span;
};
inline FlagsView ViewFlags(py::handle obj, const char* what) {
  FlagsView view;
  if (obj.is_none()) return view;
  if (py::isinstance<py::array>(obj)) {
    py::array a = py::reinterpret_borrow<py::array>(obj);
    const char kind = a.dtype().kind();
    if ((kind == 'b' || kind == 'i' || kind == 'u') && a.itemsize() == 1) {
      if (a.ndim() != 1) throw py::value_error(std::string(what) + " must be a 1-D array");
      CheckContiguous(a, what);
      view.holder = a;
      view.span = std::span<const uint8_t>(static_cast<const uint8_t*>(a.data()), static_cast<size_t>(a.size()));
      return view;
    }
  }
  const ArrayView<bool> flags = ViewArray<bool>(obj, what);  // the errors of a bool array
  view.holder = flags.holder;
  view.span = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(flags.span.data()), flags.span.size());
  return view;
}

// A new 1-D array holding `values`.
template <typename T>
py::array_t<T> ToArray(const std::vector<T>& values) {
  py::array_t<T> a(static_cast<py::ssize_t>(values.size()));
  if (!values.empty()) std::copy(values.begin(), values.end(), a.mutable_data());
  return a;
}

// New 1-D arrays of n elements, one per T: element i of each is the value in
// its place of row(i), a std::tuple<T...>. The rows are made with the GIL
// released: row() must not touch Python objects.
template <typename... T, typename Row>
std::tuple<py::array_t<T>...> Columns(size_t n, Row&& row) {
  std::tuple<py::array_t<T>...> columns{py::array_t<T>(static_cast<py::ssize_t>(n))...};
  std::tuple<T*...> out = std::apply([](auto&... c) { return std::tuple<T*...>{c.mutable_data()...}; }, columns);
  py::gil_scoped_release release;
  for (size_t i = 0; i < n; ++i) {
    const std::tuple<T...> values = row(i);
    [&]<size_t... I>(std::index_sequence<I...>) { ((std::get<I>(out)[i] = std::get<I>(values)), ...); }(
        std::index_sequence_for<T...>{});
  }
  return columns;
}

// A new 1-D object array of n elements: element i is item(i) (a py::object).
template <typename Item>
py::array ObjectArray(size_t n, Item&& item) {
  py::array out(py::dtype("O"), std::vector<py::ssize_t>{static_cast<py::ssize_t>(n)});
  PyObject** slot = static_cast<PyObject**>(out.mutable_data());
  for (size_t i = 0; i < n; ++i) {
    py::object element = item(i);
    Py_XDECREF(slot[i]);
    slot[i] = element.release().ptr();
  }
  return out;
}

// A 64-bit fingerprint from a Python int (TypeError/ValueError otherwise).
uint64_t ToFingerprint(py::handle obj, const char* what);

// The UTF-8 bytes of a str id. A str UTF-8 cannot encode (a lone surrogate,
// '\ud800') is a ValueError naming `what` and the id, where pybind11's
// cast said "Unable to cast Python instance to C++ type".
// REQUIRES: obj is a str.
std::string StrId(py::handle obj, const std::string& what);

// f(id) for an id given as a str (StrId) or an int (ToFingerprint); `what`
// names it in errors ("ids[3]").
template <typename F>
auto WithId(py::handle id, const std::string& what, F&& f) {
  if (py::isinstance<py::str>(id)) return f(StrId(id, what));
  return f(ToFingerprint(id, what.c_str()));
}

// Whether ids is a numpy array of numbers (not of objects).
inline bool NumericArray(py::handle ids) {
  return py::isinstance<py::array>(ids) && py::reinterpret_borrow<py::array>(ids).dtype().kind() != 'O';
}

// ValueError unless there are as many ids as `what` (their rows).
inline void CheckSameLength(size_t ids, size_t rows, const char* what) {
  if (ids != rows) {
    throw py::value_error("ids and " + std::string(what) + " differ in length: " + std::to_string(ids) + " and " +
                          std::to_string(rows));
  }
}

}  // namespace simdex::python

#endif  // SIMDEX_PYTHON_ARRAYS_H_
