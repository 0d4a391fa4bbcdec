// OnlineIndex: the docId service's mutable delta. An in-memory index of
// (seq, fingerprint) entries that one writer appends to while any number of
// readers search it, without locks on either side (Chains, chains.h).
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
// Memory: 16 + 4 x tables bytes per entry (56 for t10), in chunks of 2^16
// entries, plus 4 bytes per bucket per table (chains.h).
//
// Thread safety: Add() from one thread at a time (the service's decision
// lock); Search() and size() from any number of threads concurrently with
// it. An entry is visible to searches once Add() has returned.
#ifndef SIMDEX_ENGINE_SERVICE_ONLINE_INDEX_H_
#define SIMDEX_ENGINE_SERVICE_ONLINE_INDEX_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/service/chains.h"
#include "simdex/scheme.h"

namespace simdex::service {

// An entry within distance of a query.
struct OnlineMatch {
  uint64_t seq;
  uint64_t fingerprint;
  int distance;
};

class OnlineIndex : private Chains {
 public:
  using Chains::kMaxEntries;

  OnlineIndex(const Scheme& scheme, uint64_t expected_entries)
      : Chains(16, scheme.num_tables(), expected_entries), scheme_(scheme) {}

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
    for (uint64_t i = 0; i < count; ++i) fn(Seq(Record(i)), Fingerprint(Record(i)));
  }

  using Chains::MemoryBytes;
  using Chains::size;
  const Scheme& scheme() const { return scheme_; }

 private:
  // A record: the seq, then the fingerprint.
  static uint64_t Fingerprint(const uint8_t* record) {
    uint64_t fp;
    std::memcpy(&fp, record + 8, 8);
    return fp;
  }
  uint64_t Key(int t, uint64_t fingerprint) const {
    return scheme_.table(t).Apply(fingerprint) >> (64 - scheme_.table(t).key_bits());
  }

  const Scheme scheme_;
};

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_ONLINE_INDEX_H_
