// The self-join: every pair of a batch's distinct fingerprints within
// Hamming distance k, found table by table over the permuted sorted tables
// of a scheme instead of by one probe per fingerprint.
//
// For each table the scheme needs for k (Scheme::TablesForDistance), the
// batch is sorted by the table's key (key_groups.h) and the fingerprints of
// each key group are compared (group_join.h). A pair within k agrees on the
// key of at least one of those tables (pigeonhole); it is reported by the
// first such table only, so every pair comes out exactly once. k = 0 needs
// no table: distinct fingerprints are never within distance 0.
#ifndef SIMDEX_ENGINE_SIMHASH_DEDUP_SELF_JOIN_H_
#define SIMDEX_ENGINE_SIMHASH_DEDUP_SELF_JOIN_H_

#include <cstdint>
#include <span>

#include "engine/simhash/dedup/group_join.h"
#include "engine/simhash/dedup/key_groups.h"
#include "engine/simhash/dedup/pair_sink.h"
#include "simdex/scheme.h"
#include "simdex/status.h"

namespace simdex::simhash {

struct SelfJoinOptions {
  Scheme scheme;
  int k = 0;  // REQUIRES: 0 <= k <= scheme.k()
  KeyGroupOptions sort;
  bool force_plain_groups = false;  // never split large groups (tests)
};

struct SelfJoinStats {
  KeyGroupStats sort;
  GroupJoinStats groups;
  uint64_t pairs = 0;
};

// Calls sink with every pair (a < b, indexes into `distinct`) within k,
// each once, in no particular order. REQUIRES: distinct sorted ascending
// without repeats; distinct.size() <= 2^32 - 1.
Status SelfJoin(std::span<const uint64_t> distinct, const SelfJoinOptions& options, const PairSink& sink,
                SelfJoinStats* stats);

// The bits of an unpermuted fingerprint that form table t's key.
uint64_t KeyMask(const BlockPermutation& perm);

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_DEDUP_SELF_JOIN_H_
