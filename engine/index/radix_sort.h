// In-memory LSD radix sort for the two record types of the index builder.
//
// The sort makes one read pass to build a histogram of every 8-bit digit of
// the key, then one scatter pass per digit, least significant first. A digit
// that has the same value in every record is skipped (fingerprints permuted
// so that a block leads, ids below 2^24, ...). For FingerprintIdPair the key
// is the 128-bit value (fingerprint, id); when the input is already ordered by
// id (the builder's usual case: ids are assigned in input order) the id
// digits are skipped too, since a stable sort on the fingerprint alone then
// yields (fingerprint, id) order.
//
// Two records with equal keys are identical bytes, so the output is fully
// determined by the input multiset: it does not depend on the thread count.
#ifndef SIMDEX_ENGINE_INDEX_RADIX_SORT_H_
#define SIMDEX_ENGINE_INDEX_RADIX_SORT_H_

#include <compare>
#include <cstddef>
#include <cstdint>

namespace simdex::index {

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
// contents on return are unspecified). threads >= 2 splits the input into
// parts sorted concurrently and merged; at most `threads` threads run at
// once and the result is the same for every thread count.
//
// REQUIRES: records and scratch each hold n records and do not overlap;
// threads >= 1. Never fails: if a thread cannot be started, the work it
// would have done runs on the calling thread.
// Thread safety: touches only the two arrays; distinct calls on distinct
// arrays may run concurrently.
void RadixSort(uint64_t* records, uint64_t* scratch, size_t n, int threads);
void RadixSort(FingerprintIdPair* records, FingerprintIdPair* scratch, size_t n, int threads);

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_RADIX_SORT_H_
