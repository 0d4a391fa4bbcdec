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

// A C-contiguous 2-D array of T used in place: its values, row after row,
// and its width.
template <typename T>
struct Table {
  RowsView<T> rows;
  size_t width = 0;
  std::span<const T> Values() const { return {rows.data, rows.rows * width}; }
};
template <typename T>
Table<T> ViewTable(py::handle obj, const char* what) {
  if (!py::isinstance<py::array>(obj) || py::reinterpret_borrow<py::array>(obj).ndim() != 2) {
    throw py::value_error(std::string(what) + " must be a 2-D numpy array");
  }
  Table<T> t;
  t.width = static_cast<size_t>(py::reinterpret_borrow<py::array>(obj).shape(1));
  t.rows = ViewRows<T>(obj, t.width, what);
  if (py::reinterpret_borrow<py::array>(obj).shape(0) == 0) t.rows.rows = 0;
  return t;
}

// Tuples of arrays in a sequence: element `field` of each, in place.
template <typename T>
std::vector<ArrayView<T>> Fields(const py::sequence& pieces, size_t field, const char* what) {
  std::vector<ArrayView<T>> out;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const py::tuple piece = pieces[i].cast<py::tuple>();
    if (piece.size() <= field) throw py::value_error(std::string(what) + "[" + std::to_string(i) + "] is too short");
    out.push_back(ViewArray<T>(piece[field], (std::string(what) + "[" + std::to_string(i) + "]").c_str()));
  }
  return out;
}

std::vector<KeyPairsView> PairViews(const std::vector<ArrayView<uint64_t>>& a, const std::vector<ArrayView<uint64_t>>& b) {
  std::vector<KeyPairsView> out;
  for (size_t i = 0; i < a.size(); ++i) out.push_back({a[i].span, b[i].span});
  return out;
}

// (a, b, estimates, ...) tuples in place.
struct EstimatedViews {
  std::vector<ArrayView<uint64_t>> a, b;
  std::vector<ArrayView<double>> e;
  std::vector<EstimatedPairsView> views;
};
EstimatedViews ViewEstimated(const py::sequence& pieces, const char* what) {
  EstimatedViews out;
  out.a = Fields<uint64_t>(pieces, 0, what);
  out.b = Fields<uint64_t>(pieces, 1, what);
  out.e = Fields<double>(pieces, 2, what);
  for (size_t i = 0; i < pieces.size(); ++i) out.views.push_back({out.a[i].span, out.b[i].span, out.e[i].span});
  return out;
}

py::tuple EstimatedTuple(EstimatedPairs* p) {
  return py::make_tuple(Own(&p->a), Own(&p->b), Own(&p->estimates));
}

py::list KeyPairsList(std::vector<KeyPairs>* pieces) {
  py::list out;
  for (KeyPairs& p : *pieces) out.append(py::make_tuple(Own(&p.a), Own(&p.b)));
  return out;
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
  ArrayView<uint64_t> offsets, first_of, kept_a, kept_b;
  FlagsView empty;
  ArrayView<double> kept_estimates;
  MinHashItemsView view;
};
ItemsViews ViewItems(const py::dict& d) {
  ItemsViews v;
  v.offsets = ViewArray<uint64_t>(d["offsets"], "offsets");
  v.first_of = ViewArray<uint64_t>(d["first_of"], "first_of");
  v.kept_a = ViewArray<uint64_t>(d["kept_a"], "kept_a");
  v.kept_b = ViewArray<uint64_t>(d["kept_b"], "kept_b");
  v.kept_estimates = ViewArray<double>(d["kept_estimates"], "kept_estimates");
  v.empty = ViewFlags(d["empty"], "empty");
  if (v.empty.span.size() != v.first_of.span.size() || v.offsets.span.empty() ||
      v.offsets.span.back() != v.first_of.span.size()) {
    throw py::value_error("items: offsets, empty and first_of disagree");
  }
  // The library trusts the items AssembleItems made; a dict from elsewhere is checked.
  const size_t n = v.first_of.span.size();
  for (size_t o = 0; o < n; ++o) {
    if (v.first_of.span[o] > o) throw py::value_error("items: first_of[" + std::to_string(o) + "] comes after it");
  }
  if (v.kept_b.span.size() != v.kept_a.span.size() || v.kept_estimates.span.size() != v.kept_a.span.size()) {
    throw py::value_error("items: kept_a, kept_b and kept_estimates differ in length");
  }
  for (size_t i = 0; i < v.kept_a.span.size(); ++i) {
    if (v.kept_a.span[i] >= n || v.kept_b.span[i] >= n) {
      throw py::value_error("items: kept pair " + std::to_string(i) + " is outside the " + std::to_string(n) +
                            " documents");
    }
  }
  v.view = {v.offsets.span, v.empty.span, v.first_of.span, v.kept_a.span, v.kept_b.span, v.kept_estimates.span};
  return v;
}

// The scores, or none for None.
ArrayView<double> ScoresOf(py::handle scores) {
  return scores.is_none() ? ArrayView<double>() : ViewArray<double>(scores, "scores");
}

py::dict ClustersDict(MinHashClusters* c) {
  py::dict d;
  d["representative"] = Own(&c->representative);
  d["other"] = Own(&c->other);
  d["slot"] = Own(&c->slot);
  d["requests"] = KeyPairsList(&c->requests);
  d["clusters"] = c->clusters;
  d["clustered_documents"] = c->clustered_documents;
  return d;
}

// The confirmation's rows (keys, lims, values) in place: values are the
// shingle hashes (uint64) or the texts' bytes (uint8), by their dtype.
struct RowsViews {
  ArrayView<uint64_t> keys, lims, hashes;
  ArrayView<uint8_t> bytes;
  ConfirmRowsView view;
};
bool HoldsBytes(py::handle values) {
  return py::isinstance<py::array>(values) && py::reinterpret_borrow<py::array>(values).dtype().itemsize() == 1;
}
void ViewConfirmRows(py::handle keys, py::handle lims, py::handle values, RowsViews* v) {
  if (!keys.is_none()) v->keys = ViewArray<uint64_t>(keys, "keys");
  v->lims = ViewArray<uint64_t>(lims, "lims");
  if (HoldsBytes(values)) v->bytes = ViewArray<uint8_t>(values, "values");
  else v->hashes = ViewArray<uint64_t>(values, "values");
  v->view = {v->keys.span, v->lims.span, v->hashes.span, v->bytes.span};
}
py::tuple RowsTuple(ConfirmRows* rows, bool bytes) {
  py::object values = bytes ? py::object(Own(&rows->bytes)) : py::object(Own(&rows->hashes));
  return py::make_tuple(Own(&rows->keys), Own(&rows->lims), values);
}
py::tuple ConfirmedTuple(ConfirmedPairs* c) {
  return py::make_tuple(Own(&c->pairs.a), Own(&c->pairs.b), Own(&c->pairs.estimates), Own(&c->similarities));
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
          py::list out;
          for (DigestPiece& p : pieces) out.append(py::make_tuple(Own(&p.digests), Own(&p.keys)));
          return out;
        }, py::arg("digests"), py::arg("empty"), py::arg("partition"), py::arg("ranges"),
        "SplitDigests: one (digests, keys) piece per digest range of the partition's non-empty documents.");
  m.def("minhash_find_followers", [](const py::sequence& pieces, uint32_t partitions) {
          const auto digests = Fields<uint64_t>(pieces, 0, "pieces"), keys = Fields<uint64_t>(pieces, 1, "pieces");
          std::vector<DigestPieceView> views;
          for (size_t i = 0; i < digests.size(); ++i) views.push_back({digests[i].span, keys[i].span});
          std::vector<Followers> found;
          WithoutGil([&] { return FindFollowers(views, partitions, &found); });
          py::list out;
          for (Followers& f : found) out.append(py::make_tuple(Own(&f.positions), Own(&f.firsts)));
          return out;
        }, py::arg("pieces"), py::arg("partitions"),
        "FindFollowers: per partition (positions uint32, first keys uint64) of its documents that follow an "
        "earlier one of the same signature, from one digest range's pieces.");
  m.def("minhash_split_band_keys", [](py::handle keys, py::handle empty, uint32_t partition,
                                      const py::sequence& followers, int ranges) {
          const Table<uint64_t> k = ViewTable<uint64_t>(keys, "keys");
          const FlagsView e = ViewFlags(empty, "empty");
          const auto positions = Fields<uint32_t>(followers, 0, "followers");
          const std::vector<std::span<const uint32_t>> spans = Spans(positions);
          std::vector<BandPiece> pieces;
          WithoutGil([&] {
            return SplitBandKeys(partition, k.Values(), static_cast<int>(k.width), e.span, spans, ranges, &pieces);
          });
          py::list out;
          for (BandPiece& p : pieces) out.append(py::make_tuple(Own(&p.keys), Own(&p.items), Own(&p.lims)));
          return out;
        }, py::arg("keys"), py::arg("empty"), py::arg("partition"), py::arg("followers"), py::arg("ranges"),
        "SplitBandKeys: one (keys, items, lims) piece per key range of the partition's items; keys is n x bands, "
        "followers the (positions, firsts) minhash_find_followers gave this partition from every range.");
  m.def("minhash_join_band_range", [](const py::sequence& pieces, uint32_t partitions, std::optional<int> threads) {
          const auto keys = Fields<uint64_t>(pieces, 0, "pieces"), items = Fields<uint64_t>(pieces, 1, "pieces"),
                     lims = Fields<uint64_t>(pieces, 2, "pieces");
          std::vector<BandPieceView> views;
          for (size_t i = 0; i < keys.size(); ++i) views.push_back({keys[i].span, items[i].span, lims[i].span});
          const int t = ResolveThreads(threads, 1);
          std::vector<KeyPairs> pairs;
          WithoutGil([&] { return JoinBandRange(views, partitions, t, &pairs); });
          return KeyPairsList(&pairs);
        }, py::arg("pieces"), py::arg("partitions"), py::kw_only(), py::arg("threads") = 1,
        "JoinBandRange: per partition of a, the (a, b) key pairs of items sharing a band's key in this range.");
  m.def("minhash_attach_first", [](py::handle packed, uint32_t partition, const py::sequence& pieces,
                                   uint32_t partitions) {
          const Table<uint8_t> s = ViewTable<uint8_t>(packed, "packed");
          const auto a = Fields<uint64_t>(pieces, 0, "pieces"), b = Fields<uint64_t>(pieces, 1, "pieces");
          const std::vector<KeyPairsView> views = PairViews(a, b);
          std::vector<SignedPairs> signed_pairs;
          WithoutGil([&] {
            return AttachFirstSignatures(partition, views, s.Values(), s.width, partitions, &signed_pairs);
          });
          py::list out;
          for (SignedPairs& p : signed_pairs) {
            const py::ssize_t rows = static_cast<py::ssize_t>(p.a.size());
            out.append(py::make_tuple(Own(&p.a), Own(&p.b), Own(&p.signatures, rows)));
          }
          return out;
        }, py::arg("packed"), py::arg("partition"), py::arg("pieces"), py::arg("partitions"),
        "AttachFirstSignatures: per partition of b, the distinct (a, b, a's signatures) of the pieces.");
  m.def("minhash_estimate_second", [](py::handle packed, uint32_t partition, const py::sequence& pieces, int num_perm,
                                      int bits, std::optional<double> min_estimate) {
          const Table<uint8_t> s = ViewTable<uint8_t>(packed, "packed");
          const auto a = Fields<uint64_t>(pieces, 0, "pieces"), b = Fields<uint64_t>(pieces, 1, "pieces");
          std::vector<Table<uint8_t>> sigs;
          std::vector<SignedPairsView> views;
          for (size_t i = 0; i < pieces.size(); ++i) {
            sigs.push_back(ViewTable<uint8_t>(pieces[i].cast<py::tuple>()[2], "signatures"));
            views.push_back({a[i].span, b[i].span, sigs.back().Values()});
          }
          EstimatedPairs kept;
          uint64_t candidates = 0;
          WithoutGil([&] {
            return EstimateSecond(partition, views, s.Values(), num_perm, bits, min_estimate.value_or(-1), &kept,
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
          std::vector<std::vector<ArrayView<uint32_t>>> positions;
          std::vector<std::vector<ArrayView<uint64_t>>> firsts;
          std::vector<FollowersView> views;
          for (size_t r = 0; r < followers.size(); ++r) {
            const py::sequence range = followers[r].cast<py::sequence>();
            positions.push_back(Fields<uint32_t>(range, 0, "followers"));
            firsts.push_back(Fields<uint64_t>(range, 1, "followers"));
            for (size_t p = 0; p < range.size(); ++p) {
              views.push_back({static_cast<uint32_t>(p), positions.back()[p].span, firsts.back()[p].span});
            }
          }
          const EstimatedViews k = ViewEstimated(kept, "kept");
          MinHashItems items;
          WithoutGil([&] { return AssembleItems(n.span, e.span, views, k.views, &items); });
          return ItemsDict(&items);
        }, py::arg("sizes"), py::arg("empty"), py::arg("followers"), py::arg("kept"),
        "AssembleItems: a dict (offsets, empty, first_of, kept_a, kept_b, kept_estimates, stats) from the "
        "partitions' sizes and empty flags, the followers of every digest range (per range a list per "
        "partition) and the kept pairs of every minhash_estimate_second.");
  m.def("minhash_document_pairs", [](const py::dict& items) {
          const ItemsViews v = ViewItems(items);
          EstimatedPairs pairs;
          WithoutGil([&] { DocumentPairs(v.view, &pairs); });
          return EstimatedTuple(&pairs);
        }, py::arg("items"), "DocumentPairs: (a, b, estimates) ordinals of the document pairs, by (a, b).");
  m.def("minhash_cluster_items", [](const py::dict& items, py::handle scores) {
          const ItemsViews v = ViewItems(items);
          const ArrayView<double> s = ScoresOf(scores);
          MinHashClusters clusters;
          WithoutGil([&] { return ClusterItems(v.view, s.span, &clusters); });
          return ClustersDict(&clusters);
        }, py::arg("items"), py::arg("scores"),
        "ClusterItems: (representative, other, slot, requests per partition, clusters, clustered_documents).");
  m.def("minhash_cluster_documents", [](const py::dict& items, py::handle scores, py::handle a, py::handle b) {
          const ItemsViews v = ViewItems(items);
          const ArrayView<double> s = ScoresOf(scores);
          const ArrayView<uint64_t> x = ViewArray<uint64_t>(a, "a"), y = ViewArray<uint64_t>(b, "b");
          MinHashClusters clusters;
          WithoutGil([&] { return ClusterDocuments(v.view, s.span, x.span, y.span, &clusters); });
          return ClustersDict(&clusters);
        }, py::arg("items"), py::arg("scores"), py::arg("a"), py::arg("b"),
        "ClusterDocuments: as minhash_cluster_items, of the document pairs (a[i], b[i]) (ordinals) alone.");
  m.def("minhash_finish_estimates", [](const py::dict& items, py::handle other, py::handle slot,
                                       const py::sequence& estimated) {
          const ItemsViews v = ViewItems(items);
          const ArrayView<uint64_t> o = ViewArray<uint64_t>(other, "other"), s = ViewArray<uint64_t>(slot, "slot");
          const EstimatedViews e = ViewEstimated(estimated, "estimated");
          std::vector<float> estimates;
          WithoutGil([&] { return FinishEstimates(v.view, o.span, s.span, e.views, &estimates); });
          return Own(&estimates);
        }, py::arg("items"), py::arg("other"), py::arg("slot"), py::arg("estimated"),
        "FinishEstimates: each document's estimate with its representative (float32).");
  m.def("minhash_confirm_candidates", [](const py::dict& items) {
          const ItemsViews v = ViewItems(items);
          ConfirmCandidates c;
          WithoutGil([&] { CutConfirmCandidates(v.view, &c); });
          py::list pieces, wanted;
          for (EstimatedPairs& p : c.pieces) pieces.append(EstimatedTuple(&p));
          for (std::vector<std::vector<uint32_t>>& w : c.wanted) {
            py::list row;
            for (std::vector<uint32_t>& positions : w) row.append(Own(&positions));
            wanted.append(row);
          }
          return py::make_tuple(pieces, wanted, c.pairs);
        }, py::arg("items"),
        "CutConfirmCandidates: (pieces, wanted, pairs): the document pairs as keys (a, b, estimates) by the "
        "partition of b, and wanted[p][q] the positions of partition p's documents in pieces[q].");
  m.def("minhash_pick_confirm_rows", [](uint32_t partition, py::handle positions, py::handle lims, py::handle values,
                                        const py::sequence& wanted) {
          const ArrayView<uint32_t> read = ViewArray<uint32_t>(positions, "positions");
          RowsViews rows;
          ViewConfirmRows(py::none(), lims, values, &rows);
          std::vector<ArrayView<uint32_t>> w;
          for (size_t q = 0; q < wanted.size(); ++q) w.push_back(ViewArray<uint32_t>(wanted[q], "wanted"));
          const std::vector<std::span<const uint32_t>> spans = Spans(w);
          std::vector<ConfirmRows> picked;
          WithoutGil([&] { return PickConfirmRows(partition, read.span, rows.view, spans, &picked); });
          py::list out;
          for (ConfirmRows& r : picked) out.append(RowsTuple(&r, HoldsBytes(values)));
          return out;
        }, py::arg("partition"), py::arg("positions"), py::arg("lims"), py::arg("values"), py::arg("wanted"),
        "PickConfirmRows: per entry of wanted, the (keys, lims, values) of those documents, from the rows "
        "(lims, values) _confirm_file read for `positions`.");
  m.def("minhash_confirm_pieces", [](const std::string& spec, const py::tuple& pairs, const py::sequence& rows) {
          ConfirmOptions options;
          ThrowIfError(ParseConfirmSpec(spec, &options));
          std::unique_ptr<Confirmer> confirmer;
          ThrowIfError(Confirmer::Create(options, &confirmer));
          const EstimatedViews p = ViewEstimated(py::make_tuple(pairs), "pairs");
          std::vector<RowsViews> views(rows.size());
          std::vector<ConfirmRowsView> spans;
          for (size_t i = 0; i < rows.size(); ++i) {
            const py::tuple r = rows[i].cast<py::tuple>();
            if (r.size() != 3) throw py::value_error("rows[" + std::to_string(i) + "] is not (keys, lims, values)");
            ViewConfirmRows(r[0], r[1], r[2], &views[i]);
            spans.push_back(views[i].view);
          }
          ConfirmedPairs confirmed;
          WithoutGil([&] { return ConfirmPieces(confirmer.get(), p.views[0], spans, &confirmed); });
          return ConfirmedTuple(&confirmed);
        }, py::arg("spec"), py::arg("pairs"), py::arg("rows"),
        "ConfirmPieces: (a, b, estimates, similarities) of the pairs (a, b, estimates) accepted by the --confirm "
        "spec, from the documents' rows (keys, lims, values) of minhash_pick_confirm_rows.");
  m.def("minhash_cluster_confirmed", [](const py::dict& items, py::handle scores, const py::sequence& confirmed,
                                        bool keep_pairs) {
          const ItemsViews v = ViewItems(items);
          const ArrayView<double> s = ScoresOf(scores);
          const EstimatedViews e = ViewEstimated(confirmed, "confirmed");
          const std::vector<ArrayView<double>> similarities = Fields<double>(confirmed, 3, "confirmed");
          std::vector<ConfirmedPairsView> views;
          for (size_t i = 0; i < e.views.size(); ++i) views.push_back({e.views[i], similarities[i].span});
          MinHashClusters clusters;
          ConfirmedPairs pairs;
          WithoutGil([&] { return ClusterConfirmed(v.view, s.span, views, keep_pairs, &clusters, &pairs); });
          return py::make_tuple(ClustersDict(&clusters), keep_pairs ? py::object(ConfirmedTuple(&pairs)) : py::none());
        }, py::arg("items"), py::arg("scores"), py::arg("confirmed"), py::arg("keep_pairs"),
        "ClusterConfirmed: (clusters as minhash_cluster_documents gives them, the accepted pairs as ordinals "
        "(a, b, estimates, similarities) by (a, b), or None without keep_pairs).");
}

}  // namespace simdex::python
