// The pieces of the band self-join (include/simdex/minhash_join.h) that
// FindBandPairs and BandJoiner share: the shape of the records, the filter
// of repeated slots and the in-memory join.
#ifndef SIMDEX_ENGINE_MINHASH_DEDUP_BAND_JOIN_CORE_H_
#define SIMDEX_ENGINE_MINHASH_DEDUP_BAND_JOIN_CORE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <vector>

#include "engine/util/large_memory.h"
#include "simdex/minhash_join.h"
#include "simdex/status.h"

namespace simdex::minhash {

// Records are (key's leading 64 - item_bits bits | item). Runs of equal
// leading key_bits bits are the groups compared item by item; the filter
// has 2^filter_bits slots, indexed by the key's leading filter_bits bits.
// filter_bits <= key_bits, so the members of a group share a slot: the
// filter keeps every group of two or more whole, whatever its size.
struct JoinShape {
  int item_bits = 1;
  int key_bits = 1;
  int filter_bits = 1;
  uint64_t item_mask = 1;
  uint64_t group_mask = 0;
  // JoinInMemory's filter: with filter_in_memory false it sorts every
  // record (the plain path; tests force either). A filter of more than
  // 2^part_bits slots is applied part by part: the records are first cut by
  // their leading filter_bits - part_bits bits (one radix pass), then each
  // part has a filter of 2^part_bits slots, which stays in the cache.
  bool filter_in_memory = true;
  int part_bits = 20;
};

// The shape for n items of which m are banded (m >= 2), with a filter of at
// most max_filter_bytes (at least 2^filter_bits / 4 bytes of it are used:
// 2 bits per slot; 2^(log2 m + 3) slots at most).
JoinShape ShapeOf(size_t n, size_t m, size_t max_filter_bytes);

// Bytes of the filter of a shape.
inline size_t FilterBytes(const JoinShape& shape) { return (size_t{1} << shape.filter_bits) / 4; }

// Bytes of JoinInMemory's records and work space for m banded items: 16 per
// item, and the slack of the parts of fixed room (at most about 3% of the
// records' 8).
size_t RecordBytes(const JoinShape& shape, size_t m);

// Two bits per slot: "taken" and "taken again". After Insert() of every key
// of a band, Repeated(key) is true for every key inserted twice or more,
// and for keys that share their slot with another. The words are large
// memory (2 MiB pages where the kernel gives them): the accesses are random.
class RepeatFilter {
 public:
  // Slots are the key's bits [64 - filter_bits, 64 - filter_bits + slot_bits)
  // counted from the top: the leading filter_bits bits, of which the lowest
  // slot_bits when a part of the slots is filtered at a time.
  RepeatFilter(int filter_bits, int slot_bits)
      : shift_(64 - filter_bits), mask_((uint64_t{1} << slot_bits) - 1), words_((size_t{1} << slot_bits) / 32 + 1) {}
  explicit RepeatFilter(const JoinShape& shape) : RepeatFilter(shape.filter_bits, shape.filter_bits) {}
  void Clear() { std::memset(words_.data(), 0, words_.size() * sizeof(uint64_t)); }
  void Insert(uint64_t key) {
    const uint64_t slot = (key >> shift_) & mask_;
    uint64_t& w = words_[slot >> 5];
    const uint64_t taken = uint64_t{1} << ((slot & 31) * 2);
    w |= taken | ((w & taken) << 1);
  }
  bool Repeated(uint64_t key) const {
    const uint64_t slot = (key >> shift_) & mask_;
    return (words_[slot >> 5] >> ((slot & 31) * 2 + 1)) & 1;
  }

 private:
  int shift_;
  uint64_t mask_;
  util::LargeVector<uint64_t> words_;
};

// Receives pairs in batches; an error stops the join.
using PairFlush = std::function<Status(const uint64_t* pairs, size_t n)>;

// The join with every key in memory: columns[j][i] is item i's key of band
// j; items lists the banded items in increasing order. Each pair (a < b) is
// flushed once per band whose key it shares, in no particular order (a
// check of the earlier bands' keys per pair took a third of the join's
// time: two cache misses per band). Adds to stats' groups, comparisons and
// filtered.
Status JoinInMemory(const uint64_t* const* columns, int bands, std::span<const uint32_t> items,
                    const JoinShape& shape, int threads, const PairFlush& flush, BandJoinStats* stats);

}  // namespace simdex::minhash

#endif  // SIMDEX_ENGINE_MINHASH_DEDUP_BAND_JOIN_CORE_H_
