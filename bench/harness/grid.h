// The simdex-bench grid: for each data set x N, generate the fingerprints
// and queries once, answer the checked queries by brute-force scan, measure
// the baselines that fit in memory, then build and measure one simdex index
// per scheme x block size x codec. Every searcher's answers are compared with the
// scan's; the first disagreement stops the run. With repeat > 1 every
// measurement is taken that many times (GridConfig::repeat).
//
// Records go to a JsonLinesWriter in the layout json_writer.h documents.
#ifndef SIMDEX_BENCH_HARNESS_GRID_H_
#define SIMDEX_BENCH_HARNESS_GRID_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/harness/json_writer.h"
#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::bench {

struct GridConfig {
  std::vector<std::string> datasets = {"uniform"};
  std::vector<uint64_t> ns = {1000000};
  std::vector<std::string> schemes = {"t10"};
  std::vector<uint32_t> block_sizes = {BuildOptions().block_size};
  // Block codecs (BuildOptions::codec), each measured at every block size.
  // card unless asked: the grid's block-size and restart-point studies (and
  // the searcher named "simdex") are the card codec's; `--codec auto`
  // measures what `simdex build` writes by default.
  std::vector<std::string> codecs = {"card"};
  int restarts = BuildOptions().restarts;  // restart points per block
  std::vector<int> ks = {0, 1, 2, 3};      // a scheme is measured at the k <= its own k
  std::vector<int> threads = {1};          // query threads
  // Measured beside simdex ("scan" always runs: it is the reference).
  std::vector<std::string> baselines = {"scan", "permuted", "faiss-hash", "faiss-multihash"};
  bool cold = false;
  // Also measure the first queries of a freshly opened simdex reader
  // (cache "first-use"): the price of checking each block and section the
  // first time it is read, and of an Open() that checks everything
  // (ReaderOptions::verify_block_checksums).
  bool checksums = false;
  size_t queries = 20000;       // per query set (near per k, random)
  size_t cold_queries = 1000;   // per cold batch
  // Queries the scan answers per set (and every searcher is checked on);
  // 0 = automatic: all of them up to 5 * 10^8 / N, at least 50.
  size_t scan_queries = 0;
  // A searcher answers at most as many queries of a set as fit in about
  // this many seconds at its warm-up's mean latency (never fewer than the
  // scan's); 0: all of them. Keeps slow points (64 KiB blocks, faiss-hash at
  // k = 3 on large N) from taking minutes each.
  double seconds_per_set = 1.0;
  // Each measurement is taken this many times and recorded as the median of
  // its runs with their spread (QueryRunsJson). A baseline's rounds run back
  // to back, but simdex's indexes (every scheme, block size and codec) are
  // then all built first, after the baselines, and measured in turn, round
  // by round (simdex_point.h), each round starting with one of the scan's
  // (which answers every query once more beforehand, for the reference).
  int repeat = 1;
  std::string dir;              // where index files are built
  size_t memory_mib = 1024;     // the index builder's budget
  int build_threads = 1;
  // A baseline is skipped when the harness's resident set plus 1.25 x its
  // estimated size would pass this many bytes.
  uint64_t memory_limit_bytes = 0;
  std::string text_fingerprints;  // the "text" data set's fingerprint file
  uint64_t seed = 1;
};

// How many queries the scan answers at n under `config`.
size_t ScanQueries(const GridConfig& config, uint64_t n);

// Called with one line of progress at a time (no newline).
using ProgressFn = std::function<void(const std::string& line)>;

// Runs the grid, writing "point" and "skip" records to *out (the caller
// writes the header and footer). Returns the first error: a bad option
// (unknown data set, scheme or baseline), an unreadable text file, a failed
// build or search, or Corruption naming the point and query where a searcher
// disagreed with the scan.
Status RunGrid(const GridConfig& config, JsonLinesWriter* out, const ProgressFn& progress);

// The config as the header's "config" object.
JsonObject ConfigJson(const GridConfig& config);

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_GRID_H_
