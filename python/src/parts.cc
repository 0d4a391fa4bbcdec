// The de-duplication's pieces (include/simdex/dedup_parts.h) for Python, as
// simdex.dask's workers call them, and the scheme's tables.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "python/src/arrays.h"
#include "python/src/errors.h"
#include "python/src/index_handle.h"
#include "python/src/module.h"
#include "simdex/dedup_parts.h"

namespace py = pybind11;

namespace simdex::python {

namespace {

Scheme ParseScheme(const std::string& spec) {
  Scheme s;
  ThrowIfError(Scheme::Parse(spec, &s));
  return s;
}

void CheckTableNumber(const Scheme& scheme, int table) {
  if (table < 0 || table >= scheme.num_tables()) {
    throw py::value_error("table " + std::to_string(table) + " is outside 0.." + std::to_string(scheme.num_tables() - 1) +
                          " for scheme " + scheme.Name());
  }
}

py::tuple NearestTuple(const std::vector<NearestEntry>& found) {
  auto [fps, ids, distances] = Columns<uint64_t, uint64_t, uint8_t>(found.size(), [&](size_t i) {
    return std::tuple{found[i].fingerprint, found[i].id, static_cast<uint8_t>(found[i].distance)};
  });
  return py::make_tuple(fps, ids, distances);
}

}  // namespace

void DefineParts(py::module_& m) {
  m.def("scheme_info", [](const std::string& spec, std::optional<int> k) {
          const Scheme s = ParseScheme(spec);
          const int kk = k.value_or(s.k());
          if (kk < 0 || kk > s.k()) throw py::value_error("k " + std::to_string(kk) + " is outside 0.." + std::to_string(s.k()));
          py::dict d;
          d["name"] = s.Name();
          d["widths"] = s.widths();
          d["k"] = s.k();
          d["num_tables"] = s.num_tables();
          std::vector<int> key_bits;
          for (int t = 0; t < s.num_tables(); ++t) key_bits.push_back(s.table(t).key_bits());
          d["key_bits"] = key_bits;
          d["tables_for_k"] = s.TablesForDistance(kk);
          return d;
        }, py::arg("scheme") = "t10", py::arg("k") = py::none(),
        "A scheme's shape: name, block widths, k, num_tables, each table's key_bits, and tables_for_k (the tables "
        "a search or join within k uses).");
  m.def("table_keys", [](py::handle fingerprints, int table, const std::string& scheme) {
          const Scheme s = ParseScheme(scheme);
          CheckTableNumber(s, table);
          const ArrayView<uint64_t> fps = ViewArray<uint64_t>(fingerprints, "fingerprints");
          auto [keys] = Columns<uint64_t>(fps.span.size(), [&](size_t i) { return std::tuple{TableKey(s, table, fps.span[i])}; });
          return keys;
        }, py::arg("fingerprints"), py::arg("table"), py::arg("scheme") = "t10",
        "Each fingerprint's key in table `table`: the leading key_bits of its permuted value, right aligned.");
  m.def("key_ranges", [](py::handle fingerprints, int table, int ranges, const std::string& scheme) {
          const Scheme s = ParseScheme(scheme);
          CheckTableNumber(s, table);
          if (ranges < 1 || ranges > (1 << 16)) throw py::value_error("ranges must be in 1..65536");
          const ArrayView<uint64_t> fps = ViewArray<uint64_t>(fingerprints, "fingerprints");
          auto [out] = Columns<int32_t>(fps.span.size(), [&](size_t i) {
            return std::tuple{KeyRange(s, table, fps.span[i], ranges)};
          });
          return out;
        }, py::arg("fingerprints"), py::arg("table"), py::arg("ranges"), py::arg("scheme") = "t10",
        "Each fingerprint's key range in table `table`, of `ranges` even ranges: floor(key * ranges / 2**key_bits).");
  m.def("split_by_key_ranges", [](py::handle fingerprints, const std::vector<int>& tables, int ranges,
                                  const std::string& scheme, py::handle empty) {
          const Scheme s = ParseScheme(scheme);
          const ArrayView<uint64_t> fps = ViewArray<uint64_t>(fingerprints, "fingerprints");
          const FlagsView skip = ViewFlags(empty, "empty");
          std::vector<uint64_t> counts;
          WithoutGil([&] { return CountKeyRanges(s, tables, ranges, fps.span, skip.span, &counts); });
          // One array per range, its tables' buckets one after another.
          const size_t nt = tables.size();
          py::list out;
          std::vector<uint64_t*> into;
          for (int r = 0; r < ranges; ++r) {
            py::array_t<int64_t> lims(static_cast<py::ssize_t>(nt + 1));
            int64_t* l = lims.mutable_data();
            l[0] = 0;
            for (size_t i = 0; i < nt; ++i) l[i + 1] = l[i] + static_cast<int64_t>(counts[r * nt + i]);
            py::array_t<uint64_t> values(static_cast<py::ssize_t>(l[nt]));
            into.push_back(values.mutable_data());
            out.append(py::make_tuple(values, lims));
          }
          WithoutGil([&] { return SplitByKeyRanges(s, tables, ranges, fps.span, skip.span, counts, into); });
          return out;
        }, py::arg("fingerprints"), py::arg("tables"), py::arg("ranges"), py::arg("scheme") = "t10", py::kw_only(),
        py::arg("empty") = py::none(),
        "The shuffle's map side, one pass: a list of `ranges` pieces (values, lims), piece r holding for each "
        "tables[i] the fingerprints whose key in that table falls in range r, values[lims[i]:lims[i+1]], in input "
        "order, repeats kept (join_tables drops them). empty: optional flags (bool, or the int8 reasons of "
        "fingerprint_file), non-zero leaving that fingerprint out.");
  m.def("join_tables", [](const py::sequence& parts, int k, const std::string& scheme, int threads) {
          const Scheme s = ParseScheme(scheme);
          std::vector<std::vector<ArrayView<uint64_t>>> views;
          std::vector<TableFingerprints> tables;
          for (size_t i = 0; i < parts.size(); ++i) {
            const py::tuple part = parts[i].cast<py::tuple>();
            if (part.size() != 2) throw py::value_error("parts[" + std::to_string(i) + "] must be (table, fingerprints)");
            views.push_back(ViewPieces<uint64_t>(part[1], "fingerprints"));
            tables.push_back({part[0].cast<int>(), Spans(views.back())});
          }
          std::vector<NearPair> pairs;
          WithoutGil([&] { return JoinTables(s, k, tables, ResolveThreads(threads, 1), &pairs); });
          auto [a, b, d] = Columns<uint64_t, uint64_t, uint8_t>(pairs.size(), [&](size_t i) {
            return std::tuple{pairs[i].a, pairs[i].b, static_cast<uint8_t>(pairs[i].distance)};
          });
          return py::make_tuple(a, b, d);
        }, py::arg("parts"), py::arg("k"), py::arg("scheme") = "t10", py::kw_only(), py::arg("threads") = 1,
        "The pairs (a, b, distances) of distinct fingerprints within k that each part's table owns among its "
        "fingerprints: parts is a sequence of (table, fingerprints), e.g. one key range of every table; "
        "fingerprints in any order, repeats allowed, one array or a list of arrays (the partitions' buckets) "
        "(include/simdex/dedup_parts.h, JoinTables).");
  m.def("nearest_in_table", [](const IndexHandle& index, py::handle fingerprints, int k, int table, int threads) {
          const std::vector<ArrayView<uint64_t>> pieces = ViewPieces<uint64_t>(fingerprints, "fingerprints");
          const std::vector<std::span<const uint64_t>> spans = Spans(pieces);
          std::shared_ptr<const IndexReader> reader = index.reader();
          std::vector<NearestEntry> found;
          WithoutGil([&] { return NearestInIndexTable(spans, *reader, k, table, ResolveThreads(threads, 1), &found); });
          return NearestTuple(found);
        }, py::arg("index"), py::arg("fingerprints"), py::arg("k"), py::arg("table"), py::kw_only(),
        py::arg("threads") = 1,
        "(fingerprints, ids, distances): each distinct fingerprint's nearest entry within k among those agreeing "
        "with it on table `table`'s key, found by streaming that table (the merge join). fingerprints: one array "
        "or a list of arrays, any order, repeats allowed.");
  m.def("reduce_nearest", [](py::handle fingerprints, py::handle ids, py::handle distances) {
          const ArrayView<uint64_t> f = ViewArray<uint64_t>(fingerprints, "fingerprints");
          const ArrayView<uint64_t> i = ViewArray<uint64_t>(ids, "ids");
          const ArrayView<uint8_t> d = ViewArray<uint8_t>(distances, "distances");
          if (i.span.size() != f.span.size() || d.span.size() != f.span.size()) {
            throw py::value_error("fingerprints, ids and distances differ in length");
          }
          std::vector<NearestEntry> all(f.span.size());
          for (size_t j = 0; j < all.size(); ++j) all[j] = {f.span[j], i.span[j], d.span[j]};
          WithoutGil([&] { ReduceNearest(&all); });
          return NearestTuple(all);
        }, py::arg("fingerprints"), py::arg("ids"), py::arg("distances"),
        "For each fingerprint, the entry with the smallest distance, then the smallest id; ordered by fingerprint.");
}

}  // namespace simdex::python
