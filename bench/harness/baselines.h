// MakeBaseline: the searchers simdex is compared with, by name, configured
// for a simdex scheme so that each is exact for every k the scheme allows.
//
//   "scan"             ScanSearcher: brute force, the reference.
//   "permuted"         PermutedTablesSearcher over the same scheme.
//   "faiss-hash"       FaissHashSearcher with options.faiss_hash_bits bits
//                      (default 24) and nflip = min(max_k, bits).
//   "faiss-multihash"  FaissMultiHashSearcher. When the scheme's blocks all
//                      have one width w and k < B (always true of a valid
//                      scheme), nhash = B maps of w bits: the same cut as the
//                      scheme (t4: 4 x 16 bits), nflip = floor(max_k / B),
//                      0 for max_k <= k. Otherwise (t10, t20) 4 maps of 16
//                      bits, nflip = floor(max_k / 4): faiss's usual setup
//                      and the table count of t4 (0 flips up to k = 3).
//
// faiss-hash's 24 bits: a single hash table must probe every key within k
// flips of the query's (sum of C(b, i), i <= 3: 697 keys at b = 16, 2,325 at
// b = 24), so at k = 3 it stays within a few times the scan up to 10^6.
// Per-query p50 of near queries (1,000; 300 at 10^7) at k = 3, uniform
// data, measured on the 2-core development VM while other builds ran (load
// average 4 to 6), with bytes per entry:
//
//        n     scan    b = 16           b = 20            b = 24
//     10^5    43 us    34 us  86 B      73 us  151 B      72 us  157 B
//     10^6   516 us   432 us  31 B     287 us  101 B     197 us  151 B
//     10^7    25 ms   1.5 ms  27 B     1.6 ms   35 B     0.7 ms  119 B
//
// Every setting was exact. 16 bits is no faster than the scan from 10^6 on;
// 24 bits is the fastest there (2.6x the scan at 10^6) at several times the
// bytes. 24 is the default; 16 is the compact choice for small n.
#ifndef SIMDEX_BENCH_HARNESS_BASELINES_H_
#define SIMDEX_BENCH_HARNESS_BASELINES_H_

#include <memory>
#include <string>
#include <vector>

#include "bench/harness/searcher.h"
#include "simdex/scheme.h"

namespace simdex::bench {

struct BaselineOptions {
  // The largest k the searcher must answer exactly; -1 means the scheme's k.
  // Only the faiss searchers depend on it (their nflip; see
  // faiss_searchers.h); MaxK() of "scan" is 64 and of "permuted" the
  // scheme's k whatever this says.
  int max_k = -1;
  // Key bits of faiss-hash (1..63).
  int faiss_hash_bits = 24;
};

// The names MakeBaseline knows, in the order above.
const std::vector<std::string>& BaselineNames();

// A new, unbuilt searcher, or nullptr if `name` is not one of
// BaselineNames(). REQUIRES: -1 <= options.max_k <= 64 (and <= scheme.k()
// for "permuted").
std::unique_ptr<Searcher> MakeBaseline(const std::string& name, const Scheme& scheme,
                                       const BaselineOptions& options = {});

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_BASELINES_H_
