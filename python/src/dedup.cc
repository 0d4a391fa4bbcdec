// simdex._simdex.dedup: include/simdex/dedup.h for Python. The whole run
// (adding, the self-join, clusters) releases the GIL; results come back as
// numpy arrays by document ordinal (simdex.DedupResult wraps them).
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
#include "simdex/dedup.h"

namespace py = pybind11;

namespace simdex::python {

namespace {

AgainstStrategy StrategyNamed(const std::string& name) {
  if (name == "auto") return AgainstStrategy::kAuto;
  if (name == "probe") return AgainstStrategy::kProbe;
  if (name == "merge-join") return AgainstStrategy::kMergeJoin;
  throw py::value_error("strategy '" + name + "' is not auto, probe or merge-join");
}

py::dict StatsDict(const DedupStats& s) {
  using namespace pybind11::literals;
  return py::dict("documents"_a = s.documents, "empty"_a = s.empty, "distinct_fingerprints"_a = s.distinct_fingerprints,
                  "pairs"_a = s.pairs, "distinct_pairs"_a = s.distinct_pairs, "clusters"_a = s.clusters,
                  "clustered_documents"_a = s.clustered_documents, "duplicates"_a = s.duplicates,
                  "against_matches"_a = s.against_matches, "against_strategy"_a = s.against_strategy,
                  "comparisons"_a = s.comparisons, "spilled_runs"_a = s.spilled_runs,
                  "seconds_distinct"_a = s.seconds_distinct, "seconds_self_join"_a = s.seconds_self_join,
                  "seconds_against"_a = s.seconds_against, "seconds_clusters"_a = s.seconds_clusters);
}

// (fingerprints, ids, distances) arrays of one index's matches found elsewhere.
std::vector<NearestEntry> MatchesOf(py::handle triple, size_t i) {
  const py::tuple t = triple.cast<py::tuple>();
  if (t.size() != 3) throw py::value_error("index_matches[" + std::to_string(i) + "] must be (fingerprints, ids, distances)");
  const ArrayView<uint64_t> fps = ViewArray<uint64_t>(t[0], "index_matches fingerprints");
  const ArrayView<uint64_t> ids = ViewArray<uint64_t>(t[1], "index_matches ids");
  const ArrayView<uint8_t> distances = ViewArray<uint8_t>(t[2], "index_matches distances");
  if (ids.span.size() != fps.span.size() || distances.span.size() != fps.span.size()) {
    throw py::value_error("index_matches[" + std::to_string(i) + "] arrays differ in length");
  }
  std::vector<NearestEntry> out(fps.span.size());
  for (size_t j = 0; j < out.size(); ++j) out[j] = {fps.span[j], ids.span[j], distances.span[j]};
  return out;
}

py::dict Dedup(py::handle fingerprints, py::handle empty, py::handle scores, std::optional<int> k,
               const std::string& scheme, const std::vector<std::shared_ptr<IndexHandle>>& against,
               const std::string& strategy, int threads, size_t memory, const std::string& tmpdir, bool keep_pairs,
               py::handle near_pairs, const py::sequence& index_matches, bool force_plain_groups) {
  DedupOptions o;
  ThrowIfError(Scheme::Parse(scheme, &o.scheme));
  o.k = k.value_or(-1);
  o.threads = ResolveThreads(threads, 1);
  o.memory_bytes = memory;
  o.tmpdir = tmpdir;
  o.keep_pairs = keep_pairs;
  o.against_strategy = StrategyNamed(strategy);
  o.force_plain_groups = force_plain_groups;
  o.external_pairs = !near_pairs.is_none();

  const ArrayView<uint64_t> fps = ViewArray<uint64_t>(fingerprints, "fingerprints");
  const size_t n = fps.span.size();
  std::optional<ArrayView<bool>> empty_view;
  if (!empty.is_none()) {
    empty_view = ViewArray<bool>(empty, "empty");
    if (empty_view->span.size() != n) throw py::value_error("empty and fingerprints differ in length");
  }
  std::optional<ArrayView<double>> score_view;
  if (!scores.is_none()) {
    score_view = ViewArray<double>(scores, "scores");
    if (score_view->span.size() != n) throw py::value_error("scores and fingerprints differ in length");
  }
  std::vector<NearPair> pairs;
  if (o.external_pairs) {
    const py::tuple t = near_pairs.cast<py::tuple>();
    if (t.size() != 3) throw py::value_error("near_pairs must be (a, b, distances)");
    const ArrayView<uint64_t> a = ViewArray<uint64_t>(t[0], "near_pairs a");
    const ArrayView<uint64_t> b = ViewArray<uint64_t>(t[1], "near_pairs b");
    const ArrayView<uint8_t> d = ViewArray<uint8_t>(t[2], "near_pairs distances");
    if (b.span.size() != a.span.size() || d.span.size() != a.span.size()) {
      throw py::value_error("near_pairs arrays differ in length");
    }
    pairs.resize(a.span.size());
    for (size_t i = 0; i < pairs.size(); ++i) pairs[i] = {a.span[i], b.span[i], d.span[i]};
  }
  std::vector<std::vector<NearestEntry>> matches;
  for (size_t i = 0; i < index_matches.size(); ++i) matches.push_back(MatchesOf(index_matches[i], i));
  std::vector<std::shared_ptr<const IndexReader>> readers;
  for (const auto& h : against) readers.push_back(h->reader());

  std::unique_ptr<Deduplicator> dedup;
  std::vector<uint64_t> pa, pb;
  std::vector<uint8_t> pd;
  {
    py::gil_scoped_release release;
    ThrowIfError(Deduplicator::Create(o, &dedup));
    for (size_t i = 0; i < n; ++i) {
      if (empty_view && empty_view->span[i]) {
        ThrowIfError(dedup->AddEmpty());
      } else {
        ThrowIfError(dedup->Add(fps.span[i], score_view ? score_view->span[i] : 0.0));
      }
    }
    for (const auto& r : readers) ThrowIfError(dedup->AddIndex(r.get()));
    if (o.external_pairs) ThrowIfError(dedup->AddNearPairs(pairs));
    pairs = std::vector<NearPair>();
    for (const auto& m : matches) ThrowIfError(dedup->AddIndexMatches(m));
    ThrowIfError(dedup->Finish());
    if (keep_pairs) {
      ThrowIfError(dedup->ForEachPair([&](uint64_t a, uint64_t b, int d) {
        pa.push_back(a);
        pb.push_back(b);
        pd.push_back(static_cast<uint8_t>(d));
        return Status::OK();
      }));
    }
  }
  py::array_t<uint64_t> representative(static_cast<py::ssize_t>(n)), against_id(static_cast<py::ssize_t>(n));
  py::array_t<int8_t> distance(static_cast<py::ssize_t>(n)), against_distance(static_cast<py::ssize_t>(n));
  py::array_t<bool> duplicate(static_cast<py::ssize_t>(n)), is_empty(static_cast<py::ssize_t>(n));
  py::array_t<int32_t> against_index(static_cast<py::ssize_t>(n));
  for (size_t i = 0; i < n; ++i) {
    const DedupResult r = dedup->Result(i);
    representative.mutable_data()[i] = r.representative;
    distance.mutable_data()[i] = r.empty ? -1 : static_cast<int8_t>(r.distance);
    duplicate.mutable_data()[i] = r.duplicate;
    is_empty.mutable_data()[i] = r.empty;
    against_index.mutable_data()[i] = r.against_index;
    against_id.mutable_data()[i] = r.against_index >= 0 ? r.against_id : 0;
    against_distance.mutable_data()[i] = r.against_index >= 0 ? static_cast<int8_t>(r.against_distance) : -1;
  }
  py::dict out;
  out["representative"] = representative;
  out["distance"] = distance;
  out["duplicate"] = duplicate;
  out["empty"] = is_empty;
  out["against_index"] = against_index;
  out["against_id"] = against_id;
  out["against_distance"] = against_distance;
  out["pairs"] = keep_pairs ? py::object(py::make_tuple(ToArray(pa), ToArray(pb), ToArray(pd))) : py::object(py::none());
  out["stats"] = StatsDict(dedup->stats());
  return out;
}

}  // namespace

void DefineDedup(py::module_& m) {
  m.def("_dedup", &Dedup, py::arg("fingerprints"), py::kw_only(), py::arg("empty") = py::none(),
        py::arg("scores") = py::none(), py::arg("k") = py::none(), py::arg("scheme") = "t10",
        py::arg("against") = std::vector<std::shared_ptr<IndexHandle>>(), py::arg("strategy") = "auto",
        py::arg("threads") = 1, py::arg("memory") = size_t{1} << 30, py::arg("tmpdir") = "",
        py::arg("pairs") = false, py::arg("near_pairs") = py::none(), py::arg("index_matches") = py::tuple(),
        py::arg("force_plain_groups") = false,
        "The engine's Deduplicator; use simdex.dedup(), which wraps the result in a DedupResult.");
}

}  // namespace simdex::python
