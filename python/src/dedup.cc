// simdex._simdex.dedup: include/simdex/dedup.h for Python. The whole run
// (adding, the self-join, clusters) releases the GIL; results come back as
// numpy arrays by document ordinal (simdex.DedupResult wraps them).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/index_handle.h"
#include "python/src/module.h"
#include "simdex/dedup.h"
#include "simdex/profile.h"

namespace py = pybind11;

namespace simdex::python {

py::dict DedupColumns(uint64_t n, const std::function<DedupResult(uint64_t)>& record, bool narrow,
                      bool with_against) {
  using namespace pybind11::literals;
  const auto representatives = [&](auto width) {
    using R = decltype(width);
    return py::object(std::get<0>(
        Columns<R>(n, [&](uint64_t i) { return std::tuple{static_cast<R>(record(i).representative)}; })));
  };
  auto [distance, duplicate, empty] = Columns<int8_t, bool, bool>(n, [&](uint64_t i) {
    const DedupResult r = record(i);
    return std::tuple{r.empty ? int8_t{-1} : static_cast<int8_t>(r.distance), r.duplicate, r.empty};
  });
  py::object against[3] = {py::none(), py::none(), py::none()};  // index, id, distance
  if (with_against) {
    std::tie(against[0], against[1], against[2]) = Columns<int32_t, uint64_t, int8_t>(n, [&](uint64_t i) {
      const DedupResult r = record(i);
      const bool matched = r.against_index >= 0;
      return std::tuple{r.against_index, matched ? r.against_id : 0,
                        matched ? static_cast<int8_t>(r.against_distance) : int8_t{-1}};
    });
  }
  return py::dict(
      "representative"_a = narrow && n <= std::numeric_limits<uint32_t>::max() ? representatives(uint32_t{})
                                                                              : representatives(uint64_t{}),
      "distance"_a = distance, "duplicate"_a = duplicate, "empty"_a = empty, "against_index"_a = against[0],
      "against_id"_a = against[1], "against_distance"_a = against[2]);
}

namespace {

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

// Reads values of pieces one after another, as if they were one array.
template <typename T>
class PieceCursor {
 public:
  explicit PieceCursor(const std::vector<std::span<const T>>& pieces) : pieces_(pieces) {}
  T Next() {
    while (at_ == pieces_[piece_].size()) {
      ++piece_;
      at_ = 0;
    }
    return pieces_[piece_][at_++];
  }

 private:
  const std::vector<std::span<const T>>& pieces_;
  size_t piece_ = 0;
  size_t at_ = 0;
};

template <typename T>
size_t TotalSize(const std::vector<std::span<const T>>& pieces) {
  size_t n = 0;
  for (const std::span<const T>& p : pieces) n += p.size();
  return n;
}

// near_pairs: one (a, b, distances) tuple of arrays, or a list of them.
std::vector<std::array<ArrayView<uint64_t>, 2>> ViewNearPairs(py::handle near_pairs,
                                                              std::vector<ArrayView<uint8_t>>* distances) {
  std::vector<py::handle> triples;
  if (py::isinstance<py::list>(near_pairs)) {
    for (py::handle t : py::reinterpret_borrow<py::list>(near_pairs)) triples.push_back(t);
  } else {
    triples.push_back(near_pairs);
  }
  std::vector<std::array<ArrayView<uint64_t>, 2>> ab;
  for (py::handle triple : triples) {
    const py::tuple t = triple.cast<py::tuple>();
    if (t.size() != 3) throw py::value_error("near_pairs must be (a, b, distances) or a list of them");
    ab.push_back({ViewArray<uint64_t>(t[0], "near_pairs a"), ViewArray<uint64_t>(t[1], "near_pairs b")});
    distances->push_back(ViewArray<uint8_t>(t[2], "near_pairs distances"));
    if (ab.back()[1].span.size() != ab.back()[0].span.size() || distances->back().span.size() != ab.back()[0].span.size()) {
      throw py::value_error("near_pairs arrays differ in length");
    }
  }
  return ab;
}

py::dict Dedup(py::handle fingerprints, py::handle empty, py::handle scores, std::optional<int> k,
               const std::string& scheme, const std::vector<std::shared_ptr<IndexHandle>>& against,
               const std::string& strategy, int threads, size_t memory, const std::string& tmpdir, bool keep_pairs,
               py::handle near_pairs, const py::sequence& index_matches, bool force_plain_groups, bool narrow,
               std::optional<std::string> profile) {
  DedupOptions o;
  // The fingerprints must be comparable with every index's.
  for (const auto& h : against) {
    ThrowIfError(CheckSameProfile(h->path(), h->reader()->profile(), "the fingerprints' profile", profile.value_or("")));
  }
  ThrowIfError(Scheme::Parse(scheme, &o.scheme));
  o.k = k.value_or(-1);
  o.threads = ResolveThreads(threads, 1);
  o.memory_bytes = memory;
  o.tmpdir = tmpdir;
  o.keep_pairs = keep_pairs;
  o.against_strategy = StrategyNamed(strategy);
  o.force_plain_groups = force_plain_groups;
  o.external_pairs = !near_pairs.is_none();

  // Each input is one array, or a list of arrays read one after another
  // (simdex.dask's partitions, used where they are).
  const std::vector<ArrayView<uint64_t>> fp_views = ViewPieces<uint64_t>(fingerprints, "fingerprints");
  const std::vector<std::span<const uint64_t>> fps = Spans(fp_views);
  const size_t n = TotalSize(fps);
  std::vector<FlagsView> empty_views;
  std::vector<std::span<const uint8_t>> empties;
  if (!empty.is_none()) {
    if (py::isinstance<py::list>(empty) && py::len(empty) > 0 &&
        py::isinstance<py::array>(py::reinterpret_borrow<py::list>(empty)[0])) {
      for (py::handle e : py::reinterpret_borrow<py::list>(empty)) empty_views.push_back(ViewFlags(e, "empty"));
    } else {
      empty_views.push_back(ViewFlags(empty, "empty"));
    }
    for (const FlagsView& e : empty_views) empties.push_back(e.span);
    if (TotalSize(empties) != n) throw py::value_error("empty and fingerprints differ in length");
  }
  std::vector<ArrayView<double>> score_views;
  std::vector<std::span<const double>> score_spans;
  if (!scores.is_none()) {
    score_views = ViewPieces<double>(scores, "scores");
    score_spans = Spans(score_views);
    if (TotalSize(score_spans) != n) throw py::value_error("scores and fingerprints differ in length");
  }
  std::vector<ArrayView<uint8_t>> pair_distances;
  std::vector<std::array<ArrayView<uint64_t>, 2>> pair_ends;
  if (o.external_pairs) pair_ends = ViewNearPairs(near_pairs, &pair_distances);
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
    PieceCursor<uint64_t> fp(fps);
    PieceCursor<uint8_t> is_empty(empties);
    PieceCursor<double> score(score_spans);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t f = fp.Next();
      const bool e = !empties.empty() && is_empty.Next() != 0;
      const double sc = score_spans.empty() ? 0.0 : score.Next();
      ThrowIfError(e ? dedup->AddEmpty() : dedup->Add(f, sc));
    }
    for (const auto& r : readers) ThrowIfError(dedup->AddIndex(r.get()));
    if (o.external_pairs) {
      // Through one small buffer: the Deduplicator keeps its own copy.
      std::vector<NearPair> buffer;
      for (size_t c = 0; c < pair_ends.size(); ++c) {
        const std::span<const uint64_t> a = pair_ends[c][0].span, b = pair_ends[c][1].span;
        const std::span<const uint8_t> d = pair_distances[c].span;
        for (size_t i = 0; i < a.size();) {
          const size_t m = std::min<size_t>(a.size() - i, size_t{1} << 16);
          buffer.resize(m);
          for (size_t j = 0; j < m; ++j) buffer[j] = {a[i + j], b[i + j], d[i + j]};
          ThrowIfError(dedup->AddNearPairs(buffer));
          i += m;
        }
      }
    }
    for (const auto& m : matches) ThrowIfError(dedup->AddIndexMatches(m));
    matches.clear();
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
  // narrow (simdex.dask, for the trip to the client): representatives as
  // uint32 below 2^32 documents, the against columns None when nothing matched.
  py::dict out = DedupColumns(n, [&](uint64_t i) { return dedup->Result(i); }, narrow,
                              !narrow || dedup->stats().against_matches > 0);
  out["pairs"] = keep_pairs ? py::object(py::make_tuple(ToArray(pa), ToArray(pb), ToArray(pd))) : py::object(py::none());
  out["stats"] = StatsDict(dedup->stats());
  return out;
}

}  // namespace

void DefineDedup(py::module_& m) {
  m.def("_dedup", &Dedup, py::arg("fingerprints"), py::kw_only(), py::arg("empty") = py::none(),
        py::arg("scores") = py::none(), py::arg("k") = py::none(), py::arg("scheme") = Scheme::Default().Name(),
        py::arg("against") = std::vector<std::shared_ptr<IndexHandle>>(), py::arg("strategy") = "auto",
        py::arg("threads") = 1, py::arg("memory") = size_t{1} << 30, py::arg("tmpdir") = "",
        py::arg("pairs") = false, py::arg("near_pairs") = py::none(), py::arg("index_matches") = py::tuple(),
        py::arg("force_plain_groups") = false, py::arg("narrow") = false, py::arg("profile") = py::none(),
        "The engine's Deduplicator; use simdex.dedup(), which wraps the result in a DedupResult. fingerprints, "
        "empty and scores may each be a list of arrays read one after another, near_pairs a list of "
        "(a, b, distances); narrow: representatives as uint32 below 2**32 documents and the against columns None "
        "when nothing matched (simdex.dask).");
}

}  // namespace simdex::python
