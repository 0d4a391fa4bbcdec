// OnlineBands: the docId service's mutable delta of MinHash-LSH entries
// (the content stage of --content-method minhash). One writer appends
// (seq, band keys, b-bit signature) entries while any number of readers
// search it, without locks on either side, as OnlineIndex does for SimHash
// fingerprints (engine/service/online_index.h).
//
// Each band is a table of hashed chains: every entry is chained into the
// bucket its key of that band chooses. A query walks, in each band, the
// chain of its own key's bucket and takes the entries whose key equals its
// key (buckets may hold other keys: skipped by the key test); the entries
// found in several bands are reported once, each with the b-bit estimate
// of J between its signature and the query's (EstimateJaccardPacked).
// These are exactly the candidates an LSH index file of the same entries
// gives (LshIndexReader::Query), and the same estimates.
//
// Chains are newest first and seqs are appended in increasing order, so a
// search for entries with seq >= min_seq stops at the first older entry.
//
// Memory: per entry 8 (seq) + 8 x bands (keys) + the b-bit signature,
// rounded up to 8, + 4 x bands (chain links): 264 bytes at the defaults
// (16 bands, 128 values of 4 bits); in chunks of 2^16 entries whose pages
// are touched as entries fill them; plus 4 bytes per bucket per band
// (buckets = the power of two >= expected_entries), touched as first used.
//
// Thread safety: Add() from one thread at a time (the service's decision
// lock); Search(), ForEach() of published entries and size() from any
// number of threads concurrently with it. An entry is visible to searches
// once Add() has returned.
#ifndef SIMDEX_ENGINE_SERVICE_ONLINE_BANDS_H_
#define SIMDEX_ENGINE_SERVICE_ONLINE_BANDS_H_

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

namespace simdex::service {

// An entry sharing a band key with a query, and its estimate of J.
struct BandMatch {
  uint64_t seq;
  double estimate;
};

class OnlineBands {
 public:
  static constexpr int kChunkBits = 16;
  // Entries are chained by u32 links, entry i as i + 1 and 0 ending a
  // chain: at most 2^32 - 1 (kMaxLiveEntries of include/simdex/service.h).
  static constexpr uint64_t kMaxEntries = (uint64_t{1} << 32) - 1;

  // bands >= 1; signatures of num_perm values of `bits` bits (PackSignature).
  OnlineBands(int bands, int num_perm, int bits, uint64_t expected_entries);
  ~OnlineBands();
  OnlineBands(const OnlineBands&) = delete;
  OnlineBands& operator=(const OnlineBands&) = delete;

  // Appends an entry: keys[0, bands) and packed[0, signature_bytes()).
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

  uint64_t size() const { return size_.load(std::memory_order_acquire); }
  int bands() const { return bands_; }
  size_t signature_bytes() const { return signature_bytes_; }
  // Bytes of one entry (record and links), and bytes allocated in all.
  size_t EntryBytes() const { return stride_ + 4 * static_cast<size_t>(bands_); }
  uint64_t MemoryBytes() const;

 private:
  // A record: seq, the band keys, the b-bit signature (padded to 8 bytes).
  const uint8_t* Record(uint64_t i) const;
  static uint64_t Seq(const uint8_t* record);
  const uint64_t* Keys(const uint8_t* record) const { return reinterpret_cast<const uint64_t*>(record + 8); }
  const uint8_t* Packed(const uint8_t* record) const { return record + 8 + 8 * static_cast<size_t>(bands_); }
  // The chain link of entry i in band j: the next (older) entry of its
  // bucket, plus one (0 ends the chain).
  uint32_t Next(uint64_t i, int j) const;
  size_t Bucket(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> bucket_shift_); }
  std::atomic_ref<uint32_t> Head(int j, size_t bucket) const {
    return std::atomic_ref<uint32_t>(heads_[static_cast<size_t>(j) * buckets_ + bucket]);
  }

  const int bands_;
  const int num_perm_;
  const int bits_;
  const size_t signature_bytes_;
  const size_t stride_;  // bytes of a record
  int bucket_shift_ = 0;
  size_t buckets_ = 0;
  struct FreeDeleter {
    void operator()(uint32_t* p) const { std::free(p); }
  };
  // heads_[j * buckets_ + b]: the newest entry of bucket b of band j, plus
  // one; calloc'ed (zero pages as first touched), read and written through
  // std::atomic_ref.
  std::unique_ptr<uint32_t[], FreeDeleter> heads_;
  // Chunk c: 2^kChunkBits records, then 2^kChunkBits x bands links; new[]
  // without initialising, so its pages cost memory only as entries fill them.
  std::vector<std::atomic<uint8_t*>> chunks_;
  std::atomic<uint64_t> size_{0};
};

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_ONLINE_BANDS_H_
