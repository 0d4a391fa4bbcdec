// The simdex points of the grid: an index of one scheme, block size and
// codec over a workload, built in a forked child (build_child.h) and
// measured warm and, when asked, on a fresh reader and cold.
#ifndef SIMDEX_BENCH_HARNESS_SIMDEX_POINT_H_
#define SIMDEX_BENCH_HARNESS_SIMDEX_POINT_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "bench/harness/grid.h"
#include "bench/harness/json_writer.h"
#include "bench/harness/workload.h"
#include "simdex/scheme.h"
#include "simdex/status.h"

namespace simdex::bench {

// Measures one simdex index per scheme x block size x codec over w:
// builds it in config.dir (in a forked child), then writes, for each k in
// the workload that its scheme supports: one warm "single" record per
// thread count (near and random queries, after one warm-up pass), one warm
// "batch" record per thread count, and with config.cold two cold "batch"
// records per thread count. A cold run closes the reader, evicts the file
// from the page cache (posix_fadvise(POSIX_FADV_DONTNEED)), reopens it
// without verifying the head index checksums (which would read every head),
// advises the mapping MADV_RANDOM ("readahead": "none": a fault reads its
// page only) or MADV_NORMAL ("default": the kernel's read-around, which on a
// machine with a large read_ahead_kb pulls in megabytes per fault), evicts
// the file again (Open() read header, footer and metadata) and sends the
// first cold_queries near queries once. Every run is checked against the
// scan. The records' searcher is "simdex" for the card codec and
// "simdex-<codec>" for another; each names its "codec".
//
// With config.repeat == 1, each index is built, measured and removed before
// the next is built. With repeat = R > 1, all of the indexes (every scheme
// of `schemes`) are built first (all on disk, and preloaded, at once), then
// measured warm in R rounds, each round measuring every index once in turn,
// so that a change in the machine's speed falls on all of them alike; then
// each index's records are written, its first-use and cold runs taken (each
// repeated R times back to back) and its file removed. Every record holds
// the medians of its R runs and their spread (QueryRunsJson).
//
// `each_round`, when set, is called at the start of every round, before the
// indexes' runs (with R > 1: once per round, 0 to R - 1), so that another
// searcher's runs (the scan's) alternate with theirs.
//
// REQUIRES: every scheme of `schemes` supports at least one of w's k.
using RoundFn = std::function<Status(int round)>;
Status MeasureSimdex(const Workload& w, const GridConfig& config, std::span<const Scheme> schemes,
                     const RoundFn& each_round, JsonLinesWriter* out, const ProgressFn& progress);

Status EvictFromPageCache(const std::string& path, double* resident_fraction);

// madvise()s every mapping of `path` in this process with `advice`
// (MADV_RANDOM, MADV_NORMAL, ...), found through /proc/self/maps; NotFound
// if the file is not mapped.
Status AdviseMapping(const std::string& path, int advice);

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_SIMDEX_POINT_H_
