// Key groups: a batch's distinct fingerprints sorted by one permuted
// table's key, handed out one group of equal keys at a time. The self-join
// compares the fingerprints within each group; the merge join against an
// index compares each group with the index's entries of the same key.
//
// A fingerprint is sorted as one packed 64-bit record: the leading
// group_bits of its permuted value, then its index among the distinct
// fingerprints. group_bits is the table's key width when the index fits
// beside it (28-bit keys leave 36 bits: 6.9 x 10^10 fingerprints), else as
// many leading key bits as fit; the groups are then unions of key groups,
// which the consumers handle by checking the whole key (see GroupJoin).
//
// Records are radix-sorted in memory when 16 bytes per fingerprint fit the
// memory budget, and otherwise sorted by the external sorter (spilling
// sorted runs to tmpdir) and streamed.
#ifndef SIMDEX_ENGINE_DEDUP_KEY_GROUPS_H_
#define SIMDEX_ENGINE_DEDUP_KEY_GROUPS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "simdex/scheme.h"
#include "simdex/status.h"

namespace simdex::dedup {

// Consumes the groups of one part of a table, in increasing key order.
class GroupVisitor {
 public:
  virtual ~GroupVisitor() = default;
  // prefix: the group's leading group_bits of the permuted value, left
  // aligned (the other bits zero). ids: the distinct fingerprints' indexes,
  // increasing. The span is valid during the call only.
  virtual Status Visit(uint64_t prefix, std::span<const uint32_t> ids) = 0;
};

struct KeyGroupOptions {
  // Bytes the sort may use (records and scratch, or the external sorter's
  // buffers). At least index::kExternalSortMinMemoryBytes.
  size_t memory_bytes = size_t{1} << 30;
  std::string tmpdir;  // for spilled runs
  // Threads for the sort and, in memory, for visiting: the table is cut
  // into `threads` parts at group boundaries, one visitor each.
  int threads = 1;
  // Groups with fewer fingerprints are not visited (the self-join needs 2).
  size_t min_group_size = 1;
};

struct KeyGroupStats {
  uint64_t tables = 0;
  uint64_t records = 0;
  uint64_t spilled_runs = 0;
  uint64_t spilled_bytes = 0;
  double seconds_sorting = 0;
  double seconds_visiting = 0;
};

// The leading bits of a permuted value that form a group for a table with
// a key_bits-wide key over `distinct_count` fingerprints.
int GroupBits(int key_bits, uint64_t distinct_count);

// Sorts `distinct` by `perm`'s key and calls the visitors' Visit for every
// group of at least min_group_size. make_visitor(part) is called once per
// part (parts 0, 1, ..., at most `threads` of them) before any Visit; each
// visitor is used by one thread and destroyed after its part. Returns the first error a visitor or the sort returned.
// REQUIRES: distinct.size() <= 2^32 - 1.
Status ForEachKeyGroup(std::span<const uint64_t> distinct, const BlockPermutation& perm, const KeyGroupOptions& options,
                       const std::function<std::unique_ptr<GroupVisitor>(int part)>& make_visitor,
                       KeyGroupStats* stats);

}  // namespace simdex::dedup

#endif  // SIMDEX_ENGINE_DEDUP_KEY_GROUPS_H_
