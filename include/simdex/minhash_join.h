// The MinHash-LSH self-join of a batch: every pair of items that share the
// key of some band (docs/minhash.md, "The self-join").
//
// An item is whatever the caller bands: a document, or one of the batch's
// distinct signatures (`simdex dedup --method minhash` joins distinct
// signatures, so that n identical documents cost one item, not n^2 / 2
// pairs). keys holds n x bands band keys, band after band (keys[j * n + i]:
// item i's key of band j, from BandKeys of its signature); items with
// banded[i] == 0 (empty signatures) are left out of every band.
//
// The join, band by band (docs/minhash.md, "The self-join"): a filter of
// two bits per slot, indexed by the key's leading bits, finds the items
// whose slot is taken more than once (every item whose key repeats, and a
// few others); only their records (the key's leading bits, item) are sorted,
// by the key's leading log2(n) + 16 bits with the radix sort of the SimHash
// self-join (engine/util/key_sort.h), and runs of equal leading bits are
// compared item by item on the whole 64-bit key.
// A pair is found in every band whose key it shares; the sort of the pairs
// that follows removes the repeats.
//
// FindBandPairs holds everything in memory: the keys, 16 bytes per item for
// the sort (and up to 3% of 8 more: parts of fixed room), the filter (2^(log2 n + 3) slots of 2 bits, filtered 2^20 slots
// at a time) and 8 bytes per pair and band it shares. BandJoiner takes the
// items one by one and works within a memory bound: what does not fit (the
// keys, each band's sort, the pairs) spills to temporary files, and the
// pairs come back sorted and distinct, the same as FindBandPairs' for any
// bound.
#ifndef SIMDEX_MINHASH_JOIN_H_
#define SIMDEX_MINHASH_JOIN_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "simdex/status.h"

namespace simdex {

struct BandJoinStats {
  uint64_t items = 0;
  uint64_t banded = 0;       // items in the bands
  uint64_t groups = 0;       // runs of two or more equal leading key bits, over all bands
  uint64_t comparisons = 0;  // item pairs compared
  uint64_t pairs = 0;        // pairs reported
  uint64_t filtered = 0;     // records the filter let through to the sorts, over all bands
  // BandJoiner only: bytes written to temporary files (keys, sort runs and
  // pair runs, merge passes included), of them the keys', and the runs the
  // sorts spilled.
  uint64_t bytes_spilled = 0;
  uint64_t key_bytes_spilled = 0;
  uint64_t runs_spilled = 0;
};

// The identity of an item of `simdex dedup --method minhash`: documents
// with equal digests are one item (identical signatures, collapsed before
// the join). The digest is XXH3-64 of the packed signature
// packed[0, packed_bytes), seeded with XXH3-64 of the band keys
// keys[0, bands) as their in-memory bytes (little-endian on every supported
// machine); equal keys and signatures give equal digests, different ones
// differ up to a 2^-64 chance. The command and simdex.dask (its partitions'
// items) both use it. Callers give empty signatures no digest (0).
uint64_t SignatureDigest(const uint64_t* keys, size_t bands, const uint8_t* packed, size_t packed_bytes);

// *out = every pair (a < b) of items that agree on the key of at least one
// band, as (uint64_t{a} << 32) | b, sorted and distinct. threads sort in
// parallel. InvalidArgument if keys.size() != banded.size() * bands, bands
// < 1 or there are 2^32 items or more.
Status FindBandPairs(std::span<const uint64_t> keys, int bands, std::span<const uint8_t> banded, int threads,
                     std::vector<uint64_t>* out, BandJoinStats* stats);

// The smallest memory bound a BandJoiner takes: 256 KiB.
inline constexpr size_t kMinBandJoinMemoryBytes = size_t{256} << 10;

// The most items a BandJoiner joins (pairs name items in 32 bits).
inline constexpr uint64_t kMaxBandJoinItems = (uint64_t{1} << 32) - 2;

struct BandJoinOptions {
  // Upper bound, in bytes, on the joiner's buffers (>= kMinBandJoinMemoryBytes):
  // half for the keys while items are added; then half for a band's sort,
  // an eighth for the filter, a quarter for the pairs' sort.
  size_t memory_bytes = size_t{1} << 30;
  // An existing directory for the temporary files (keys and sort runs);
  // needed even if nothing turns out to spill.
  std::string tmpdir;
  // Threads of the sorts (>= 1); the result does not depend on it.
  int threads = 1;
  // The most items Add() and AddUnbanded() take (at most, and by default,
  // kMaxBandJoinItems: items are numbered in 32 bits; tests lower it).
  uint64_t max_items = kMaxBandJoinItems;
};

// The self-join of FindBandPairs within a memory bound. Items are added in
// order (item i is the i-th Add or AddUnbanded); Finish() joins them; Read()
// streams the pairs.
//
//   std::unique_ptr<BandJoiner> join;
//   SIMDEX_RETURN_IF_ERROR(BandJoiner::Create(bands, {.memory_bytes = m, .tmpdir = "/tmp"}, &join));
//   for (...) SIMDEX_RETURN_IF_ERROR(join->Add(keys_of_item));
//   SIMDEX_RETURN_IF_ERROR(join->Finish());
//   size_t n;
//   do {
//     SIMDEX_RETURN_IF_ERROR(join->Read(pairs, capacity, &n));
//     ... use pairs[0, n) ...
//   } while (n > 0);
//
// Memory: the keys stay in memory while they fit half the bound, else all
// bands' keys go to temporary files (8 bytes per item and band) that each
// band reads twice in order. When the keys, the filter and 16 bytes per item
// (and the parts' slack, up to 3% of 8) fit three quarters of the bound, the join runs as FindBandPairs does;
// otherwise each band's filtered records (whole key, item: 16 bytes) are
// sorted by the external sorter (engine/util/external_sorter.h) within half
// the bound, and the pairs of every band by another within a quarter, which
// removes the pairs found in several bands. A single run of equal leading
// key bits is held whole (8 bytes per item in it), and its pairs are made.
//
// Temporary files: none ever has a name (O_TMPFILE, or a name unlinked at
// once where the file system has none): the keys' go with the joiner, each
// sort's runs (one file per sort) with Read() reaching the end and with the
// destructor, also after errors; a killed process leaves nothing.
//
// Errors: the first is kept, and every later call returns it. Thread
// safety: not thread-safe.
class BandJoiner {
 public:
  // InvalidArgument for bands < 1, a memory bound below
  // kMinBandJoinMemoryBytes or threads < 1; IOError for a tmpdir that is
  // not a directory.
  static Status Create(int bands, const BandJoinOptions& options, std::unique_ptr<BandJoiner>* out);
  ~BandJoiner();
  BandJoiner(const BandJoiner&) = delete;
  BandJoiner& operator=(const BandJoiner&) = delete;

  // The next item, with its band keys keys[0, bands). InvalidArgument past
  // options.max_items. REQUIRES: Finish() has not been called.
  Status Add(const uint64_t* keys);
  // The next item, left out of every band (an empty signature).
  Status AddUnbanded();
  // Joins the items. REQUIRES: called once.
  Status Finish();
  // Copies up to max of the next pairs (a < b, as (uint64_t{a} << 32) | b:
  // sorted and distinct over all calls) to pairs[0, *n); *n = 0 at the end,
  // when the temporary files are gone. REQUIRES: Finish() returned OK; max >= 1.
  Status Read(uint64_t* pairs, size_t max, size_t* n);

  // Filled in by Finish() and (pairs) by Read().
  const BandJoinStats& stats() const;

 private:
  struct Rep;
  explicit BandJoiner(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex

#endif  // SIMDEX_MINHASH_JOIN_H_
