// OnlineIndex: the docId service's mutable delta. An in-memory index of
// (seq, fingerprint) entries that one writer appends to while any number of
// readers search it, without locks on either side.
//
// It answers the same queries as the compressed index's permuted sorted
// tables, by the same pigeonhole argument: for each table of the scheme,
// every entry is chained into a bucket chosen by the table's key (the
// fingerprint's leading blocks after the table's permutation). A query
// probes, in each table TablesForDistance(k) names, the bucket of its own
// key and compares the entries whose key equals its key; an entry within k
// agrees with the query on some table's key, so it is found. Buckets may
// hold other keys too (hash collisions); they are skipped by the key test.
//
// Chains are newest first, and seqs are appended in increasing order, so a
// search for entries with seq >= min_seq stops at the first older entry:
// expired entries (the retention window) and entries already seen cost
// nothing.
//
// Memory: 16 + 4 x tables bytes per entry (56 for t10), in chunks of 2^16
// entries, plus 4 bytes per bucket per table (buckets = the power of two
// >= expected_entries), touched as buckets are first used.
//
// Thread safety: Add() from one thread at a time (the service's decision
// lock); Search() and size() from any number of threads concurrently with
// it. An entry is visible to searches once Add() has returned.
#ifndef SIMDEX_ENGINE_SERVICE_ONLINE_INDEX_H_
#define SIMDEX_ENGINE_SERVICE_ONLINE_INDEX_H_

#include <atomic>
#include <cstdlib>
#include <cstdint>
#include <memory>
#include <vector>

#include "simdex/scheme.h"

namespace simdex::service {

// An entry within distance of a query.
struct OnlineMatch {
  uint64_t seq;
  uint64_t fingerprint;
  int distance;
};

class OnlineIndex {
 public:
  // Chunks of 2^16 entries; at most 2^16 chunks.
  static constexpr int kChunkBits = 16;
  // Entries are chained by u32 links, entry i as i + 1 and 0 ending a
  // chain: at most 2^32 - 1 (kMaxLiveEntries of include/simdex/service.h).
  static constexpr uint64_t kMaxEntries = (uint64_t{1} << 32) - 1;

  OnlineIndex(const Scheme& scheme, uint64_t expected_entries);
  ~OnlineIndex();
  OnlineIndex(const OnlineIndex&) = delete;
  OnlineIndex& operator=(const OnlineIndex&) = delete;

  // Appends an entry. REQUIRES: seq greater than every seq added before;
  // size() < kMaxEntries; one writer at a time.
  void Add(uint64_t seq, uint64_t fingerprint);

  // Appends every entry within k (inclusive) whose seq is >= min_seq to
  // *out, each once, in no particular order. REQUIRES: 0 <= k <= scheme's k.
  void Search(uint64_t fingerprint, int k, uint64_t min_seq, std::vector<OnlineMatch>* out) const;

  // Calls fn(seq, fingerprint) for the first `count` entries in the order
  // they were added. REQUIRES: count <= size().
  template <typename Fn>
  void ForEach(uint64_t count, Fn&& fn) const {
    for (uint64_t i = 0; i < count; ++i) {
      const Entry& e = At(i);
      fn(e.seq, e.fingerprint);
    }
  }

  // Entries added so far (published).
  uint64_t size() const { return size_.load(std::memory_order_acquire); }
  const Scheme& scheme() const { return scheme_; }
  // Bytes allocated: entries, chains and every bucket (bucket pages never
  // touched take no memory).
  uint64_t MemoryBytes() const;

 private:
  struct Entry {
    uint64_t seq;
    uint64_t fingerprint;
  };

  const Entry& At(uint64_t i) const {
    return chunks_[i >> kChunkBits].load(std::memory_order_acquire)[i & ((uint64_t{1} << kChunkBits) - 1)];
  }
  // The chain link of entry i in table t: the next (older) entry of its
  // bucket, plus one (0 ends the chain).
  uint32_t Next(uint64_t i, int t) const {
    return next_chunks_[i >> kChunkBits].load(std::memory_order_acquire)
        [(i & ((uint64_t{1} << kChunkBits) - 1)) * tables_ + t];
  }
  uint64_t Key(int t, uint64_t fingerprint) const {
    return scheme_.table(t).Apply(fingerprint) >> (64 - scheme_.table(t).key_bits());
  }
  size_t Bucket(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> bucket_shift_); }

  const Scheme scheme_;
  const int tables_;
  int bucket_shift_ = 0;
  size_t buckets_ = 0;
  // heads_[t * buckets_ + b]: the newest entry of bucket b of table t, plus
  // one; read and written through std::atomic_ref. calloc'ed: the kernel
  // hands out zero pages as they are first touched, so a fresh delta costs
  // nothing up front however many buckets it has.
  struct FreeDeleter {
    void operator()(uint32_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint32_t[], FreeDeleter> heads_;
  std::atomic_ref<uint32_t> Head(int t, size_t bucket) const {
    return std::atomic_ref<uint32_t>(heads_[static_cast<size_t>(t) * buckets_ + bucket]);
  }
  std::vector<std::atomic<Entry*>> chunks_;
  std::vector<std::atomic<uint32_t*>> next_chunks_;
  std::atomic<uint64_t> size_{0};
};

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_ONLINE_INDEX_H_
