// GroupJoin: every pair within distance k among the fingerprints of one
// key group of a permuted table (all of them agree on the table's key), each
// reported exactly once across all groups of all tables.
//
// Ownership rule. A pair is reported by the first table, in the join's
// table order, whose whole key it agrees on; within that table's group, it
// is reported where its recursion path says (below). A pair is reported
// only if (x ^ y) & required == 0 (it agrees on this table's key) and
// (x ^ y) & m != 0 for every exclusion mask m (it does not agree on an
// earlier table's key), so each pair has exactly one owner.
//
// Large groups. Comparing all g(g-1)/2 pairs of a group is quadratic; a
// group of more than kPlainGroup fingerprints (a small key on a large batch,
// skewed bits) is split again by the pigeonhole rule the tables use: the
// bits that vary within the group are cut into k + 1 chunks; a pair within
// k agrees on at least one chunk, so it is found among the fingerprints that
// share chunk j, and reported there only for the first chunk it agrees on
// (the chunks before j become exclusion masks). Bits constant over the group
// are left out of the chunks, so every sub-group is smaller than its group
// and the recursion ends.
#ifndef SIMDEX_ENGINE_SIMHASH_DEDUP_GROUP_JOIN_H_
#define SIMDEX_ENGINE_SIMHASH_DEDUP_GROUP_JOIN_H_

#include <cstdint>
#include <vector>

#include "engine/simhash/dedup/pair_sink.h"

namespace simdex::simhash {

// Groups of at most this many fingerprints are compared pair by pair.
inline constexpr size_t kPlainGroup = 48;

struct GroupJoinStats {
  uint64_t comparisons = 0;  // fingerprint pairs compared
  uint64_t splits = 0;       // groups split into chunks
};

class GroupJoin {
 public:
  // k: the largest distance reported. force_plain: never split a group
  // (tests compare both paths).
  GroupJoin(int k, bool force_plain) : k_(k), force_plain_(force_plain) {}

  struct Member {
    uint64_t value;  // the (unpermuted) fingerprint
    uint32_t id;     // the batch fingerprint's number, as the pairs name it
  };
  // The group to join next, filled by the caller (cleared by Join).
  std::vector<Member>& members() { return members_; }

  // Joins the group of members(); pairs go to *out. required and
  // exclusions are in unpermuted bit positions. REQUIRES: the members'
  // values distinct.
  void Join(uint64_t required, const std::vector<uint64_t>& exclusions, PairBuffer* out, GroupJoinStats* stats);

 private:
  void Recurse(Member* begin, Member* end, PairBuffer* out, GroupJoinStats* stats);
  void Plain(const Member* begin, const Member* end, PairBuffer* out, GroupJoinStats* stats);
  bool Owned(uint64_t diff) const;

  const int k_;
  const bool force_plain_;
  uint64_t required_ = 0;
  std::vector<uint64_t> exclusions_;  // the caller's, then each level's earlier chunks
  std::vector<Member> members_;
};

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_DEDUP_GROUP_JOIN_H_
