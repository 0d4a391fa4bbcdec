// FileHandle: the object behind simdex.Index and simdex.LshIndex, over a
// ReloadingIndexFile of one kind. Each call takes the serving version (a
// shared reader) before releasing the GIL, so neither close() nor a reload
// on another thread ever unmaps a file a call is searching.
#ifndef SIMDEX_PYTHON_INDEX_HANDLE_H_
#define SIMDEX_PYTHON_INDEX_HANDLE_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "simdex/index.h"
#include "simdex/index_file.h"
#include "simdex/reloading_index.h"

namespace simdex::python {

// `s`, the error of opening path as a file of `wanted`, with the Python
// opener of the file's own kind named when it is of another kind.
Status WithOpenerHint(Status s, const std::string& path, const IndexFileKind& wanted);

// The ReaderOptions of an opener's keywords; access and cold_reads by the
// library's names (ParseAccess, ParseColdReads), a ValueError naming a bad
// one and the allowed ones.
ReaderOptions OpenerOptions(bool verify_block_checksums, bool verify_heads_on_open, const std::string& access,
                            const std::string& cold_reads);

// Defines cls.open(path, *, verify_block_checksums=False,
// verify_heads_on_open=True, check_period=0.0, preload=False, access=...,
// cold_reads=...) (the last two default to ReaderOptions') as
// open(path, reader options, check_period, preload), documented by doc.
template <class Class, class Open>
void DefOpen(Class& cls, Open open, const char* doc) {
  namespace py = pybind11;
  cls.def_static(
      "open",
      [open](const std::string& path, bool verify_block_checksums, bool verify_heads_on_open, double check_period,
             const py::object& preload, const std::string& access, const std::string& cold_reads) {
        return open(path, OpenerOptions(verify_block_checksums, verify_heads_on_open, access, cold_reads),
                    check_period, preload);
      },
      py::arg("path"), py::kw_only(), py::arg("verify_block_checksums") = false,
      py::arg("verify_heads_on_open") = true, py::arg("check_period") = 0.0, py::arg("preload") = false,
      py::arg("access") = std::string(AccessName(ReaderOptions().access)),
      py::arg("cold_reads") = std::string(ColdReadsName(ReaderOptions().cold_reads)), doc);
}

// Opens path as a file of `kind` held by path (ReloadingIndexFile) with
// `reader`: check period in seconds (0: reload() alone) and preload False,
// True (read every page) or "lock" (read and mlock; a refused lock is a
// RuntimeWarning saying why). Raises the error of a file that cannot be
// opened.
std::unique_ptr<ReloadingIndexFile> OpenReloading(const std::string& path, const IndexFileKind& kind,
                                                  const ReaderOptions& reader, double check_period,
                                                  const pybind11::object& preload);

// The handle of a file whose versions are all Reader's (IndexReader,
// LshIndexReader); Derived is the Python class's own handle.
template <class Reader, class Derived>
class FileHandle {
 public:
  static std::shared_ptr<Derived> Open(const IndexFileKind& kind, const std::string& path, const ReaderOptions& reader,
                                       double check_period, const pybind11::object& preload) {
    auto h = std::make_shared<Derived>();
    h->index_ = OpenReloading(path, kind, reader, check_period, preload);
    h->path_ = path;
    return h;
  }

  // The serving version; ValueError after close().
  std::shared_ptr<const Reader> reader() const { return index()->template CurrentAs<Reader>(); }
  // Switches to the file the path names now if it changed; raises the new
  // file's error if it is refused (the old one keeps serving).
  bool Reload() {
    std::shared_ptr<ReloadingIndexFile> index = this->index();
    bool switched = false;
    WithoutGil([&] { return index->Reload(&switched); });
    return switched;
  }
  uint64_t version() const { return index()->version(); }
  void Close() { index_.reset(); }
  bool open() const { return index_ != nullptr; }
  const std::string& path() const { return path_; }

 private:
  std::shared_ptr<ReloadingIndexFile> index() const {
    if (!index_) throw pybind11::value_error("the index " + path_ + " is closed");
    return index_;
  }

  std::shared_ptr<ReloadingIndexFile> index_;
  std::string path_;
};

class IndexHandle : public FileHandle<IndexReader, IndexHandle> {};

// ids as a np.uint64 array, or as an object array of str when the index has
// string ids (an IndexReader or an LshIndexReader).
template <typename Reader>
pybind11::object IdsObject(const Reader& reader, const pybind11::array_t<uint64_t>& numbers) {
  namespace py = pybind11;
  if (!reader.has_string_ids()) return numbers;
  return ObjectArray(static_cast<size_t>(numbers.size()), [&](size_t i) {
    const std::string_view s = reader.IdString(numbers.data()[i]);
    PyObject* str = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
    if (str == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(str);
  });
}

// The methods Index and LshIndex share: verify(), id_string(), find_id(),
// reload(), version, close(), path, has_string_ids and the context manager. Handle is a
// FileHandle.
template <typename Class>
void DefineReaderMethods(Class& cls) {
  namespace py = pybind11;
  using Handle = typename Class::type;
  cls.def("reload", [](Handle& h) { return h.Reload(); },
          "Switches to the file the path names now, if `simdex build` or `simdex merge` renamed a new one into "
          "place: returns True if it switched. Calls in flight finish on the old file. A new file that is "
          "damaged, of another kind or of another layout (a SimHash scheme; MinHash-LSH bands and threshold) "
          "raises its error and the old file keeps serving.")
      .def_property_readonly("version", [](const Handle& h) { return h.version(); },
                             "1 for the file opened first, one more for each reload that switched.")
      .def("close", [](Handle& h) { h.Close(); }, "Unmaps the file (calls running on other threads finish first).")
      .def("__enter__", [](std::shared_ptr<Handle> h) { return h; })
      .def("__exit__", [](Handle& h, py::args) { h.Close(); })
      .def_property_readonly("path", [](const Handle& h) { return h.path(); })
      .def_property_readonly("has_string_ids", [](const Handle& h) { return h.reader()->has_string_ids(); });
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
