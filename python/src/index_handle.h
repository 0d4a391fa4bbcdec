// IndexHandle: the object behind simdex.Index, over a ReloadingIndex. Each
// call takes the serving version (a shared IndexReader) before releasing the
// GIL, so neither close() nor a reload on another thread ever unmaps a file
// a call is searching.
#ifndef SIMDEX_PYTHON_INDEX_HANDLE_H_
#define SIMDEX_PYTHON_INDEX_HANDLE_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "python/src/errors.h"
#include "simdex/index.h"
#include "simdex/reloading_index.h"

namespace simdex::python {

class IndexHandle {
 public:
  // preload: False, True (read every page) or "lock" (read and mlock; a
  // refused lock is a RuntimeWarning saying why).
  static std::shared_ptr<IndexHandle> Open(const std::string& path, bool verify_block_checksums,
                                           bool verify_heads_on_open, double check_period,
                                           const pybind11::object& preload);

  // The serving version; ValueError after close().
  std::shared_ptr<const IndexReader> reader() const { return index()->Current(); }
  // Switches to the file the path names now if it changed; raises the new
  // file's error if it is refused (the old one keeps serving).
  bool Reload();
  uint64_t version() const { return index()->version(); }
  void Close() { index_.reset(); }
  bool open() const { return index_ != nullptr; }
  const std::string& path() const { return path_; }

 private:
  std::shared_ptr<ReloadingIndex> index() const {
    if (!index_) throw pybind11::value_error("the index " + path_ + " is closed");
    return index_;
  }

  std::shared_ptr<ReloadingIndex> index_;
  std::string path_;
};

// ids as a np.uint64 array, or as an object array of str when the index has
// string ids (an IndexReader or an LshIndexReader).
template <typename Reader>
pybind11::object IdsObject(const Reader& reader, const std::vector<uint64_t>& numbers) {
  namespace py = pybind11;
  if (!reader.has_string_ids()) {
    py::array_t<uint64_t> out(static_cast<py::ssize_t>(numbers.size()));
    std::copy(numbers.begin(), numbers.end(), out.mutable_data());
    return out;
  }
  py::array out(py::dtype("O"), std::vector<py::ssize_t>{static_cast<py::ssize_t>(numbers.size())});
  PyObject** slot = static_cast<PyObject**>(out.mutable_data());
  for (size_t i = 0; i < numbers.size(); ++i) {
    const std::string_view s = reader.IdString(numbers[i]);
    PyObject* str = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
    if (str == nullptr) throw py::error_already_set();
    Py_XDECREF(slot[i]);
    slot[i] = str;
  }
  return out;
}

// The methods Index and LshIndex share: verify(), id_string(), find_id().
// Handle::reader() returns a shared reader with Verify, has_string_ids,
// IdStringCount, IdString and FindIdString.
template <typename Class>
void DefineReaderMethods(Class& cls) {
  namespace py = pybind11;
  using Handle = typename Class::type;
  cls.def("verify", [](const Handle& h) {
         auto reader = h.reader();
         py::gil_scoped_release release;
         ThrowIfError(reader->Verify());
       }, "Checks every rule of docs/format.md; raises simdex.CorruptionError naming the first problem.")
      .def("id_string", [](const Handle& h, uint64_t number) {
         auto r = h.reader();
         if (!r->has_string_ids()) throw py::value_error("the index has numeric ids");
         if (number >= r->IdStringCount()) throw py::index_error("id number " + std::to_string(number) + " is past the id map");
         return std::string(r->IdString(number));
       }, py::arg("number"), "The string of id number `number` (indexes of string ids).")
      .def("find_id", [](const Handle& h, const std::string& id) {
         uint64_t number = 0;
         ThrowIfError(h.reader()->FindIdString(id, &number));
         return number;
       }, py::arg("id"), "The number of a string id; simdex.NotFoundError when no entry has it.");
}

}  // namespace simdex::python

#endif  // SIMDEX_PYTHON_INDEX_HANDLE_H_
