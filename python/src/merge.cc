// simdex.merge: include/simdex/merge.h for Python. The merger is the one
// the registry makes for the old file's kind (IndexFileMerger), so that one
// function grows an index of any kind: a SimHash index takes fingerprints,
// a MinHash-LSH index signatures or texts (signed with its options).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/index_handle.h"
#include "python/src/module.h"
#include "python/src/signature_rows.h"
#include "simdex/merge.h"

namespace py = pybind11;

namespace simdex::python {

namespace {

// The signing of the signatures the old file holds (its profile), for
// signatures= and texts=.
MinHashOptions SigningOf(const IndexFile& old, const std::string& path) {
  MinHashOptions options;
  if (!ParseMinHashProfile(old.profile(), &options).ok()) {
    throw py::value_error(path + " is a " + std::string(FindIndexKind(old.kind())->name()) +
                          " index: it holds no MinHash signatures");
  }
  return options;
}

// Adds the batch: (ids, fingerprints), (ids, signatures) or (ids, texts).
void AddBatch(IndexFileMerger* merger, const IndexFile& old, const std::string& path, py::handle ids,
              py::handle fingerprints, py::handle signatures, py::handle texts, int threads) {
  if (!signatures.is_none() && !texts.is_none()) throw py::value_error("give signatures or texts, not both");
  if (!fingerprints.is_none()) {
    const ArrayView<uint64_t> add_ids = ViewArray<uint64_t>(ids, "ids");
    const ArrayView<uint64_t> add_fps = ViewArray<uint64_t>(fingerprints, "fingerprints");
    CheckSameLength(add_ids.span.size(), add_fps.span.size(), "fingerprints");
    py::gil_scoped_release release;
    ThrowIfError(merger->Add(add_ids.span, add_fps.span));
  } else if (!texts.is_none()) {
    const MinHashOptions signing = SigningOf(old, path);
    std::vector<std::vector<uint64_t>> shingles;
    auto [rows, has] = SignWith(signing, py::reinterpret_borrow<py::sequence>(texts), threads, &shingles);
    AddRows(merger, ids, rows.data(), static_cast<size_t>(has.size()), static_cast<size_t>(signing.num_perm),
            "texts", &shingles);
  } else if (!signatures.is_none()) {
    const size_t k = static_cast<size_t>(SigningOf(old, path).num_perm);
    const RowsView<uint32_t> rows = ViewRows<uint32_t>(signatures, k, "signatures");
    AddRows(merger, ids, rows.data, rows.rows, k, "signatures");
  } else if (py::len(ids) > 0) {
    throw py::value_error("ids without fingerprints, signatures or texts");
  }
}

// Deletes the old records of ids: a numeric array, or ints and str.
void DeleteIds(IndexFileMerger* merger, py::handle deleted) {
  if (NumericArray(deleted) || !py::isinstance<py::sequence>(deleted)) {
    const ArrayView<uint64_t> del = ViewArray<uint64_t>(deleted, "delete");
    for (uint64_t id : del.span) ThrowIfError(merger->Delete(id));
    return;
  }
  const py::sequence seq = py::reinterpret_borrow<py::sequence>(deleted);
  for (size_t i = 0; i < seq.size(); ++i) {
    ThrowIfError(
        WithId(seq[i], "delete[" + std::to_string(i) + "]", [&](const auto& id) { return merger->Delete(id); }));
  }
}

py::dict Merge(const std::string& old_path, const std::string& out, py::handle ids, py::handle fingerprints,
               py::handle signatures, py::handle texts, py::handle deleted, size_t memory, const std::string& tmpdir,
               int threads, std::optional<std::string> profile, const std::string& existing_ids) {
  MergeOptions options;
  options.existing_ids = Named<ExistingIds>(
      existing_ids, "existing_ids",
      {{"refuse", ExistingIds::kRefuse}, {"replace", ExistingIds::kReplace}, {"keep", ExistingIds::kKeep}});
  options.memory_bytes = memory;
  options.tmpdir = tmpdir;
  options.threads = ResolveThreads(threads, 1);
  options.profile = profile.value_or("");
  std::unique_ptr<IndexFile> old;
  std::unique_ptr<IndexFileMerger> merger;
  {
    py::gil_scoped_release release;
    ThrowIfError(OpenIndexFile(old_path, ReaderOptions(), &old));
    ThrowIfError(IndexFileMerger::Create(*old, out, options, &merger));
  }
  AddBatch(merger.get(), *old, old_path, ids, fingerprints, signatures, texts, options.threads);
  DeleteIds(merger.get(), deleted);
  WithoutGil([&] { return merger->Finish(); });
  const MergeStats st = merger->stats();
  const std::string records(FindIndexKind(old->kind())->records_name());
  py::dict d;
  d[py::str("old_" + records)] = st.old_entries;
  d["added"] = st.added;
  d["deleted"] = st.deleted;
  d["ids_not_found"] = st.ids_not_found;
  d["replaced"] = st.replaced;
  d[py::str(records)] = st.entries;
  d["file_bytes"] = st.file_bytes;
  d["seconds"] = st.seconds;
  return d;
}

}  // namespace

void DefineMerge(py::module_& m) {
  m.def("merge", &Merge, py::arg("old"), py::arg("out"), py::kw_only(), py::arg("ids") = py::array_t<uint64_t>(0),
        py::arg("fingerprints") = py::none(), py::arg("signatures") = py::none(), py::arg("texts") = py::none(),
        py::arg("delete") = py::array_t<uint64_t>(0), py::arg("memory") = size_t{1} << 30, py::arg("tmpdir") = "",
        py::arg("threads") = 1, py::arg("profile") = py::none(), py::arg("existing_ids") = "refuse",
        R"doc(Writes `out`: the index at `old` plus a batch, minus the old records whose id is in `delete` (ints,
or str), with the merger of old's kind (IndexFileMerger); byte-identical to a fresh build over the same records
(docs/minhash.md, "Growing an index", for MinHash-LSH's one exception). A SimHash index takes (ids, fingerprints)
and profile (the fingerprints' Fingerprinter.profile: another than old's raises ValueError naming both); a
MinHash-LSH index (ids, signatures) or (ids, texts), signed with old's options on `threads` threads; a batch of
another kind's records raises ValueError naming both. existing_ids: an id old holds already is refused
("refuse", as `simdex merge`: ValueError naming it), or its old records are replaced ("replace", as --replace),
or both kept ("keep": the id is then stored twice). `out` may be `old` itself (replaced by a rename). `memory`
bounds the merge's buffers (MinHash-LSH: at least 256 KiB per band), past which they spill to `tmpdir` ('' =
the output's directory). Returns merge statistics as a dict: old_entries and entries (MinHash-LSH:
old_documents and documents), added, deleted, ids_not_found, replaced, file_bytes, seconds.)doc");
}

}  // namespace simdex::python
