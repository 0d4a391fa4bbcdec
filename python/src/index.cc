// simdex.Index and simdex.IndexBuilder: include/simdex/index.h for Python.
// Searches release the GIL; results come back faiss-style (lims, ids,
// fingerprints, distances).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/index_handle.h"
#include "python/src/module.h"
#include "simdex/index.h"

namespace py = pybind11;

namespace simdex::python {

namespace {

py::dict InfoDict(const IndexInfo& info) {
  using namespace pybind11::literals;
  std::vector<std::string> codecs;
  for (const IndexInfo::Table& t : info.tables) codecs.push_back(t.codec);
  const double bits = info.entries == 0 ? 0.0 : 8.0 * static_cast<double>(info.total_bytes) / static_cast<double>(info.entries);
  return py::dict("entries"_a = info.entries, "distinct_fingerprints"_a = info.distinct_fingerprints,
                  "scheme"_a = info.scheme, "widths"_a = info.widths, "k"_a = info.k, "block_size"_a = info.block_size,
                  "restarts"_a = info.restarts, "tables"_a = info.tables.size(), "codecs"_a = codecs, "string_ids"_a = info.string_ids,
                  "id_map_strings"_a = info.id_map_strings, "format_version"_a = info.format_version,
                  "profile"_a = info.profile.empty() ? py::object(py::none()) : py::object(py::str(info.profile)),
                  "total_bytes"_a = info.total_bytes, "bits_per_entry"_a = bits,
                  "entropy_bound_bits_per_entry"_a = info.entropy_bound_bits_per_entry);
}

class PyIndexBuilder : public BuilderHandle<IndexBuilder> {
 public:
  PyIndexBuilder(const std::string& path, const std::string& scheme, uint32_t block_size, int restarts,
                 const std::string& codec, size_t memory, const std::string& tmpdir, int threads, bool string_ids,
                 std::optional<std::string> profile)
      : BuilderHandle("IndexBuilder") {
    BuildOptions o;
    o.profile = profile.value_or("");
    ThrowIfError(Scheme::Parse(scheme, &o.scheme));
    o.block_size = block_size;
    o.restarts = restarts;
    o.codec = codec;
    o.memory_bytes = memory;
    o.tmpdir = tmpdir;
    o.threads = ResolveThreads(threads, 1);
    o.string_ids = string_ids;
    ThrowIfError(IndexBuilder::Create(path, o, &builder_));
  }

  void Add(py::handle ids, py::handle fingerprints) {
    builder();
    const ArrayView<uint64_t> fps = ViewArray<uint64_t>(fingerprints, "fingerprints");
    if (NumericArray(ids)) {
      const ArrayView<uint64_t> numbers = ViewArray<uint64_t>(ids, "ids");
      CheckSameLength(numbers.span.size(), fps.span.size(), "fingerprints");
      WithoutGil([&] { return builder_->Add(numbers.span, fps.span); });
      return;
    }
    const py::sequence seq = py::reinterpret_borrow<py::sequence>(ids);
    CheckSameLength(seq.size(), fps.span.size(), "fingerprints");
    for (size_t i = 0; i < seq.size(); ++i) AddOne(seq[i], fps.span[i], i);
  }

  void AddOne(py::handle id, uint64_t fingerprint, size_t i) {
    IndexBuilder& b = builder();
    ThrowIfError(WithId(id, "ids[" + std::to_string(i) + "]", [&](const auto& key) { return b.Add(key, fingerprint); }));
  }
};

}  // namespace

py::tuple SearchBatch(const std::shared_ptr<const IndexReader>& reader, py::handle queries, std::optional<int> k,
                      int threads) {
  const ArrayView<uint64_t> q = ViewArray<uint64_t>(queries, "queries");
  const int kk = k.value_or(reader->scheme().k());
  SearchResults results;
  WithoutGil([&] { return reader->Search(q.span, kk, &results, ResolveThreads(threads, 1)); });
  const std::vector<Match>& m = results.matches;
  auto [lims] = Columns<uint64_t>(results.lims.size(), [&](size_t i) { return std::tuple{results.lims[i]}; });
  auto [ids, fps, distances] = Columns<uint64_t, uint64_t, uint8_t>(m.size(), [&](size_t i) {
    return std::tuple{m[i].id, m[i].fingerprint, static_cast<uint8_t>(m[i].distance)};
  });
  return py::make_tuple(lims, IdsObject(*reader, ids), fps, distances);
}

void DefineIndex(py::module_& m) {
  py::class_<IndexHandle, std::shared_ptr<IndexHandle>> index(m, "Index", R"doc(
A compressed fingerprint index opened read-only through a memory map
(docs/format.md). Searches release the GIL and may run from any number of
threads; processes that open the same file share its pages.
)doc");
  DefOpen(index, [](const std::string& path, const ReaderOptions& reader, double check_period,
                    const py::object& preload) {
    // The kind first, as simdex.open_index reads it: the same message for a missing or foreign file
    // whichever of the two opens it.
    IndexKind recorded;
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) ThrowIfError(ReadIndexKind(path, &recorded));
    return IndexHandle::Open(*FindIndexKind(IndexKind::kSimHash), path, reader, check_period, preload);
  }, "Maps and validates a SimHash index file (simdex.open_index opens any kind, and directories of "
     "shards; here a MinHash-LSH file or a directory is a ValueError naming it). A missing file raises "
     "OSError; a truncated, foreign or damaged one raises simdex.CorruptionError naming what is wrong. "
     "check_period > 0: a background thread calls reload() every check_period seconds. preload=True reads "
     "every page into memory, preload='lock' also mlock()s them (a RuntimeWarning says why when the system "
     "refuses). access: 'auto' (random for a file larger than half of memory), 'read-around' (a page fault "
     "also reads its neighbours) or 'random' (a fault reads its own page); cold_reads: whether a "
     "search asks for all its blocks at once, 'when-missing' (under random access, when the last "
     "search waited for the disk), 'always' or 'never' (ReaderOptions, docs/library.md). Speed "
     "only: answers are the same.");
  index
      .def("search", [](const IndexHandle& h, py::handle queries, std::optional<int> k, int threads) {
             return SearchBatch(h.reader(), queries, k, threads);
           }, py::arg("queries"), py::arg("k") = py::none(), py::kw_only(), py::arg("threads") = 1,
           R"doc(Every entry within Hamming distance k (inclusive; default the scheme's k) of each query.
queries: a 1-D np.uint64 array (used in place) or a sequence of ints.
Returns (lims, ids, fingerprints, distances): the matches of query i are [lims[i], lims[i+1]), ordered by
distance, then id; ids is an np.uint64 array, or an object array of str when the index has string ids.
Releases the GIL; `threads` threads share the batch.)doc")
      .def("search_one", [](const IndexHandle& h, py::handle query, std::optional<int> k) {
             const uint64_t q = ToFingerprint(query, "query");
             std::vector<Match> matches;
             std::shared_ptr<const IndexReader> reader = h.reader();
             WithoutGil([&] { return reader->Search(q, k.value_or(reader->scheme().k()), &matches); });
             py::list out;
             for (const Match& x : matches) {
               py::object id = reader->has_string_ids() ? py::object(py::str(std::string(reader->IdString(x.id))))
                                                        : py::object(py::int_(x.id));
               out.append(py::make_tuple(id, py::int_(x.fingerprint), x.distance));
             }
             return out;
           }, py::arg("query"), py::arg("k") = py::none(),
           "The matches of one query as a list of (id, fingerprint, distance), ordered by distance, then id.")
      .def("_search_seconds", [](const IndexHandle& h, py::handle queries, int k, int threads) {
             // The C++ batch search alone, timed in C++: the baseline of
             // bench/python_bench.py's per-query overhead.
             const ArrayView<uint64_t> q = ViewArray<uint64_t>(queries, "queries");
             std::shared_ptr<const IndexReader> reader = h.reader();
             py::gil_scoped_release release;
             SearchResults results;
             const auto start = std::chrono::steady_clock::now();
             ThrowIfError(reader->Search(q.span, k, &results, threads));
             return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
           }, py::arg("queries"), py::arg("k"), py::arg("threads") = 1)
      .def("info", [](const IndexHandle& h) { return InfoDict(h.reader()->Info()); },
           "Size and shape: entries, scheme, block size, tables, bits per entry against the entropy bound, ...")
      .def_property_readonly("entries", [](const IndexHandle& h) { return h.reader()->entries(); })
      .def_property_readonly("scheme", [](const IndexHandle& h) { return h.reader()->scheme().Name(); })
      .def_property_readonly("k", [](const IndexHandle& h) { return h.reader()->scheme().k(); })
      .def_property_readonly(
          "profile",
          [](const IndexHandle& h) -> py::object {
            const std::string& p = h.reader()->profile();
            return p.empty() ? py::object(py::none()) : py::object(py::str(p));
          },
          "The fingerprint profile the index records (docs/fingerprint.md, \"Profiles\"), or None.")
      .def("__len__", [](const IndexHandle& h) { return h.reader()->entries(); })
      .def("__repr__", [](const IndexHandle& h) {
        return "<simdex.Index " + h.path() + (h.open() ? ": " + std::to_string(h.reader()->entries()) + " entries, " +
                                                             h.reader()->scheme().Name() + ">"
                                                       : " (closed)>");
      });

  DefineReaderMethods(index);

  const BuildOptions build;  // the defaults of the builder's arguments
  py::class_<PyIndexBuilder> builder(m, "IndexBuilder", R"doc(
Builds one index file: add (id, fingerprint) pairs in any order, then finish(),
which sorts, encodes, fsyncs and renames the file into place. Nothing appears
under `path` unless finish() succeeds. Use as a context manager to finish on
success and abandon on an exception. Ids are ints, or str (the index then keeps
an id map; numeric ids become decimal strings).
)doc");
  builder.def(py::init<const std::string&, const std::string&, uint32_t, int, const std::string&, size_t,
                    const std::string&, int, bool, std::optional<std::string>>(),
           py::arg("path"), py::kw_only(), py::arg("scheme") = build.scheme.Name(), py::arg("block_size") = build.block_size,
           py::arg("restarts") = build.restarts, py::arg("codec") = build.codec, py::arg("memory") = build.memory_bytes,
           py::arg("tmpdir") = build.tmpdir, py::arg("threads") = build.threads, py::arg("string_ids") = build.string_ids,
           py::arg("profile") = py::none(),
           "scheme: t4 | t10 | t20 | 'W,W,...:K'; block_size: power of two 64..65536; codec: card | ef | auto "
           "(docs/format.md, \"Codecs\"); memory: bytes before sorts spill to tmpdir ('' = the output's directory); "
           "profile: the fingerprints' profile (Fingerprinter.profile), recorded in the index (None: unrecorded).")
      .def("add", &PyIndexBuilder::Add, py::arg("ids"), py::arg("fingerprints"),
           "Adds entries: ids (np.uint64 array, or a sequence of int/str) and fingerprints of the same length.")
      .def("add_one", [](PyIndexBuilder& b, py::handle id, py::handle fp) { b.AddOne(id, ToFingerprint(fp, "fingerprint"), 0); },
           py::arg("id"), py::arg("fingerprint"), "Adds one entry (id: int or str).");
  DefineBuilderMethods(builder, [](const BuildStats& st) {
    using namespace pybind11::literals;
    return py::dict("entries"_a = st.entries, "distinct_fingerprints"_a = st.distinct_fingerprints,
                    "spilled_runs"_a = st.spilled_runs, "file_bytes"_a = st.file_bytes,
                    "seconds_sorting"_a = st.seconds_sorting, "seconds_encoding"_a = st.seconds_encoding);
  }, "Gives up; removes temporary files.");
}

}  // namespace simdex::python
