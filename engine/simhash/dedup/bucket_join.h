// BucketJoin: one table's share of the self-join over one bucket of the
// shuffle (include/simdex/dedup_parts.h, JoinTables): fingerprints in any
// order, in pieces (one per partition), repeats allowed.
//
// The self-join of a whole batch (self_join.h) starts from the batch's
// sorted distinct fingerprints and sorts their numbers by each table's key.
// A bucket is not sorted and holds repeats, and sorting it to number its
// distinct fingerprints would be a second sort. Here the one sort is the
// key's: the permuted fingerprints are sorted by their leading key bits
// (key_sort.h), and only the key groups of two or more, a small share of a
// bucket, are sorted whole to drop their repeats before GroupJoin compares
// them (the ownership rule of group_join.h: the table's key required, the
// keys of the tables before it in TablesForDistance(k) excluded).
//
// The sort's two buffers (16 bytes per fingerprint of the largest bucket,
// util::AllocateLarge: huge pages where the kernel gives them) are kept from
// one Join() to the next: a reducer joins one key range of every table in
// turn.
//
// Thread safety: one thread calls Join(); it runs up to `threads` threads.
#ifndef SIMDEX_ENGINE_SIMHASH_DEDUP_BUCKET_JOIN_H_
#define SIMDEX_ENGINE_SIMHASH_DEDUP_BUCKET_JOIN_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/util/large_memory.h"
#include "simdex/dedup.h"
#include "simdex/scheme.h"
#include "simdex/status.h"

namespace simdex::simhash {

class BucketJoin {
 public:
  // REQUIRES: 0 <= k <= scheme.k(); threads >= 1.
  BucketJoin(const Scheme& scheme, int k, int threads, bool force_plain_groups = false);
  ~BucketJoin();

  // Appends to *out, in no particular order, every pair of distinct
  // fingerprints (a < b) among the pieces within k that `table` owns: the
  // two agree on its key and on the key of no table before it in
  // TablesForDistance(k). REQUIRES: table is one of TablesForDistance(k);
  // the pieces hold at most 2^32 - 1 fingerprints together. IOError when
  // the sort's buffers cannot be allocated.
  Status Join(int table, std::span<const std::span<const uint64_t>> pieces, std::vector<NearPair>* out);

 private:
  bool Reserve(size_t n);

  const Scheme scheme_;
  const int k_;
  const int threads_;
  const bool force_plain_groups_;
  util::LargeArray<uint64_t> records_;  // the permuted fingerprints, sorted by key
  util::LargeArray<uint64_t> scratch_;
  size_t capacity_ = 0;
};

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_DEDUP_BUCKET_JOIN_H_
