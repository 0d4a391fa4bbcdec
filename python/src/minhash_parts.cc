// The pieces of MinHash de-duplication (include/simdex/minhash_dedup_parts.h)
// for Python, as simdex.dask's workers call them (python/simdex/
// _dask_minhash.py). Arrays come in used in place and go out owning the
// library's vectors (no copies); pieces are tuples of arrays, lists of
// pieces go one per range or partition.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/module.h"
#include "simdex/confirm.h"
#include "simdex/minhash_dedup_parts.h"

namespace py = pybind11;

namespace simdex::python {

// The Confirmer of a spec; ValueError naming the spec for a bad one (confirm.cc).
std::unique_ptr<Confirmer> MakeConfirmer(const std::string& spec);

namespace {

// A numpy array that owns *values (moved): 1-D, or rows x (size / rows).
template <typename T>
py::array_t<T> Own(std::vector<T>* values, py::ssize_t rows = -1) {
  auto* held = new std::vector<T>(std::move(*values));
  py::capsule owner(held, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  const py::ssize_t size = static_cast<py::ssize_t>(held->size());
  if (rows < 0) return py::array_t<T>({size}, {static_cast<py::ssize_t>(sizeof(T))}, held->data(), owner);
  const py::ssize_t width = rows == 0 ? 0 : size / rows;
  return py::array_t<T>({rows, width}, {static_cast<py::ssize_t>(sizeof(T)) * width, static_cast<py::ssize_t>(sizeof(T))},
                        held->data(), owner);
}

// A tuple of arrays owning the vectors (moved), and a list of f(piece) for
// each piece: how the library's structs of vectors go out.
template <typename... T>
py::tuple Arrays(std::vector<T>&... values) {
  return py::make_tuple(Own(&values)...);
}
template <typename Piece, typename F>
py::list ListOf(std::vector<Piece>& pieces, F f) {
  py::list out;
  for (Piece& p : pieces) out.append(f(p));
  return out;
}

// The arrays a call uses in place, kept alive until it returns.
using Holders = std::vector<py::object>;

// A C-contiguous 2-D array of T used in place: its values, row after row,
// and (when asked) its width.
template <typename T>
std::span<const T> ViewTable(py::handle obj, const char* what, Holders* holders, size_t* width = nullptr) {
  if (!py::isinstance<py::array>(obj) || py::reinterpret_borrow<py::array>(obj).ndim() != 2) {
    throw py::value_error(std::string(what) + " must be a 2-D numpy array");
  }
  const size_t w = static_cast<size_t>(py::reinterpret_borrow<py::array>(obj).shape(1));
  const RowsView<T> rows = ViewRows<T>(obj, w, what);
  holders->push_back(rows.holder);
  if (width != nullptr) *width = w;
  return {rows.data, rows.rows * w};
}

// One element of a piece: a 1-D array of T (ViewArray), or the packed
// signatures, a 2-D uint8 array named "signatures" (ViewTable).
template <typename T>
std::span<const T> Array(py::handle obj, const char* what, Holders* holders) {
  ArrayView<T> v = ViewArray<T>(obj, what);
  holders->push_back(v.holder);
  return v.span;
}
std::span<const uint8_t> Signatures(py::handle obj, const char*, Holders* holders) {
  return ViewTable<uint8_t>(obj, "signatures", holders);
}

// Pieces, tuples of arrays in a sequence, in place: piece i is View{F(its
// element j, "what[i]")...} (a FollowersView of partition i).
template <typename View, auto... F>
std::vector<View> ViewTuples(const py::sequence& pieces, const char* what, Holders* holders) {
  std::vector<View> out;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const py::tuple piece = pieces[i].cast<py::tuple>();
    const std::string name = std::string(what) + "[" + std::to_string(i) + "]";
    if (piece.size() < sizeof...(F)) throw py::value_error(name + " is too short");
    [&]<size_t... J>(std::index_sequence<J...>) {
      if constexpr (std::is_same_v<View, FollowersView>) {
        out.push_back(View{static_cast<uint32_t>(i), F(piece[J], name.c_str(), holders)...});
      } else {
        out.push_back(View{F(piece[J], name.c_str(), holders)...});
      }
    }(std::index_sequence_for<decltype(F)...>());
  }
  return out;
}
constexpr auto kU64 = &Array<uint64_t>;
// (a, b, estimates, ...) tuples.
std::vector<EstimatedPairsView> ViewEstimated(const py::sequence& pieces, const char* what, Holders* holders) {
  return ViewTuples<EstimatedPairsView, kU64, kU64, &Array<double>>(pieces, what, holders);
}

// The items of AssembleItems as a dict of arrays (it travels between tasks
// and pickles), and back, in place.
py::dict ItemsDict(MinHashItems* items) {
  py::dict d;
  const MinHashDedupStats& s = items->stats;
  py::dict stats;
  stats["documents"] = s.documents;
  stats["empty"] = s.empty;
  stats["distinct_signatures"] = s.distinct_signatures;
  stats["kept"] = s.kept;
  stats["document_pairs"] = s.document_pairs;
  d["offsets"] = Own(&items->offsets);
  py::array_t<bool> empty(static_cast<py::ssize_t>(items->empty.size()));
  std::copy(items->empty.begin(), items->empty.end(), empty.mutable_data());
  d["empty"] = empty;
  d["first_of"] = Own(&items->first_of);
  d["kept_a"] = Own(&items->kept_a);
  d["kept_b"] = Own(&items->kept_b);
  d["kept_estimates"] = Own(&items->kept_estimates);
  d["stats"] = stats;
  return d;
}
struct ItemsViews {
  Holders holders;
  MinHashItemsView view;
};
ItemsViews ViewItems(const py::dict& d) {
  ItemsViews v;
  const auto u64 = [&](const char* name) { return Array<uint64_t>(d[name], name, &v.holders); };
  v.view.offsets = u64("offsets");
  v.view.first_of = u64("first_of");
  v.view.kept_a = u64("kept_a");
  v.view.kept_b = u64("kept_b");
  v.view.kept_estimates = Array<double>(d["kept_estimates"], "kept_estimates", &v.holders);
  const FlagsView empty = ViewFlags(d["empty"], "empty");
  v.holders.push_back(empty.holder);
  v.view.empty = empty.span;
  const MinHashItemsView& i = v.view;
  if (i.empty.size() != i.first_of.size() || i.offsets.empty() || i.offsets.back() != i.first_of.size()) {
    throw py::value_error("items: offsets, empty and first_of disagree");
  }
  // The library trusts the items AssembleItems made; a dict from elsewhere is checked.
  const size_t n = i.first_of.size();
  for (size_t o = 0; o < n; ++o) {
    if (i.first_of[o] > o) throw py::value_error("items: first_of[" + std::to_string(o) + "] comes after it");
  }
  if (i.kept_b.size() != i.kept_a.size() || i.kept_estimates.size() != i.kept_a.size()) {
    throw py::value_error("items: kept_a, kept_b and kept_estimates differ in length");
  }
  for (size_t k = 0; k < i.kept_a.size(); ++k) {
    if (i.kept_a[k] >= n || i.kept_b[k] >= n) {
      throw py::value_error("items: kept pair " + std::to_string(k) + " is outside the " + std::to_string(n) +
                            " documents");
    }
  }
  return v;
}

// The scores, or none for None.
std::span<const double> ScoresOf(py::handle scores, Holders* holders) {
  return scores.is_none() ? std::span<const double>() : Array<double>(scores, "scores", holders);
}

py::dict ClustersDict(MinHashClusters* c) {
  py::dict d;
  d["representative"] = Own(&c->representative);
  d["other"] = Own(&c->other);
  d["slot"] = Own(&c->slot);
  d["requests"] = ListOf(c->requests, [](KeyPairs& p) { return Arrays(p.a, p.b); });
  d["clusters"] = c->clusters;
  d["clustered_documents"] = c->clustered_documents;
  return d;
}

// The confirmation's rows (keys, lims, values) in place: values are the
// shingle hashes (uint64) or the texts' bytes (uint8), by their dtype.
bool HoldsBytes(py::handle values) {
  return py::isinstance<py::array>(values) && py::reinterpret_borrow<py::array>(values).dtype().itemsize() == 1;
}
ConfirmRowsView ViewConfirmRows(py::handle keys, py::handle lims, py::handle values, Holders* holders) {
  ConfirmRowsView v;
  if (!keys.is_none()) v.keys = Array<uint64_t>(keys, "keys", holders);
  v.lims = Array<uint64_t>(lims, "lims", holders);
  if (HoldsBytes(values)) v.bytes = Array<uint8_t>(values, "values", holders);
  else v.hashes = Array<uint64_t>(values, "values", holders);
  return v;
}
py::tuple ConfirmedTuple(ConfirmedPairs& c) {
  return Arrays(c.pairs.a, c.pairs.b, c.pairs.estimates, c.similarities);
}

}  // namespace

void DefineMinHashParts(py::module_& m) {
  m.def("hash_ranges", [](py::handle values, int ranges) {
          const ArrayView<uint64_t> v = ViewArray<uint64_t>(values, "values");
          if (ranges < 1 || ranges > (1 << 16)) throw py::value_error("ranges must be in 1..65536");
          std::vector<int32_t> out(v.span.size());
          for (size_t i = 0; i < out.size(); ++i) out[i] = HashRange(v.span[i], ranges);
          return Own(&out);
        }, py::arg("values"), py::arg("ranges"),
        "The range of each uniform 64-bit hash (band key, digest) among `ranges` even ranges: "
        "floor(value * ranges / 2**64) (HashRange, include/simdex/minhash_dedup_parts.h).");
  m.def("minhash_split_digests", [](py::handle digests, py::handle empty, uint32_t partition, int ranges) {
          const ArrayView<uint64_t> d = ViewArray<uint64_t>(digests, "digests");
          const FlagsView e = ViewFlags(empty, "empty");
          std::vector<DigestPiece> pieces;
          WithoutGil([&] { return SplitDigests(partition, d.span, e.span, ranges, &pieces); });
          return ListOf(pieces, [](DigestPiece& p) { return Arrays(p.digests, p.keys); });
        }, py::arg("digests"), py::arg("empty"), py::arg("partition"), py::arg("ranges"),
        "SplitDigests: one (digests, keys) piece per digest range of the partition's non-empty documents.");
  m.def("minhash_find_followers", [](const py::sequence& pieces, uint32_t partitions) {
          Holders h;
          const auto views = ViewTuples<DigestPieceView, kU64, kU64>(pieces, "pieces", &h);
          std::vector<Followers> found;
          WithoutGil([&] { return FindFollowers(views, partitions, &found); });
          return ListOf(found, [](Followers& f) { return Arrays(f.positions, f.firsts); });
        }, py::arg("pieces"), py::arg("partitions"),
        "FindFollowers: per partition (positions uint32, first keys uint64) of its documents that follow an "
        "earlier one of the same signature, from one digest range's pieces.");
  m.def("minhash_split_band_keys", [](py::handle keys, py::handle empty, uint32_t partition,
                                      const py::sequence& followers, int ranges) {
          Holders h;
          size_t bands = 0;
          const auto k = ViewTable<uint64_t>(keys, "keys", &h, &bands);
          const FlagsView e = ViewFlags(empty, "empty");
          const auto spans = ViewTuples<std::span<const uint32_t>, &Array<uint32_t>>(followers, "followers", &h);
          std::vector<BandPiece> pieces;
          WithoutGil([&] {
            return SplitBandKeys(partition, k, static_cast<int>(bands), e.span, spans, ranges, &pieces);
          });
          return ListOf(pieces, [](BandPiece& p) { return Arrays(p.keys, p.items, p.lims); });
        }, py::arg("keys"), py::arg("empty"), py::arg("partition"), py::arg("followers"), py::arg("ranges"),
        "SplitBandKeys: one (keys, items, lims) piece per key range of the partition's items; keys is n x bands, "
        "followers the (positions, firsts) minhash_find_followers gave this partition from every range.");
  m.def("minhash_join_band_range", [](const py::sequence& pieces, uint32_t partitions, std::optional<int> threads) {
          Holders h;
          const auto views = ViewTuples<BandPieceView, kU64, kU64, kU64>(pieces, "pieces", &h);
          const int t = ResolveThreads(threads, 1);
          std::vector<KeyPairs> pairs;
          WithoutGil([&] { return JoinBandRange(views, partitions, t, &pairs); });
          return ListOf(pairs, [](KeyPairs& p) { return Arrays(p.a, p.b); });
        }, py::arg("pieces"), py::arg("partitions"), py::kw_only(), py::arg("threads") = 1,
        "JoinBandRange: per partition of a, the (a, b) key pairs of items sharing a band's key in this range.");
  m.def("minhash_attach_first", [](py::handle packed, uint32_t partition, const py::sequence& pieces,
                                   uint32_t partitions) {
          Holders h;
          size_t bytes = 0;
          const auto s = ViewTable<uint8_t>(packed, "packed", &h, &bytes);
          const auto views = ViewTuples<KeyPairsView, kU64, kU64>(pieces, "pieces", &h);
          std::vector<SignedPairs> signed_pairs;
          WithoutGil([&] {
            return AttachFirstSignatures(partition, views, s, bytes, partitions, &signed_pairs);
          });
          return ListOf(signed_pairs, [](SignedPairs& p) {
            const py::ssize_t rows = static_cast<py::ssize_t>(p.a.size());
            return py::make_tuple(Own(&p.a), Own(&p.b), Own(&p.signatures, rows));
          });
        }, py::arg("packed"), py::arg("partition"), py::arg("pieces"), py::arg("partitions"),
        "AttachFirstSignatures: per partition of b, the distinct (a, b, a's signatures) of the pieces.");
  m.def("minhash_estimate_second", [](py::handle packed, uint32_t partition, const py::sequence& pieces, int num_perm,
                                      int bits, std::optional<double> min_estimate) {
          Holders h;
          const auto s = ViewTable<uint8_t>(packed, "packed", &h);
          const auto views = ViewTuples<SignedPairsView, kU64, kU64, &Signatures>(pieces, "pieces", &h);
          EstimatedPairs kept;
          uint64_t candidates = 0;
          WithoutGil([&] {
            return EstimateSecond(partition, views, s, num_perm, bits, min_estimate.value_or(-1), &kept,
                                  &candidates);
          });
          return py::make_tuple(Own(&kept.a), Own(&kept.b), Own(&kept.estimates), candidates);
        }, py::arg("packed"), py::arg("partition"), py::arg("pieces"), py::arg("num_perm"), py::arg("bits"),
        py::arg("min_estimate"),
        "EstimateSecond: (a, b, estimates, candidates) of the pairs at or above min_estimate (None: all).");
  m.def("minhash_assemble_items", [](py::handle sizes, py::handle empty, const py::sequence& followers,
                                     const py::sequence& kept) {
          const ArrayView<uint64_t> n = ViewArray<uint64_t>(sizes, "sizes");
          const FlagsView e = ViewFlags(empty, "empty");
          // followers: per digest range, per partition, (positions, firsts).
          Holders h;
          std::vector<FollowersView> views;
          for (size_t r = 0; r < followers.size(); ++r) {
            const py::sequence range = followers[r].cast<py::sequence>();
            const auto got = ViewTuples<FollowersView, &Array<uint32_t>, kU64>(range, "followers", &h);
            views.insert(views.end(), got.begin(), got.end());
          }
          const auto k = ViewEstimated(kept, "kept", &h);
          MinHashItems items;
          WithoutGil([&] { return AssembleItems(n.span, e.span, views, k, &items); });
          return ItemsDict(&items);
        }, py::arg("sizes"), py::arg("empty"), py::arg("followers"), py::arg("kept"),
        "AssembleItems: a dict (offsets, empty, first_of, kept_a, kept_b, kept_estimates, stats) from the "
        "partitions' sizes and empty flags, the followers of every digest range (per range a list per "
        "partition) and the kept pairs of every minhash_estimate_second.");
  m.def("minhash_document_pairs", [](const py::dict& items) {
          const ItemsViews v = ViewItems(items);
          EstimatedPairs pairs;
          WithoutGil([&] { DocumentPairs(v.view, &pairs); });
          return Arrays(pairs.a, pairs.b, pairs.estimates);
        }, py::arg("items"), "DocumentPairs: (a, b, estimates) ordinals of the document pairs, by (a, b).");
  m.def("minhash_cluster_items", [](const py::dict& items, py::handle scores) {
          ItemsViews v = ViewItems(items);
          const auto s = ScoresOf(scores, &v.holders);
          MinHashClusters clusters;
          WithoutGil([&] { return ClusterItems(v.view, s, &clusters); });
          return ClustersDict(&clusters);
        }, py::arg("items"), py::arg("scores"),
        "ClusterItems: (representative, other, slot, requests per partition, clusters, clustered_documents).");
  m.def("minhash_finish_estimates", [](const py::dict& items, py::handle other, py::handle slot,
                                       const py::sequence& estimated) {
          ItemsViews v = ViewItems(items);
          const ArrayView<uint64_t> o = ViewArray<uint64_t>(other, "other"), s = ViewArray<uint64_t>(slot, "slot");
          const auto e = ViewEstimated(estimated, "estimated", &v.holders);
          std::vector<float> estimates;
          WithoutGil([&] { return FinishEstimates(v.view, o.span, s.span, e, &estimates); });
          return Own(&estimates);
        }, py::arg("items"), py::arg("other"), py::arg("slot"), py::arg("estimated"),
        "FinishEstimates: each document's estimate with its representative (float32).");
  m.def("minhash_confirm_candidates", [](const py::dict& items) {
          const ItemsViews v = ViewItems(items);
          ConfirmCandidates c;
          WithoutGil([&] { CutConfirmCandidates(v.view, &c); });
          const py::list pieces = ListOf(c.pieces, [](EstimatedPairs& p) { return Arrays(p.a, p.b, p.estimates); });
          const py::list wanted = ListOf(c.wanted, [](std::vector<std::vector<uint32_t>>& w) {
            return ListOf(w, [](std::vector<uint32_t>& positions) { return Own(&positions); });
          });
          return py::make_tuple(pieces, wanted, c.pairs);
        }, py::arg("items"),
        "CutConfirmCandidates: (pieces, wanted, pairs): the document pairs as keys (a, b, estimates) by the "
        "partition of b, and wanted[p][q] the positions of partition p's documents in pieces[q].");
  m.def("minhash_pick_confirm_rows", [](uint32_t partition, py::handle positions, py::handle lims, py::handle values,
                                        const py::sequence& wanted) {
          const ArrayView<uint32_t> read = ViewArray<uint32_t>(positions, "positions");
          Holders h;
          const ConfirmRowsView rows = ViewConfirmRows(py::none(), lims, values, &h);
          std::vector<std::span<const uint32_t>> spans;
          for (size_t q = 0; q < wanted.size(); ++q) spans.push_back(Array<uint32_t>(wanted[q], "wanted", &h));
          std::vector<ConfirmRows> picked;
          WithoutGil([&] { return PickConfirmRows(partition, read.span, rows, spans, &picked); });
          return ListOf(picked, [bytes = HoldsBytes(values)](ConfirmRows& r) {
            return py::make_tuple(Own(&r.keys), Own(&r.lims), bytes ? py::object(Own(&r.bytes)) : Own(&r.hashes));
          });
        }, py::arg("partition"), py::arg("positions"), py::arg("lims"), py::arg("values"), py::arg("wanted"),
        "PickConfirmRows: per entry of wanted, the (keys, lims, values) of those documents, from the rows "
        "(lims, values) _confirm_file read for `positions`.");
  m.def("minhash_confirm_pieces", [](const std::string& spec, const py::tuple& pairs, const py::sequence& rows) {
          const std::unique_ptr<Confirmer> confirmer = MakeConfirmer(spec);
          Holders h;
          const auto p = ViewEstimated(py::make_tuple(pairs), "pairs", &h);
          std::vector<ConfirmRowsView> views;
          for (size_t i = 0; i < rows.size(); ++i) {
            const py::tuple r = rows[i].cast<py::tuple>();
            if (r.size() != 3) throw py::value_error("rows[" + std::to_string(i) + "] is not (keys, lims, values)");
            views.push_back(ViewConfirmRows(r[0], r[1], r[2], &h));
          }
          ConfirmedPairs confirmed;
          WithoutGil([&] { return ConfirmPieces(confirmer.get(), p[0], views, &confirmed); });
          return ConfirmedTuple(confirmed);
        }, py::arg("spec"), py::arg("pairs"), py::arg("rows"),
        "ConfirmPieces: (a, b, estimates, similarities) of the pairs (a, b, estimates) accepted by the --confirm "
        "spec, from the documents' rows (keys, lims, values) of minhash_pick_confirm_rows.");
  m.def("minhash_cluster_confirmed", [](const py::dict& items, py::handle scores, const py::sequence& confirmed,
                                        bool keep_pairs) {
          ItemsViews v = ViewItems(items);
          const auto s = ScoresOf(scores, &v.holders);
          constexpr auto f64 = &Array<double>;
          const auto views = ViewTuples<ConfirmedPairsView, kU64, kU64, f64, f64>(confirmed, "confirmed", &v.holders);
          MinHashClusters clusters;
          ConfirmedPairs pairs;
          WithoutGil([&] { return ClusterConfirmed(v.view, s, views, keep_pairs, &clusters, &pairs); });
          return py::make_tuple(ClustersDict(&clusters), keep_pairs ? py::object(ConfirmedTuple(pairs)) : py::none());
        }, py::arg("items"), py::arg("scores"), py::arg("confirmed"), py::arg("keep_pairs"),
        "ClusterConfirmed: (clusters as minhash_cluster_items gives them, the accepted pairs as ordinals "
        "(a, b, estimates, similarities) by (a, b), or None without keep_pairs).");
}

}  // namespace simdex::python
