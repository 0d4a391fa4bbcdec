// OnlineBands: the docId service's mutable delta of MinHash-LSH entries
// (the content stage of --content-method minhash). One writer appends
// (seq, band keys, b-bit signature) entries while any number of readers
// search it, without locks on either side, as OnlineIndex does for SimHash
// fingerprints (Chains, chains.h).
//
// Each band is a chain: every entry is chained into the bucket its key of
// that band chooses. A query walks, in each band, the bucket of its own
// key and takes the entries whose key equals its key (buckets may hold
// other keys: skipped by the key test); the entries found in several bands
// are reported once, each with the b-bit estimate of J between its
// signature and the query's (EstimateJaccardPacked). These are exactly the
// candidates an LSH index file of the same entries gives
// (LshIndexReader::Query), and the same estimates.
//
// Memory: per entry 8 (seq) + 8 x bands (keys) + the b-bit signature,
// rounded up to 8, + 4 x bands (chain links): 264 bytes at the defaults
// (16 bands, 128 values of 4 bits); plus 4 bytes per bucket per band
// (chains.h).
//
// Thread safety: Add() from one thread at a time (the service's decision
// lock); Search(), ForEach() of published entries and size() from any
// number of threads concurrently with it. An entry is visible to searches
// once Add() has returned.
#ifndef SIMDEX_ENGINE_SERVICE_ONLINE_BANDS_H_
#define SIMDEX_ENGINE_SERVICE_ONLINE_BANDS_H_

#include <cstdint>
#include <vector>

#include "engine/service/chains.h"

namespace simdex::service {

// An entry sharing a band key with a query, and its estimate of J.
struct BandMatch {
  uint64_t seq;
  double estimate;
};

class OnlineBands : private Chains {
 public:
  using Chains::kMaxEntries;

  // bands >= 1; signatures of num_perm values of `bits` bits (PackSignature).
  OnlineBands(int bands, int num_perm, int bits, uint64_t expected_entries);

  // Appends an entry: keys[0, bands) and packed[0, PackedSignatureBytes).
  // REQUIRES: seq greater than every seq added before; size() < kMaxEntries;
  // one writer at a time.
  void Add(uint64_t seq, const uint64_t* keys, const uint8_t* packed);

  // Appends every entry with seq >= min_seq that shares the key of at least
  // one band with `keys`, once each, with its estimate against `packed`, in
  // increasing seq order.
  void Search(const uint64_t* keys, const uint8_t* packed, uint64_t min_seq, std::vector<BandMatch>* out) const;

  // Calls fn(seq, keys, packed) for the first `count` entries in the order
  // they were added. REQUIRES: count <= size().
  template <typename Fn>
  void ForEach(uint64_t count, Fn&& fn) const {
    for (uint64_t i = 0; i < count; ++i) {
      const uint8_t* e = Record(i);
      fn(Seq(e), Keys(e), Packed(e));
    }
  }

  using Chains::MemoryBytes;
  using Chains::size;

 private:
  // A record: seq, the band keys, the b-bit signature (padded to 8 bytes).
  const uint64_t* Keys(const uint8_t* record) const { return reinterpret_cast<const uint64_t*>(record + 8); }
  const uint8_t* Packed(const uint8_t* record) const { return record + 8 + 8 * static_cast<size_t>(bands_); }

  const int bands_;
  const int num_perm_;
  const int bits_;
  const size_t signature_bytes_;
};

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_ONLINE_BANDS_H_
