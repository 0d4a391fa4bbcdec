// In-memory radix sort for the two record types of the index builder.
//
// One counting pass finds the digits (bytes) that vary; MSD scatter passes
// on the highest varying digit split the input until each range fits in
// the L2 cache, and LSD passes over the remaining varying digits finish
// each range there. Digits that have one value throughout (fingerprints
// permuted so that a block leads, small ids, ...) cost no pass.
// FingerprintIdPairs are sorted on the fingerprint, then each group of
// equal fingerprints on the id; with ids in input order (the builder's
// usual case) the stable fingerprint passes leave every group in order.
//
// Two records with equal keys are identical bytes, so the output is fully
// determined by the input multiset: it does not depend on the thread count.
#ifndef SIMDEX_ENGINE_UTIL_RADIX_SORT_H_
#define SIMDEX_ENGINE_UTIL_RADIX_SORT_H_

#include <compare>
#include <cstddef>
#include <cstdint>

namespace simdex::util {

// A fingerprint and the id of the document it belongs to, ordered by
// fingerprint, then id. The layout (two host-order 64-bit words, 16 bytes)
// is also the layout of the sorter's temporary run files.
struct FingerprintIdPair {
  uint64_t fingerprint;
  uint64_t id;

  friend bool operator==(const FingerprintIdPair&, const FingerprintIdPair&) = default;
  friend auto operator<=>(const FingerprintIdPair&, const FingerprintIdPair&) = default;
};
static_assert(sizeof(FingerprintIdPair) == 16);

// Sorts records[0, n) ascending, using scratch[0, n) as work space (its
// contents on return are unspecified). threads >= 2 shares the counting,
// the first scatter pass and the finishing of its buckets among up to that
// many threads (parts of at least 2^16 records); the result is the same for
// every thread count.
//
// REQUIRES: records and scratch each hold n records and do not overlap;
// threads >= 1. Never fails: if a thread cannot be started, the work it
// would have done runs on the calling thread.
// Thread safety: touches only the two arrays; distinct calls on distinct
// arrays may run concurrently.
void RadixSort(uint64_t* records, uint64_t* scratch, size_t n, int threads);
void RadixSort(FingerprintIdPair* records, FingerprintIdPair* scratch, size_t n, int threads);

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_RADIX_SORT_H_
