// simdex._simdex._dedup_minhash and _dedup_simhash: include/simdex/batch.h's
// DeduplicateByMinHash and DeduplicateBySimHash for Python, in process: the
// documents are texts or files, the whole run releases the GIL, and the
// result comes back as numpy arrays by document ordinal
// (simdex.MinHashDedupResult and simdex.DedupResult wrap them), the same
// records `simdex dedup` writes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/index_handle.h"
#include "python/src/module.h"
#include "simdex/batch.h"
#include "simdex/lsh_index.h"

namespace py = pybind11;

namespace simdex::python {

namespace {

using namespace pybind11::literals;

// The library's defaults of each method's options, by the names of
// simdex.dedup's keyword arguments, for the Python layer (simdex.dedup,
// simdex.dask) to read rather than write again: simdex._simdex._defaults.
py::dict Defaults() {
  const MinHashDedupOptions m;
  const SimHashDedupOptions s;
  const LshQueryOptions q;
  // A negative or zero "chosen by the library" value is None in Python.
  auto or_none = [](auto v, bool none) { return none ? py::object(py::none()) : py::object(py::cast(v)); };
  auto shared = [](const auto& o, py::dict d) {
    d["confirm"] = o.confirm;
    d["keep"] = KeepRuleSpec(o.keep);
    d["pairs"] = o.keep_pairs;
    d["allow_duplicate_ids"] = o.allow_duplicate_ids;
    d["threads"] = o.threads;
    d["memory"] = o.memory_bytes;
    d["tmpdir"] = o.tmpdir;
    return d;
  };
  const ShingleOptions shingles = m.Signing().shingles;
  py::dict minhash = shared(m, py::dict("threshold"_a = m.threshold, "num_perm"_a = m.num_perm, "seed"_a = m.seed,
                                        "word_n"_a = shingles.word_n, "char_n"_a = shingles.char_n,
                                        "bands"_a = m.bands.bands, "rows"_a = m.bands.rows,
                                        "signature_bits"_a = m.signature_bits, "approximate"_a = !m.exact));
  // k -1 and k_short -1: chosen by the library (None); scheme "": t10 or one covering k.
  py::dict simhash = shared(s, py::dict("k"_a = or_none(s.k, s.k < 0), "scheme"_a = s.scheme,
                                        "k_short"_a = or_none(s.k_short, s.k_short < 0),
                                        "short_length"_a = s.short_length,
                                        "default_scheme"_a = Scheme::Default().Name(),
                                        "strategy"_a = AgainstStrategyName(s.against_strategy)));
  py::dict query("min_estimate"_a = or_none(q.min_estimate, q.min_estimate < 0), "thresholds"_a = py::none(),
                 "top_k"_a = or_none(q.top_k, q.top_k == 0));
  return py::dict("minhash_dedup"_a = minhash, "simhash_dedup"_a = simhash, "lsh_query"_a = query);
}

py::dict StatsDict(const MinHashDedupStats& s) {
  return py::dict("documents"_a = s.documents, "empty"_a = s.empty, "distinct_signatures"_a = s.distinct_signatures,
                  "candidates"_a = s.candidates, "kept"_a = s.kept, "document_pairs"_a = s.document_pairs,
                  "clusters"_a = s.clusters, "clustered_documents"_a = s.clustered_documents,
                  "against_duplicates"_a = s.against_duplicates, "bytes_spilled"_a = s.bytes_spilled,
                  "bands"_a = s.bands.bands, "rows"_a = s.bands.rows, "estimate_filter"_a = s.estimate_filter,
                  "seconds_join"_a = s.seconds_join, "seconds_filter"_a = s.seconds_filter,
                  "confirm_candidates"_a = s.confirm.candidates, "confirmed"_a = s.confirm.confirmed);
}

// The ids by ordinal: np.uint64 when all are numbers, else an object array
// of ints and strs.
py::object Ids(const BatchDedupResult& r) {
  const uint64_t n = r.size();
  bool strings = false;
  for (uint64_t o = 0; o < n && !strings; ++o) strings = r.IdIsString(o);
  if (!strings) return std::get<0>(Columns<uint64_t>(n, [&](uint64_t o) { return std::tuple{r.IdNumber(o)}; }));
  return ObjectArray(n, [&](uint64_t o) {
    if (!r.IdIsString(o)) return py::object(py::int_(r.IdNumber(o)));
    const std::string_view s = r.IdString(o);
    return py::object(py::str(s.data(), s.size()));
  });
}

// A result's pairs (ForEachPair, the GIL released) as arrays (a, b,
// measure(pair)), and their similarities when with_similarity; None unless
// kept (the result's keep_pairs).
template <typename Pair, typename Result, typename Measure>
py::object PairArrays(Result* result, bool kept, bool with_similarity, Measure measure) {
  if (!kept) return py::none();
  std::vector<uint64_t> a, b;
  std::vector<decltype(measure(std::declval<const Pair&>()))> m;
  std::vector<float> sim;
  WithoutGil([&] {
    return result->ForEachPair([&](const Pair& p) {
      a.push_back(p.a);
      b.push_back(p.b);
      m.push_back(measure(p));
      sim.push_back(p.similarity);
      return Status::OK();
    });
  });
  auto array = [](const auto& v) { return py::array(static_cast<py::ssize_t>(v.size()), v.data()); };
  return with_similarity ? py::make_tuple(array(a), array(b), array(m), array(sim))
                         : py::make_tuple(array(a), array(b), array(m));
}

// The options both methods take, as the keyword arguments give them;
// *score_field: the field keep="max:FIELD" names.
template <class Options>
void SetShared(const std::string& confirm, const std::string& keep, bool pairs, bool allow_duplicate_ids,
               std::optional<int> threads, size_t memory, const std::string& tmpdir, Options* o,
               std::string* score_field) {
  o->confirm = confirm;
  o->keep = KeepNamed(keep, score_field);
  o->keep_pairs = pairs;
  o->allow_duplicate_ids = allow_duplicate_ids;
  o->threads = ResolveThreads(threads, 1);
  o->memory_bytes = memory;
  o->tmpdir = tmpdir;
}

// The documents of a call: files as `simdex dedup` reads them, or texts
// (str or bytes, held while the run reads them) with their scores.
class Documents {
 public:
  Documents(py::object texts, py::object files, const std::string& format, const std::string& id_field,
            const std::vector<std::string>& text_fields, const std::string& id_mode, bool skip_bad, py::object scores,
            KeepRule keep, const std::string& score_field) {
    if (!files.is_none()) {
      files_ = true;
      f_ = FilesOf(files.cast<std::vector<std::string>>(), format.empty() ? std::nullopt : std::optional(format),
                   id_field, text_fields, id_mode, skip_bad);
      f_.score_field = score_field;
      return;
    }
    Utf8Views(texts.cast<py::sequence>(), &keep_alive_, &views_);
    if (!scores.is_none()) {
      scores_ = scores.cast<std::vector<double>>();
      if (scores_.size() != views_.size()) throw py::value_error("scores and texts differ in length");
    } else if (keep == KeepRule::kField) {
      throw py::value_error("keep='max:FIELD' ranks texts by their scores: pass scores=");
    }
  }

  // Runs by_files(files) or by_texts(texts, scores), the GIL released.
  template <class ByFiles, class ByTexts>
  void Run(const ByFiles& by_files, const ByTexts& by_texts) const {
    py::gil_scoped_release release;
    ThrowIfError(files_ ? by_files(f_)
                        : by_texts(std::span<const std::string_view>(views_), std::span<const double>(scores_)));
  }

 private:
  bool files_ = false;
  DocumentFiles f_;
  std::vector<py::object> keep_alive_;
  std::vector<std::string_view> views_;
  std::vector<double> scores_;
};

py::dict Dedup(py::object texts, py::object files, const std::string& format, const std::string& id_field,
               const std::vector<std::string>& text_fields, const std::string& id_mode, bool skip_bad,
               py::object scores, double threshold, int num_perm, uint64_t seed,
               const std::optional<std::string>& shingles, int bands, int rows,
               int signature_bits, std::optional<double> estimate_filter, const std::string& confirm,
               const std::string& keep, bool pairs, bool allow_duplicate_ids, std::optional<int> threads, size_t memory,
               const std::string& tmpdir, const std::vector<std::string>& against, bool approximate) {
  MinHashDedupOptions o;
  o.exact = !approximate;
  o.threshold = threshold;
  o.num_perm = num_perm;
  o.seed = seed;
  if (shingles.has_value()) o.shingle_words = ShingleWordsOf(*shingles);  // else the default, or the first index's
  o.bands = LshBands{bands, rows};
  o.signature_bits = signature_bits;
  o.estimate_filter = estimate_filter.value_or(-1);
  std::string score_field;
  SetShared(confirm, keep, pairs, allow_duplicate_ids, threads, memory, tmpdir, &o, &score_field);
  std::vector<std::unique_ptr<LshIndexReader>> indexes;
  for (const std::string& path : against) {
    indexes.emplace_back();
    ThrowIfError(LshIndexReader::Open(path, ReaderOptions(), &indexes.back()));
    o.against.push_back(indexes.back().get());
  }
  std::unique_ptr<MinHashDedupResult> result;
  Documents documents(texts, files, format, id_field, text_fields, id_mode, skip_bad, scores, o.keep, score_field);
  documents.Run([&](const DocumentFiles& f) { return DeduplicateByMinHash(f, o, nullptr, &result); },
                [&](auto texts, auto scores) { return DeduplicateByMinHash(texts, scores, o, nullptr, &result); });

  const uint64_t n = result->size();
  auto [representative, estimate, duplicate, empty] = Columns<uint64_t, float, bool, bool>(n, [&](uint64_t i) {
    const MinHashDedupRecord r = result->Record(i);
    return std::tuple{r.representative, r.estimate, r.duplicate, r.empty};
  });
  // With a similarity when the pairs were confirmed (the exact check, or a spec).
  const py::object pair_arrays = PairArrays<MinHashDedupPair>(result.get(), pairs, !(approximate && confirm.empty()),
                                                               [](const MinHashDedupPair& p) { return p.estimate; });
  py::dict out("representative"_a = representative, "estimate"_a = estimate, "duplicate"_a = duplicate,
               "empty"_a = empty, "pairs"_a = pair_arrays, "stats"_a = StatsDict(result->stats()),
               "ids"_a = Ids(*result), "skipped"_a = result->skipped(), "first_errors"_a = result->first_errors());
  if (!against.empty()) {
    auto [against_index, against_estimate] = Columns<int32_t, float>(n, [&](uint64_t i) {
      const MinHashDedupRecord r = result->Record(i);
      return std::tuple{r.against_index, r.against_estimate};
    });
    out["against_index"] = against_index;
    out["against_id"] = ObjectArray(n, [&](uint64_t i) {
      const MinHashDedupRecord r = result->Record(i);
      if (r.against_index < 0) return py::object(py::int_(0));
      const LshIndexReader& index = *indexes[static_cast<size_t>(r.against_index)];
      if (index.has_string_ids()) return py::object(py::str(std::string(index.IdString(r.against_id))));
      return py::object(py::int_(r.against_id));
    });
    out["against_estimate"] = against_estimate;
  }
  return out;
}

py::dict SimHashStatsDict(const SimHashDedupStats& s) {
  const DedupStats& j = s.join;
  return py::dict("documents"_a = j.documents, "empty"_a = j.empty, "distinct_fingerprints"_a = j.distinct_fingerprints,
                  "pairs"_a = j.pairs, "distinct_pairs"_a = j.distinct_pairs, "clusters"_a = j.clusters,
                  "clustered_documents"_a = j.clustered_documents, "duplicates"_a = s.duplicates,
                  "against_matches"_a = j.against_matches, "against_strategy"_a = j.against_strategy,
                  "comparisons"_a = j.comparisons, "spilled_runs"_a = j.spilled_runs, "k"_a = s.k,
                  "k_short"_a = s.k_short, "join_k"_a = s.join_k, "against_k"_a = s.against_k, "scheme"_a = s.scheme,
                  "confirm_candidates"_a = s.confirm.candidates, "confirm_in_range"_a = s.confirm.in_range,
                  "confirmed"_a = s.confirm.confirmed, "idf_documents"_a = s.idf.documents,
                  "seconds_read"_a = s.seconds_read, "seconds_idf"_a = s.seconds_idf,
                  "seconds_self_join"_a = j.seconds_self_join);
}

py::dict DedupSimHash(py::object texts, py::object files, const std::string& format, const std::string& id_field,
                      const std::vector<std::string>& text_fields, const std::string& id_mode, bool skip_bad,
                      py::object scores, py::object fingerprinter, std::optional<int> k, const std::string& scheme,
                      const std::string& confirm, int k_short, uint32_t short_length, const std::string& keep,
                      bool pairs, bool allow_duplicate_ids, std::optional<int> threads, size_t memory,
                      const std::string& tmpdir, const std::vector<std::shared_ptr<IndexHandle>>& against,
                      const std::string& strategy) {
  SimHashDedupOptions o;
  if (!fingerprinter.is_none()) {
    o.features = OptionsOf(fingerprinter);
    o.learn_idf = LearnsIdf(fingerprinter);
    if (o.learn_idf) o.max_idf = IdfCapOf(fingerprinter);
  }
  o.k = k.value_or(-1);
  o.scheme = scheme;
  o.k_short = k_short;
  o.short_length = short_length;
  std::string score_field;
  SetShared(confirm, keep, pairs, allow_duplicate_ids, threads, memory, tmpdir, &o, &score_field);
  o.against_strategy = StrategyNamed(strategy);
  std::vector<std::shared_ptr<const IndexReader>> readers;  // held while the result is read
  for (const auto& h : against) {
    readers.push_back(h->reader());
    o.against.push_back(readers.back().get());
  }
  std::unique_ptr<SimHashDedupResult> result;
  Documents documents(texts, files, format, id_field, text_fields, id_mode, skip_bad, scores, o.keep, score_field);
  documents.Run([&](const DocumentFiles& f) { return DeduplicateBySimHash(f, o, nullptr, &result); },
                [&](auto texts, auto scores) { return DeduplicateBySimHash(texts, scores, o, nullptr, &result); });
  const uint64_t n = result->size();
  py::dict out = DedupColumns(n, [&](uint64_t i) { return result->Record(i); }, false, true);
  auto [reasons] = Columns<int8_t>(n, [&](uint64_t i) {
    int8_t reason = 0;  // EMPTY_REASONS: "", then EmptyReason 1..4
    const bool empty = result->Record(i).empty;
    for (int e = 1; e <= 4 && empty; ++e) {
      if (result->EmptyReason(i) == EmptyReasonName(static_cast<simdex::EmptyReason>(e))) reason = static_cast<int8_t>(e);
    }
    return std::tuple{reason};
  });
  // With the similarity when the pairs were confirmed.
  const auto distance_of = [](const SimHashDedupPair& p) { return static_cast<uint8_t>(p.distance); };
  const py::object pair_arrays = PairArrays<SimHashDedupPair>(result.get(), pairs, !confirm.empty(), distance_of);
  out["pairs"] = pair_arrays;
  out["stats"] = SimHashStatsDict(result->stats());
  out["ids"] = Ids(*result);
  out["reasons"] = reasons;
  return out;
}

}  // namespace

void DefineBatch(py::module_& m) {
  m.attr("_defaults") = Defaults();
  const MinHashDedupOptions minhash;  // the defaults of the arguments below
  m.def("_dedup_minhash", &Dedup, py::arg("texts"), py::kw_only(), py::arg("files") = py::none(),
        py::arg("format") = "", py::arg("id_field") = "id", py::arg("text_fields") = std::vector<std::string>(),
        py::arg("id_mode") = "field", py::arg("skip_bad") = false, py::arg("scores") = py::none(),
        py::arg("threshold") = minhash.threshold, py::arg("num_perm") = minhash.num_perm,
        py::arg("seed") = minhash.seed, py::arg("shingles") = py::none(), py::arg("bands") = minhash.bands.bands,
        py::arg("rows") = minhash.bands.rows, py::arg("signature_bits") = minhash.signature_bits,
        py::arg("estimate_filter") = py::none(), py::arg("confirm") = minhash.confirm,
        py::arg("keep") = KeepRuleSpec(minhash.keep), py::arg("pairs") = minhash.keep_pairs,
        py::arg("allow_duplicate_ids") = minhash.allow_duplicate_ids, py::arg("threads") = py::none(),
        py::arg("memory") = minhash.memory_bytes, py::arg("tmpdir") = minhash.tmpdir,
        py::arg("against") = std::vector<std::string>(), py::arg("approximate") = !minhash.exact,
        "`simdex dedup --method minhash` in process (include/simdex/batch.h); simdex.dedup wraps it.");
  const SimHashDedupOptions defaults;
  m.def("_dedup_simhash", &DedupSimHash, py::arg("texts"), py::kw_only(), py::arg("files") = py::none(),
        py::arg("format") = "", py::arg("id_field") = "id", py::arg("text_fields") = std::vector<std::string>(),
        py::arg("id_mode") = "field", py::arg("skip_bad") = false, py::arg("scores") = py::none(),
        py::arg("fingerprinter") = py::none(), py::arg("k") = py::none(), py::arg("scheme") = defaults.scheme,
        py::arg("confirm") = defaults.confirm, py::arg("k_short") = defaults.k_short,
        py::arg("short_length") = defaults.short_length, py::arg("keep") = KeepRuleSpec(defaults.keep),
        py::arg("pairs") = defaults.keep_pairs, py::arg("allow_duplicate_ids") = defaults.allow_duplicate_ids,
        py::arg("threads") = py::none(), py::arg("memory") = defaults.memory_bytes, py::arg("tmpdir") = defaults.tmpdir,
        py::arg("against") = std::vector<std::shared_ptr<IndexHandle>>(),
        py::arg("strategy") = AgainstStrategyName(defaults.against_strategy),
        "`simdex dedup --method simhash` of documents in process (include/simdex/batch.h); simdex.dedup wraps it.");
}

}  // namespace simdex::python
