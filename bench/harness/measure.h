// Timed query runs: the latency, throughput and counters simdex-bench
// records for one searcher, one query set and one k.
#ifndef SIMDEX_BENCH_HARNESS_MEASURE_H_
#define SIMDEX_BENCH_HARNESS_MEASURE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "bench/harness/json_writer.h"
#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::bench {

// Answers one query; adds to *stats when the searcher has counters (simdex),
// leaves it alone otherwise. Must be safe to call from several threads.
using SearchFn = std::function<Status(uint64_t query, int k, std::vector<Match>* out, SearchStats* stats)>;

struct QueryRun {
  size_t queries = 0;
  double seconds = 0;             // wall time of the whole run
  std::vector<double> micros;     // per query, in query order (empty for a batch)
  uint64_t matches = 0;
  uint64_t major_faults = 0;      // process-wide ru_majflt delta over the run
  uint64_t read_bytes = 0;        // process-wide /proc/self/io read_bytes delta
  SearchStats stats;              // summed over threads (simdex only)
  std::vector<std::vector<Match>> kept;  // the results of the first `keep` queries
};

struct Percentiles {
  double p50 = 0, p90 = 0, p99 = 0, max = 0, mean = 0;
};

// Nearest-rank percentiles (p50 is the value at rank ceil(0.5 n)); all zero
// for no values.
Percentiles Summarize(std::vector<double> values);

// Runs every query through `search` on `threads` threads, thread j taking
// queries j, j + threads, ..., each call timed with steady_clock; keeps the
// results of queries [0, keep). Returns the first error a search returned.
// REQUIRES: threads >= 1.
Status RunSingle(const SearchFn& search, std::span<const uint64_t> queries, int k, int threads,
                 size_t keep, QueryRun* out);

// One call of the batch API over all the queries at `threads` threads, timed
// as a whole; keeps the results of queries [0, keep).
Status RunBatch(const IndexReader& reader, std::span<const uint64_t> queries, int k, int threads,
                size_t keep, QueryRun* out);

// Sends queries one at a time, in order, until all were sent or `seconds`
// (> 0; 0: no limit) have passed (checked every 16 queries), so that caches and the page cache
// hold what the measured runs will touch. Sets *mean_micros to the mean
// latency of the queries sent.
Status WarmUp(const SearchFn& search, std::span<const uint64_t> queries, int k, double seconds,
              double* mean_micros);

// The first i < reference.size() at which run.kept[i] != reference[i], if
// any. REQUIRES: run.kept.size() >= reference.size().
std::optional<size_t> FirstDisagreement(const QueryRun& run, std::span<const std::vector<Match>> reference);

// The "near"/"random" object of a point record (json_writer.h) from the
// repeated runs of one point (simdex-bench --repeat): counts, latency
// percentiles (single runs), throughput, faults, and with index_counters the
// per-query SearchStats averages, each the median over the runs (the mean
// of the middle two for an even count; the value itself for one run); then
// "runs", their count, and "spread", {"seconds": [min, max], "qps": ...,
// and for single runs "p50_us", "p90_us", "p99_us", "max_us", "mean_us"}.
// REQUIRES: !runs.empty(), every run over the same queries.
JsonObject QueryRunsJson(std::span<const QueryRun> runs, size_t checked, bool index_counters);

// The same for one run.
JsonObject QueryRunJson(const QueryRun& run, size_t checked, bool index_counters);

// The median of `values` (the mean of the middle two for an even count; 0
// for none).
double Median(std::vector<double> values);

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_MEASURE_H_
