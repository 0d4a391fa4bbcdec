#include "bench/harness/workload.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace simdex::bench {

size_t QueriesPerSet(const Workload& w, size_t available, double mean_micros, double seconds) {
  if (seconds <= 0 || mean_micros <= 0) return available;
  const double fit = seconds * 1e6 / mean_micros;
  const size_t floor = std::min(w.checked, available);
  return fit >= static_cast<double>(available) ? available : std::max(floor, static_cast<size_t>(fit));
}

std::string Describe(const Workload& w, const PointId& id) {
  std::string s = w.dataset + " n=" + std::to_string(w.n()) + " " + id.searcher;
  if (!id.scheme.empty()) s += " " + id.scheme;
  if (id.block_size) s += " block " + std::to_string(id.block_size);
  return s;
}

JsonObject PointFields(const Workload& w, const PointId& id, int tables, int k, int threads,
                       std::string_view cache, std::string_view api) {
  JsonObject o;
  o.AddString("type", "point").AddString("dataset", w.dataset).AddUint("n", w.n());
  o.AddUint("n_requested", w.n_requested).AddUint("seed", w.seed).AddString("searcher", id.searcher);
  if (id.scheme.empty()) {
    o.AddNull("scheme");
  } else {
    o.AddString("scheme", id.scheme);
  }
  o.AddInt("tables", tables);
  if (id.block_size) {
    o.AddUint("block_size", id.block_size);
  } else {
    o.AddNull("block_size");
  }
  o.AddInt("k", k).AddInt("threads", threads).AddString("cache", cache).AddString("api", api);
  return o;
}

Status CheckAgainstScan(const Workload& w, const PointId& id, std::string_view kind, int k, int threads,
                        const QueryRun& run) {
  const auto& refs = kind == "near" ? w.near_ref : w.random_ref;
  const auto& queries = kind == "near" ? w.near.at(k) : w.random;
  const std::vector<std::vector<Match>>& ref = refs.at(k);
  const size_t n = std::min(ref.size(), run.kept.size());
  const std::optional<size_t> bad = FirstDisagreement(run, std::span(ref.data(), n));
  if (!bad) return Status::OK();
  char query[32];
  std::snprintf(query, sizeof(query), "%016" PRIx64, queries[*bad]);
  return Status::Corruption(Describe(w, id) + " k=" + std::to_string(k) + " threads=" + std::to_string(threads) +
                            ": " + std::string(kind) + " query " + std::to_string(*bad) + " (" + query +
                            ") disagrees with the scan: " + std::to_string(run.kept[*bad].size()) +
                            " matches, the scan found " + std::to_string(ref[*bad].size()));
}

Status MeasureWarmSingle(const Workload& w, const PointId& id, const SearchFn& search, int tables, int k,
                         std::span<const int> threads, size_t max_queries, bool index_counters,
                         const JsonObject& extra, JsonLinesWriter* out) {
  const std::vector<uint64_t>& near = w.near.at(k);
  const std::span<const uint64_t> near_used(near.data(), std::min(max_queries, near.size()));
  const std::span<const uint64_t> random_used(w.random.data(), std::min(max_queries, w.random.size()));
  for (const int t : threads) {
    QueryRun near_run, random_run;
    SIMDEX_RETURN_IF_ERROR(RunSingle(search, near_used, k, t, w.checked, &near_run).WithContext(Describe(w, id)));
    SIMDEX_RETURN_IF_ERROR(CheckAgainstScan(w, id, "near", k, t, near_run));
    SIMDEX_RETURN_IF_ERROR(RunSingle(search, random_used, k, t, w.checked, &random_run).WithContext(Describe(w, id)));
    SIMDEX_RETURN_IF_ERROR(CheckAgainstScan(w, id, "random", k, t, random_run));
    JsonObject record = PointFields(w, id, tables, k, t, "warm", "single");
    record.AddFields(extra);
    record.AddObject("near", QueryRunJson(near_run, near_run.kept.size(), index_counters));
    record.AddObject("random", QueryRunJson(random_run, random_run.kept.size(), index_counters));
    SIMDEX_RETURN_IF_ERROR(out->Write(record));
  }
  return Status::OK();
}

}  // namespace simdex::bench
