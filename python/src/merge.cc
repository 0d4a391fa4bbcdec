// simdex.merge: include/simdex/merge.h for Python.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/index_handle.h"
#include "python/src/module.h"
#include "simdex/merge.h"

namespace py = pybind11;

namespace simdex::python {

ExistingIds ExistingIdsOf(const std::string& name) {
  if (name == "refuse") return ExistingIds::kRefuse;
  if (name == "replace") return ExistingIds::kReplace;
  if (name == "keep") return ExistingIds::kKeep;
  throw py::value_error("existing_ids '" + name + "' is not refuse, replace or keep");
}

void DefineMerge(py::module_& m) {
  m.def("merge", [](const std::string& old_path, const std::string& out, py::handle ids, py::handle fingerprints,
                    py::handle deleted, size_t memory, const std::string& tmpdir, int threads,
                    std::optional<std::string> profile, const std::string& existing_ids) {
          const ExistingIds existing = ExistingIdsOf(existing_ids);
          const ArrayView<uint64_t> add_ids = ViewArray<uint64_t>(ids, "ids");
          const ArrayView<uint64_t> add_fps = ViewArray<uint64_t>(fingerprints, "fingerprints");
          const ArrayView<uint64_t> del = ViewArray<uint64_t>(deleted, "delete");
          if (add_ids.span.size() != add_fps.span.size()) {
            throw py::value_error("ids and fingerprints differ in length: " + std::to_string(add_ids.span.size()) +
                                  " and " + std::to_string(add_fps.span.size()));
          }
          MergeStats st;
          {
            py::gil_scoped_release release;
            std::unique_ptr<IndexReader> old;
            ThrowIfError(IndexReader::Open(old_path, ReaderOptions(), &old));
            MergeOptions o;
            o.memory_bytes = memory;
            o.tmpdir = tmpdir;
            o.threads = ResolveThreads(threads, 1);
            o.profile = profile.value_or("");
            o.existing_ids = existing;
            std::unique_ptr<IndexMerger> merger;
            ThrowIfError(IndexMerger::Create(old.get(), out, o, &merger));
            ThrowIfError(merger->Add(add_ids.span, add_fps.span));
            for (uint64_t id : del.span) ThrowIfError(merger->Delete(id));
            ThrowIfError(merger->Finish());
            st = merger->stats();
          }
          using namespace pybind11::literals;
          return py::dict("old_entries"_a = st.old_entries, "added"_a = st.added, "deleted"_a = st.deleted,
                          "ids_not_found"_a = st.ids_not_found, "replaced"_a = st.replaced, "entries"_a = st.entries,
                          "file_bytes"_a = st.file_bytes, "seconds"_a = st.seconds);
        }, py::arg("old"), py::arg("out"), py::kw_only(), py::arg("ids") = py::array_t<uint64_t>(0),
        py::arg("fingerprints") = py::array_t<uint64_t>(0), py::arg("delete") = py::array_t<uint64_t>(0),
        py::arg("memory") = size_t{1} << 30, py::arg("tmpdir") = "", py::arg("threads") = 1,
        py::arg("profile") = py::none(), py::arg("existing_ids") = "refuse",
        R"doc(Writes `out`: the index at `old` plus the entries (ids, fingerprints), minus the old entries whose id
is in `delete`, without re-sorting old's tables; byte-identical to a fresh build over the same entries.
existing_ids: an id old holds already is refused ("refuse", as `simdex merge`: ValueError naming it), or its
old entries are replaced ("replace", as --replace), or both kept ("keep": the id is then stored twice).
`out` may be `old` itself (replaced by a rename). profile: the added fingerprints' profile
(Fingerprinter.profile): one other than old's raises ValueError naming both; the result records old's
profile, or this one when old records none. Returns merge statistics as a dict.)doc");
}

}  // namespace simdex::python
