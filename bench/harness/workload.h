// One data set at one N with its query sets and the brute-force scan's
// answers to them: what every searcher at that (data set, N) is measured on
// and checked against.
#ifndef SIMDEX_BENCH_HARNESS_WORKLOAD_H_
#define SIMDEX_BENCH_HARNESS_WORKLOAD_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench/harness/json_writer.h"
#include "bench/harness/measure.h"
#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::bench {

struct Workload {
  std::string dataset;
  uint64_t n_requested = 0;
  uint64_t seed = 0;
  std::span<const uint64_t> fps;          // owned by the caller
  std::map<int, std::vector<uint64_t>> near;  // near queries per k
  std::vector<uint64_t> random;
  // The scan answered the first `checked` queries of every set; those are
  // the ones each searcher's results are compared on.
  size_t checked = 0;
  std::map<int, std::vector<std::vector<Match>>> near_ref, random_ref;

  uint64_t n() const { return fps.size(); }
};

// How many queries of a set (of `available`) a searcher whose queries take
// `mean_micros` answers: as many as fit in `seconds` (0: no limit), but
// never fewer than the checked ones.
size_t QueriesPerSet(const Workload& w, size_t available, double mean_micros, double seconds);

// Names one measurement in messages: "uniform n=100000 simdex t10 block 1024".
struct PointId {
  std::string searcher;
  std::string scheme;        // "" for none
  uint32_t block_size = 0;   // 0 for none
};

std::string Describe(const Workload& w, const PointId& id);

// The fields every "point" record starts with (json_writer.h), up to api.
JsonObject PointFields(const Workload& w, const PointId& id, int tables, int k, int threads,
                       std::string_view cache, std::string_view api);

// Compares run.kept with the scan's answers for `kind` ("near" or
// "random") at k; on a difference returns Corruption naming the point, the
// query (its position and value) and both result counts.
Status CheckAgainstScan(const Workload& w, const PointId& id, std::string_view kind, int k, int threads,
                        const QueryRun& run);

// The runs behind one warm single-query record: one near and one random
// run per round (simdex-bench --repeat).
struct WarmSingleRuns {
  std::vector<QueryRun> near, random;
};

// One round of a warm single-query record at k on `threads` threads: the
// first `max_queries` near queries through `search`, then as many random
// ones, each run checked against the scan; appends both runs (their kept
// results dropped) to *runs.
Status RunWarmSingle(const Workload& w, const PointId& id, const SearchFn& search, int k, int threads,
                     size_t max_queries, WarmSingleRuns* runs);

// Writes the record of `runs`: PointFields, then `extra` (the searcher's
// space and build fields), then "near" and "random" (QueryRunsJson).
// REQUIRES: runs holds at least one round.
Status WriteWarmSingle(const Workload& w, const PointId& id, int tables, int k, int threads, bool index_counters,
                       const JsonObject& extra, const WarmSingleRuns& runs, JsonLinesWriter* out);

// The warm single-query measurements of one searcher at one k: for each
// thread count, `repeat` rounds of RunWarmSingle back to back, then their
// record (WriteWarmSingle). Uses the first `max_queries` queries of each set
// (the scan itself runs on the checked ones only).
Status MeasureWarmSingle(const Workload& w, const PointId& id, const SearchFn& search, int tables, int k,
                         std::span<const int> threads, size_t max_queries, int repeat, bool index_counters,
                         const JsonObject& extra, JsonLinesWriter* out);

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_WORKLOAD_H_
