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

Status RunWarmSingle(const Workload& w, const PointId& id, const SearchFn& search, int k, int threads,
                     size_t max_queries, WarmSingleRuns* runs) {
  const std::vector<uint64_t>& near = w.near.at(k);
  const std::span<const uint64_t> near_used(near.data(), std::min(max_queries, near.size()));
  const std::span<const uint64_t> random_used(w.random.data(), std::min(max_queries, w.random.size()));
  QueryRun near_run, random_run;
  SIMDEX_RETURN_IF_ERROR(RunSingle(search, near_used, k, threads, w.checked, &near_run).WithContext(Describe(w, id)));
  SIMDEX_RETURN_IF_ERROR(CheckAgainstScan(w, id, "near", k, threads, near_run));
  SIMDEX_RETURN_IF_ERROR(
      RunSingle(search, random_used, k, threads, w.checked, &random_run).WithContext(Describe(w, id)));
  SIMDEX_RETURN_IF_ERROR(CheckAgainstScan(w, id, "random", k, threads, random_run));
  near_run.kept = {};
  random_run.kept = {};
  runs->near.push_back(std::move(near_run));
  runs->random.push_back(std::move(random_run));
  return Status::OK();
}

Status WriteWarmSingle(const Workload& w, const PointId& id, int tables, int k, int threads, bool index_counters,
                       const JsonObject& extra, const WarmSingleRuns& runs, JsonLinesWriter* out) {
  auto checked = [&w](const std::vector<QueryRun>& r) { return std::min(w.checked, r.front().queries); };
  JsonObject record = PointFields(w, id, tables, k, threads, "warm", "single");
  record.AddFields(extra);
  record.AddObject("near", QueryRunsJson(runs.near, checked(runs.near), index_counters));
  record.AddObject("random", QueryRunsJson(runs.random, checked(runs.random), index_counters));
  return out->Write(record);
}

Status MeasureWarmSingle(const Workload& w, const PointId& id, const SearchFn& search, int tables, int k,
                         std::span<const int> threads, size_t max_queries, int repeat, bool index_counters,
                         const JsonObject& extra, JsonLinesWriter* out) {
  for (const int t : threads) {
    WarmSingleRuns runs;
    for (int round = 0; round < repeat; ++round) {
      SIMDEX_RETURN_IF_ERROR(RunWarmSingle(w, id, search, k, t, max_queries, &runs));
    }
    SIMDEX_RETURN_IF_ERROR(WriteWarmSingle(w, id, tables, k, t, index_counters, extra, runs, out));
  }
  return Status::OK();
}

}  // namespace simdex::bench
