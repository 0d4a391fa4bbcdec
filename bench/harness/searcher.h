// The common shape of everything simdex-bench measures side by side: simdex
// itself, the brute-force scan, Faiss's binary hash indexes and an
// uncompressed permuted-table index of our own. The harness builds each one
// over the same fingerprints, sends each the same queries and compares every
// result list with the brute-force scan's.
#ifndef SIMDEX_BENCH_HARNESS_SEARCHER_H_
#define SIMDEX_BENCH_HARNESS_SEARCHER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "simdex/index.h"
#include "simdex/scheme.h"
#include "simdex/status.h"

namespace simdex::bench {

// One way of answering "which stored fingerprints lie within Hamming
// distance k of q". The id of fps[i] is i.
class Searcher {
 public:
  virtual ~Searcher() = default;

  // A short stable name used in the JSON report ("scan", "faiss-multihash").
  virtual std::string Name() const = 0;

  // Builds the structure over `fps` (the caller keeps them alive until the
  // searcher is destroyed, so a searcher may refer to them instead of
  // copying). Called once.
  virtual Status Build(std::span<const uint64_t> fps) = 0;

  // Bytes the structure occupies (in memory or on disk), not counting the
  // caller's `fps`. REQUIRES: Build() succeeded.
  virtual size_t Bytes() const = 0;

  // The largest k for which Search() is exact.
  virtual int MaxK() const = 0;

  // Sets *out to every (id, fingerprint, distance) with distance <= k, ordered
  // by distance, then id, then fingerprint (the order IndexReader uses).
  // REQUIRES: Build() succeeded, 0 <= k <= MaxK().
  // Thread safety: concurrent calls on one searcher are safe.
  virtual Status Search(uint64_t q, int k, std::vector<Match>* out) const = 0;
};

// Sorts matches into the order Search() promises.
void SortMatches(std::vector<Match>* matches);

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_SEARCHER_H_
