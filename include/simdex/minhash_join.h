// The MinHash-LSH self-join of a batch: every pair of items that share the
// key of some band (docs/minhash.md, "The self-join").
//
// An item is whatever the caller bands: a document, or one of the batch's
// distinct signatures (`simdex dedup --method minhash` joins distinct
// signatures, so that n identical documents cost one item, not n^2 / 2
// pairs). keys holds n x bands band keys, row-major (BandKeys of each
// item's signature); items with banded[i] == 0 (empty signatures) are left
// out of every band.
//
// The join, band by band: records (the key's leading bits, item) sorted by
// their leading log2(n) + 16 bits with the radix sort of the SimHash
// self-join (engine/dedup/key_sort.h), runs of equal leading bits compared
// item by item on the whole 64-bit key.
// A pair is reported by the first band whose keys it shares (it is skipped
// in later bands by comparing the earlier keys), so each pair comes once,
// with no sort of pairs to remove repeats; the pairs are then sorted.
//
// Cost: one sort of n records per band, and per band the sum over its key
// groups of g(g-1)/2 comparisons. Memory: 16 bytes per item for the sort
// plus 8 per pair found; nothing spills (a later step stores band tables
// in the index format and joins them by the external sorter).
#ifndef SIMDEX_MINHASH_JOIN_H_
#define SIMDEX_MINHASH_JOIN_H_

#include <cstdint>
#include <span>
#include <vector>

#include "simdex/status.h"

namespace simdex {

struct BandJoinStats {
  uint64_t items = 0;
  uint64_t banded = 0;       // items in the bands
  uint64_t groups = 0;       // runs of two or more equal leading key bits, over all bands
  uint64_t comparisons = 0;  // item pairs compared
  uint64_t pairs = 0;        // pairs reported
};

// *out = every pair (a < b) of items that agree on the key of at least one
// band, as (uint64_t{a} << 32) | b, sorted and distinct. threads sort in
// parallel. InvalidArgument if keys.size() != banded.size() * bands, bands
// < 1 or there are 2^32 items or more.
Status FindBandPairs(std::span<const uint64_t> keys, int bands, std::span<const uint8_t> banded, int threads,
                     std::vector<uint64_t>* out, BandJoinStats* stats);

}  // namespace simdex

#endif  // SIMDEX_MINHASH_JOIN_H_
