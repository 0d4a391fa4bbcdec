// MakeBaseline: the searchers simdex is compared with, by name, configured
// for a simdex scheme so that each is exact for every k the scheme allows.
//
//   "scan"             ScanSearcher: brute force, the reference.
//   "permuted"         PermutedTablesSearcher over the same scheme.
//   "faiss-hash"       FaissHashSearcher with options.faiss_hash_bits bits
//                      (default 16) and nflip = min(max_k, bits).
//   "faiss-multihash"  FaissMultiHashSearcher. When the scheme's blocks all
//                      have one width w and k < B (always true of a valid
//                      scheme), nhash = B maps of w bits: the same cut as the
//                      scheme (t4: 4 x 16 bits), nflip = floor(max_k / B),
//                      0 for max_k <= k. Otherwise (t10, t20) 4 maps of 16
//                      bits, nflip = floor(max_k / 4): faiss's usual setup
//                      and the table count of t4 (0 flips up to k = 3).
//
// faiss-hash's 16 bits (measured on this machine at n = 10^6, t4, k = 3,
// near queries; see the report of the commit that added this file): b = 16
// probes 697 keys and checks ~10^4 codes per query; b = 24 probes 2,325 keys
// that mostly miss and costs several times the bytes per entry. Both are
// exact; 16 bits is the faster and smaller of the two up to a few million
// entries.
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
  int faiss_hash_bits = 16;
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
