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
#ifndef SIMDEX_ENGINE_SIMHASH_DEDUP_KEY_GROUPS_H_
#define SIMDEX_ENGINE_SIMHASH_DEDUP_KEY_GROUPS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/util/large_memory.h"
#include "simdex/scheme.h"
#include "simdex/status.h"

namespace simdex::simhash {

// A run of consecutive groups of one part of a table, handed to a visitor
// together so that it can start the memory loads of all of them first.
struct GroupBatch {
  // Group g: prefixes[g] is its leading group_bits of the permuted value,
  // left aligned (the other bits zero); its fingerprints are
  // ids[starts[g], starts[g + 1]) (indexes into the distinct fingerprints,
  // increasing). starts has size() + 1 entries.
  std::vector<uint64_t> prefixes;
  std::vector<uint32_t> starts = {0};
  std::vector<uint32_t> ids;

  size_t size() const { return prefixes.size(); }
  std::span<const uint32_t> group(size_t g) const {
    return std::span<const uint32_t>(ids).subspan(starts[g], starts[g + 1] - starts[g]);
  }
  void Clear() {
    prefixes.clear();
    starts.assign(1, 0);
    ids.clear();
  }
};

// Consumes the groups of one part of a table, in increasing key order.
class GroupVisitor {
 public:
  virtual ~GroupVisitor() = default;
  // The batch is valid during the call only.
  virtual Status Visit(const GroupBatch& batch) = 0;
};

struct KeyGroupOptions {
  // Bytes the sort may use (records and scratch, or the external sorter's
  // buffers). At least util::kExternalSortMinMemoryBytes.
  size_t memory_bytes = size_t{1} << 30;
  std::string tmpdir;  // for spilled runs
  // Threads for the sort and, in memory, for visiting: the table is cut
  // into `threads` parts at group boundaries, one visitor each.
  int threads = 1;
  // Groups with fewer fingerprints are not visited (the self-join needs 2).
  size_t min_group_size = 1;
};

struct KeyGroupStats {
  uint64_t spilled_runs = 0;
  uint64_t spilled_bytes = 0;
};

// The leading bits of a permuted value that form a group for a table with
// a key_bits-wide key over `distinct_count` fingerprints.
int GroupBits(int key_bits, uint64_t distinct_count);

// Cuts n sorted records into at most `threads` parts (one per 4096 records
// at most) for threads to visit apart: part p is [bounds[p], bounds[p + 1]),
// each bound moved forward past the records that continue a group
// (same_group(i): record i is in record i - 1's group).
template <class SameGroup>
std::vector<size_t> GroupParts(size_t n, int threads, const SameGroup& same_group) {
  const int parts = static_cast<int>(std::max<size_t>(1, std::min<size_t>(threads, n / 4096 + 1)));
  std::vector<size_t> bounds(parts + 1, n);
  bounds[0] = 0;
  for (int p = 1; p < parts; ++p) {
    size_t b = std::max(bounds[p - 1], n * p / parts);
    while (b > 0 && b < n && same_group(b)) ++b;
    bounds[p] = b;
  }
  return bounds;
}

// The key groups of one batch, table after table. The in-memory sort's
// buffers are kept from one table to the next.
//
// Thread safety: one thread calls ForEach; visitors run on up to
// options.threads threads.
class KeyGroups {
 public:
  // REQUIRES: distinct.size() <= 2^32 - 1; distinct outlives this object.
  KeyGroups(std::span<const uint64_t> distinct, const KeyGroupOptions& options);
  ~KeyGroups();

  // Sorts the batch by `perm`'s key and calls the visitors' Visit for every
  // group of at least min_group_size. make_visitor(part) is called once per
  // part (parts 0, 1, ..., at most `threads` of them) before any Visit;
  // each visitor is used by one thread and destroyed after its part.
  // Returns the first error a visitor or the sort returned.
  Status ForEach(const BlockPermutation& perm,
                 const std::function<std::unique_ptr<GroupVisitor>(int part)>& make_visitor);

  const KeyGroupStats& stats() const { return stats_; }

 private:
  Status SortedInMemory(const BlockPermutation& perm, int group_bits,
                        const std::function<std::unique_ptr<GroupVisitor>(int)>& make_visitor);
  Status SortedExternally(const BlockPermutation& perm, int group_bits,
                          const std::function<std::unique_ptr<GroupVisitor>(int)>& make_visitor);

  std::span<const uint64_t> distinct_;
  KeyGroupOptions options_;
  KeyGroupStats stats_;
  util::LargeArray<uint64_t> records_;  // in memory: capacity_ each
  util::LargeArray<uint64_t> scratch_;
};

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_DEDUP_KEY_GROUPS_H_
