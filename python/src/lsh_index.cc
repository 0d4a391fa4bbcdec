// simdex.LshIndex, simdex.LshIndexBuilder, simdex.merge_lsh and
// simdex.parts.index_kind: include/simdex/lsh_index.h for Python. Signatures are
// n x num_perm numpy uint32 arrays (simdex.MinHasher.sign_batch); queries
// release the GIL and come back in offset-array form (lims, ids,
// estimates), as Index.search's.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/index_handle.h"
#include "python/src/module.h"
#include "python/src/signature_rows.h"
#include "simdex/lsh_index.h"

namespace py = pybind11;

namespace simdex::python {

namespace {

using namespace pybind11::literals;

py::dict LshInfoDict(const LshIndexInfo& info) {
  std::vector<std::string> codecs;
  uint64_t table_bytes = 0;
  for (const LshIndexInfo::Table& t : info.tables) {
    codecs.push_back(t.codec);
    table_bytes += t.bytes;
  }
  const auto per_document = [&](uint64_t bytes) {
    return info.documents == 0 ? 0.0 : static_cast<double>(bytes) / static_cast<double>(info.documents);
  };
  return py::dict("kind"_a = "minhash-lsh", "documents"_a = info.documents, "banded_documents"_a = info.banded,
                  "num_perm"_a = info.num_perm, "seed"_a = info.seed, "bands"_a = info.bands, "rows"_a = info.rows,
                  "threshold"_a = info.threshold, "signature_bits"_a = info.signature_bits,
                  "ordinal_bits"_a = info.ordinal_bits, "block_size"_a = info.block_size, "restarts"_a = info.restarts,
                  "codecs"_a = codecs, "signature_bytes"_a = info.signature_bytes, "sketch_k"_a = info.sketch_k,
                  "sketch_bytes"_a = info.sketch_bytes, "id_bytes"_a = info.id_bytes,
                  "string_ids"_a = info.string_ids, "id_map_strings"_a = info.id_map_strings,
                  "id_map_bytes"_a = info.id_map_bytes, "format_version"_a = info.format_version,
                  "profile"_a = info.profile, "total_bytes"_a = info.total_bytes,
                  "band_table_bytes_per_document"_a = per_document(table_bytes),
                  "signature_bytes_per_document"_a = per_document(info.signature_bytes),
                  "sketch_bytes_per_document"_a = per_document(info.sketch_bytes),
                  "id_bytes_per_document"_a = per_document(info.id_bytes + info.id_map_bytes),
                  "bytes_per_document_total"_a = per_document(info.total_bytes),
                  "band_key_bound_bits"_a = info.band_key_bound_bits);
}

// The options of a query call: min_estimate None is the index's default
// (negative); thresholds None, one number or a sequence of them; top_k
// None or K >= 1. ValueError for what LshQueryOptions::Validate refuses.
LshQueryOptions QueryOptions(std::optional<double> min_estimate, py::handle thresholds, std::optional<int64_t> top_k) {
  if (min_estimate && !(*min_estimate >= 0 && *min_estimate <= 1)) {
    throw py::value_error("min_estimate must be in [0, 1] (None: the index's default), got " +
                          std::to_string(*min_estimate));
  }
  if (top_k && *top_k < 1) {
    throw py::value_error("top_k must be at least 1 (None: every match), got " + std::to_string(*top_k));
  }
  LshQueryOptions options;
  options.min_estimate = min_estimate.value_or(-1);
  options.top_k = static_cast<uint64_t>(top_k.value_or(0));
  if (!thresholds.is_none()) {
    try {
      if (py::isinstance<py::sequence>(thresholds)) options.thresholds = thresholds.cast<std::vector<double>>();
      else options.thresholds = {thresholds.cast<double>()};
    } catch (const py::cast_error&) {
      throw py::value_error("thresholds must be a number or a sequence of numbers");
    }
    if (options.thresholds.empty()) throw py::value_error("thresholds must not be empty (None: the index's filter)");
  }
  ThrowIfError(options.Validate());
  return options;
}

// The object behind simdex.LshIndex: a FileHandle of MinHash-LSH files,
// whose reader calls in flight share, so that close() and reload() never
// unmap a file a query is reading.
class LshIndexHandle : public FileHandle<LshIndexReader, LshIndexHandle> {
 public:
  // Every query row's matches: (lims, ids, estimates), and with thresholds
  // the highest each match passes.
  // shingles (when not null): each query's shingle set, so that the
  // index's sketches decide (LshQueryOptions).
  py::tuple Query(const uint32_t* rows, size_t n, const LshQueryOptions& options, int threads,
                  const std::vector<std::vector<uint64_t>>* shingles = nullptr) const {
    std::shared_ptr<const LshIndexReader> r = reader();
    ThrowIfError(r->ValidateQuery(options));  // a threshold below the index's, even for no queries
    const size_t k = static_cast<size_t>(r->minhash_options().num_perm);
    std::vector<std::vector<LshMatch>> found(n);
    std::vector<Status> status(n);
    {
      py::gil_scoped_release release;
      ForRanges(n, threads, [&](size_t begin, size_t end, size_t) {
        for (size_t i = begin; i < end; ++i) {
          status[i] = shingles != nullptr ? r->Query(rows + i * k, (*shingles)[i], options, &found[i])
                                          : r->Query(rows + i * k, options, &found[i]);
        }
      });
    }
    for (const Status& s : status) ThrowIfError(s);  // the first failing query's error
    std::vector<uint64_t> starts(n + 1);
    std::vector<LshMatch> all;
    for (size_t i = 0; i < n; ++i) {
      all.insert(all.end(), found[i].begin(), found[i].end());
      starts[i + 1] = all.size();
    }
    const py::array_t<uint64_t> lims = ToArray(starts);
    auto [ids, estimates, labels] = Columns<uint64_t, double, double>(all.size(), [&](size_t j) {
      return std::tuple{all[j].id, all[j].estimate, all[j].threshold};
    });
    if (options.thresholds.empty()) return py::make_tuple(lims, IdsObject(*r, ids), estimates);
    return py::make_tuple(lims, IdsObject(*r, ids), estimates, labels);
  }

  size_t num_perm() const { return static_cast<size_t>(reader()->minhash_options().num_perm); }
};

class PyLshIndexBuilder : public BuilderHandle<LshIndexBuilder> {
 public:
  PyLshIndexBuilder(const std::string& path, int num_perm, uint64_t seed, int word_n, int char_n,
                    const std::string& shingles, double threshold,
                    std::optional<int> bands, std::optional<int> rows, int signature_bits, uint32_t block_size,
                    int restarts, const std::string& codec, bool string_ids, size_t memory, const std::string& tmpdir,
                    int threads, int sketch)
      : BuilderHandle("LshIndexBuilder"), threads_(ResolveThreads(threads, 1)) {
    if (bands.has_value() != rows.has_value()) throw py::value_error("bands and rows go together: give both or neither");
    LshBuildOptions o;
    o.minhash = MinHashOptionsOf(num_perm, seed, word_n, char_n, shingles);
    o.threshold = threshold;
    o.bands = {bands.value_or(0), rows.value_or(0)};
    o.signature_bits = signature_bits;
    o.block_size = block_size;
    o.restarts = restarts;
    o.codec = codec;
    o.string_ids = string_ids;
    o.sketch_k = sketch;
    o.memory_bytes = memory;
    o.tmpdir = tmpdir;
    ThrowIfError(LshIndexBuilder::Create(path, o, &builder_));
  }

  void Add(py::handle ids, py::handle signatures) {
    builder();
    const size_t k = NumPerm();
    const RowsView<uint32_t> rows = ViewRows<uint32_t>(signatures, k, "signatures");
    AddRows(builder_.get(), ids, rows.data, rows.rows, k, "signatures");
  }

  py::array_t<bool> AddTexts(py::handle ids, const py::sequence& texts, std::optional<int> threads) {
    builder();
    std::vector<std::vector<uint64_t>> shingles;
    auto [signatures, has] =
        SignWith(builder_->options().minhash, texts, ResolveThreads(threads, threads_), &shingles);
    AddRows(builder_.get(), ids, signatures.data(), static_cast<size_t>(has.size()), NumPerm(), "texts", &shingles);
    return has;
  }

  const LshBuildOptions& options() const { return builder().options(); }

 private:
  size_t NumPerm() const { return static_cast<size_t>(builder_->options().minhash.num_perm); }

  int threads_;
};

}  // namespace

void DefineLshIndex(py::module_& m) {
  m.def("index_kind", [](const std::string& path) {
          IndexKind kind;
          ThrowIfError(ReadIndexKind(path, &kind));
          return std::string(FindIndexKind(kind)->name());
        }, py::arg("path"),
        "What an index file holds: 'simhash' (simdex.Index) or 'minhash-lsh' (simdex.LshIndex), from its header "
        "and footer; OSError or simdex.CorruptionError for a missing or damaged file.");

  py::class_<LshIndexHandle, std::shared_ptr<LshIndexHandle>> index(m, "LshIndex", R"doc(
A MinHash-LSH index (docs/minhash.md, "Indexes") opened read-only through a
memory map: band tables of the documents' MinHash signatures, and their b-bit
signatures for the estimate of J. Queries release the GIL and may run from
any number of threads. simdex.open_index returns one for a MinHash-LSH file.
search() and search_texts() were query() and query_texts(), names kept for
one release (with a DeprecationWarning).
)doc");
  DefOpen(index, [](const std::string& path, const ReaderOptions& reader, double check_period,
                    const py::object& preload) {
    return LshIndexHandle::Open(*FindIndexKind(IndexKind::kMinHashLsh), path, reader, check_period, preload);
  }, "Maps and validates a MinHash-LSH index file. A missing file raises OSError; a damaged one "
     "simdex.CorruptionError; a SimHash index ValueError naming both kinds. check_period > 0: a "
     "background thread calls reload() every check_period seconds. preload=True reads every page "
     "into memory, preload='lock' also mlock()s them (a RuntimeWarning says why when the system "
     "refuses). access and cold_reads: as Index.open's (a MinHash-LSH query does not use cold_reads; it is "
     "checked and taken so that simdex.open_index passes the same options to either kind).");
  index
      .def("search", [](const LshIndexHandle& h, py::handle signatures, std::optional<double> min_estimate,
                       py::handle thresholds, std::optional<int64_t> top_k, std::optional<int> threads) {
             const LshQueryOptions options = QueryOptions(min_estimate, thresholds, top_k);
             const RowsView<uint32_t> rows = ViewRows<uint32_t>(signatures, h.num_perm(), "signatures");
             return h.Query(rows.data, rows.rows, options, ResolveThreads(threads, 1));
           }, py::arg("signatures"), py::arg("min_estimate") = py::none(), py::kw_only(),
           py::arg("thresholds") = py::none(), py::arg("top_k") = py::none(), py::arg("threads") = 1,
           R"doc(The documents that share a band key with each signature and whose estimate of J (from the stored
b-bit signatures) is at least min_estimate (None: the index's default, two standard errors below its threshold;
0 keeps every candidate).
thresholds (instead of min_estimate): one threshold or several, each at least index.threshold (else
ValueError naming both); a document passes T when its estimate is at least default_estimate_filter(T,
num_perm), the rule of the index's own threshold; it is kept when it passes the lowest.
top_k: the K highest estimates of each query, highest first, equal estimates in id order (None: every match).
signatures: an n x num_perm np.uint32 array (used in place), or one signature of num_perm values, signed with
the index's options (MinHasher(num_perm=index.num_perm, seed=index.seed)).
Returns (lims, ids, estimates): the matches of query i are [lims[i], lims[i+1]), in id order (for string ids,
the order of the id map: bytewise) or with top_k by estimate; ids is an np.uint64 array, or an object array of
str when the index has string ids; estimates np.float64. With thresholds, (lims, ids, estimates, labels):
labels[j] (np.float64) is the highest threshold match j passes. Releases the GIL; `threads` threads share the
batch.)doc")
      .def("search_texts", [](const LshIndexHandle& h, const py::sequence& texts, std::optional<double> min_estimate,
                             py::handle thresholds, std::optional<int64_t> top_k, bool approximate,
                             std::optional<int> threads) {
             LshQueryOptions options = QueryOptions(min_estimate, thresholds, top_k);
             options.approximate = approximate;
             const int t = ResolveThreads(threads, 1);
             std::vector<std::vector<uint64_t>> shingles;
             auto [signatures, has] = SignWith(h.reader()->minhash_options(), texts, t, &shingles);
             (void)has;  // a text without shingles has the empty signature, which finds nothing
             return h.Query(signatures.data(), static_cast<size_t>(signatures.shape(0)), options, t, &shingles);
           }, py::arg("texts"), py::arg("min_estimate") = py::none(), py::kw_only(),
           py::arg("thresholds") = py::none(), py::arg("top_k") = py::none(), py::arg("approximate") = false,
           py::arg("threads") = 1,
           "As search(), for texts (str or UTF-8 bytes) signed with the options the index records (its profile). "
           "Where the index stores sketches (info()['sketch_k'] > 0) the texts' sketches decide: a threshold T "
           "passes at a sketch estimate >= T (exact J for two documents stored whole), min_estimate filters that "
           "estimate (default: the index's threshold); approximate=True decides on the signatures as search() does.")
      .def("info", [](const LshIndexHandle& h) { return LshInfoDict(h.reader()->Info()); },
           "Size and shape, as `simdex inspect` prints them: documents, bands, rows, bytes per document per part, ...")
      .def_property_readonly("documents", [](const LshIndexHandle& h) { return h.reader()->documents(); })
      .def_property_readonly("num_perm", [](const LshIndexHandle& h) { return h.reader()->minhash_options().num_perm; })
      .def_property_readonly("seed", [](const LshIndexHandle& h) { return h.reader()->minhash_options().seed; })
      .def_property_readonly("word_n", [](const LshIndexHandle& h) { return h.reader()->minhash_options().shingles.word_n; })
      .def_property_readonly("char_n", [](const LshIndexHandle& h) { return h.reader()->minhash_options().shingles.char_n; })
      .def_property_readonly("shingles", [](const LshIndexHandle& h) {
             return std::string(ShingleWordsName(h.reader()->minhash_options().shingles.words));
           }, "The word definition the documents were signed with: word-chars or space-split.")
      .def_property_readonly("bands", [](const LshIndexHandle& h) { return h.reader()->bands().bands; })
      .def_property_readonly("rows", [](const LshIndexHandle& h) { return h.reader()->bands().rows; })
      .def_property_readonly("signature_bits", [](const LshIndexHandle& h) { return h.reader()->signature_bits(); })
      .def_property_readonly("threshold", [](const LshIndexHandle& h) { return h.reader()->threshold(); })
      .def_property_readonly("default_min_estimate", [](const LshIndexHandle& h) {
             const std::shared_ptr<const LshIndexReader> r = h.reader();
             return DefaultEstimateFilter(r->threshold(), r->minhash_options().num_perm);
           }, "The estimate filter of search(min_estimate=None).")
      .def_property_readonly("profile", [](const LshIndexHandle& h) { return h.reader()->profile(); },
                             "The signature profile (docs/minhash.md): how the documents were signed.")
      .def_property_readonly("kind", [](const LshIndexHandle&) { return "minhash-lsh"; })
      .def("__len__", [](const LshIndexHandle& h) { return h.reader()->documents(); })
      .def("__repr__", [](const LshIndexHandle& h) {
        if (!h.open()) return "<simdex.LshIndex " + h.path() + " (closed)>";
        const std::shared_ptr<const LshIndexReader> r = h.reader();
        return "<simdex.LshIndex " + h.path() + ": " + std::to_string(r->documents()) + " documents, " +
               std::to_string(r->bands().bands) + " x " + std::to_string(r->bands().rows) + " bands>";
      });

  DefineReaderMethods(index);
  // The old names of search and search_texts, for one release: Index and
  // ShardedIndex search, and so does LshIndex.
  for (const auto& [old_name, name] : {std::pair{"query", "search"}, std::pair{"query_texts", "search_texts"}}) {
    const py::object method = index.attr(name);
    const std::string warning = std::string("LshIndex.") + old_name + " is LshIndex." + name + " now";
    index.attr(old_name) = py::cpp_function(
        [method, warning](py::object self, py::args args, py::kwargs kwargs) {
          if (PyErr_WarnEx(PyExc_DeprecationWarning, warning.c_str(), 1) != 0) throw py::error_already_set();
          return method(self, *args, **kwargs);
        },
        py::name(old_name), py::is_method(index), py::doc(("Deprecated: " + warning + ".").c_str()));
  }

  const LshBuildOptions build;  // the defaults of the builder's arguments
  py::class_<PyLshIndexBuilder> builder(m, "LshIndexBuilder", R"doc(
Builds one MinHash-LSH index file (`simdex build --method minhash`): add
documents (an id and a signature each, or texts signed here) in any order, then
finish(), which writes the file and renames it into place; the file depends
only on the documents, never on their order. Nothing appears under `path`
unless finish() succeeds. Use as a context manager to finish on success and
abandon on an exception. Ids are ints, or str (the index then keeps an id map;
numeric ids become decimal strings). Documents are held in memory up to
`memory` bytes (about 200 each at the defaults), then go to scratch files in
`tmpdir`; the file is the same either way.
)doc");
  builder.def(py::init<const std::string&, int, uint64_t, int, int, const std::string&, double, std::optional<int>,
                    std::optional<int>, int, uint32_t, int, const std::string&, bool, size_t, const std::string&, int,
                    int>(),
           py::arg("path"), py::kw_only(), py::arg("num_perm") = build.minhash.num_perm,
           py::arg("seed") = build.minhash.seed, py::arg("word_n") = build.minhash.shingles.word_n,
           py::arg("char_n") = build.minhash.shingles.char_n, py::arg("shingles") = kDefaultShingles,
           py::arg("threshold") = build.threshold, py::arg("bands") = py::none(), py::arg("rows") = py::none(),
           py::arg("signature_bits") = build.signature_bits, py::arg("block_size") = build.block_size,
           py::arg("restarts") = build.restarts, py::arg("codec") = build.codec, py::arg("string_ids") = build.string_ids,
           py::arg("memory") = build.memory_bytes, py::arg("tmpdir") = build.tmpdir, py::arg("threads") = 1,
           py::arg("sketch") = build.sketch_k,
           "num_perm, seed, word_n, char_n, shingles: how signatures are made (MinHasher's; recorded in the file); threshold: "
           "the Jaccard similarity the bands are chosen for; bands, rows: both or neither (None: chosen from the "
           "threshold); signature_bits: 1, 2, 4, 8, 16 or 32 bits kept per value for the estimate; block_size, "
           "restarts, codec (ef | card | auto): the band tables' (docs/format.md); memory: bytes before the "
           "documents spill to tmpdir ('' = the output's directory; at least 128 KiB per band); sketch: hashes in "
           "each document's bottom-k sketch, stored for the documents added by add_texts() so that query_texts() "
           "decides on them (0: none; documents added by add() have none). Bad values raise ValueError.")
      .def("add", &PyLshIndexBuilder::Add, py::arg("ids"), py::arg("signatures"),
           "Adds documents: ids (np.uint64 array, or a sequence of int/str) and an n x num_perm np.uint32 array of "
           "their signatures (MinHasher(num_perm=..., seed=...) of the builder's options).")
      .def("add_texts", &PyLshIndexBuilder::AddTexts, py::arg("ids"), py::arg("texts"), py::arg("threads") = py::none(),
           "Adds documents from their texts, signed in C++ with the builder's options on `threads` threads "
           "without the GIL; returns the bool array of which texts have shingles (those without are kept, "
           "and match nothing).")
      .def_property_readonly("bands", [](const PyLshIndexBuilder& b) { return b.options().bands.bands; })
      .def_property_readonly("rows", [](const PyLshIndexBuilder& b) { return b.options().bands.rows; })
      .def_property_readonly("num_perm", [](const PyLshIndexBuilder& b) { return b.options().minhash.num_perm; })
      .def_property_readonly("seed", [](const PyLshIndexBuilder& b) { return b.options().minhash.seed; });
  DefineBuilderMethods(builder, [](const LshBuildStats& st) {
    return py::dict("documents"_a = st.documents, "banded_documents"_a = st.banded, "file_bytes"_a = st.file_bytes);
  }, "Gives up; nothing appears under the path.");

}

}  // namespace simdex::python
