// Search in a table's head index: the first value of every block, an array
// of little-endian u64 sorted ascending (equal heads allowed), possibly
// unaligned (it sits in a memory-mapped file).
//
// To find the blocks that may hold values in [lo, hi], start at
// FindLastLess(heads, n, lo) (or block 0 when it returns kNoHead: a run of
// values equal to lo may begin in the block before the first head equal to
// lo) and scan forward while values stay <= hi.
//
// Thread safety: the functions keep no state; concurrent calls are safe with
// distinct stats objects.
#ifndef SIMDEX_FORMAT_HEAD_SEARCH_H_
#define SIMDEX_FORMAT_HEAD_SEARCH_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdex::format {

// Returned when no head is less than x.
inline constexpr size_t kNoHead = static_cast<size_t>(-1);

// Counters for tuning. Not thread-safe: one per thread.
struct HeadSearchStats {
  uint64_t searches = 0;
  uint64_t probes = 0;  // heads loaded and compared
};

// Returns the index of the last head < x, or kNoHead when there is none
// (n == 0 or heads[0] >= x). Interpolation search: each round guesses the
// position from the values that bracket the current range and adds a guard
// probe about one expected error further, which takes O(log log n) probes
// on evenly spread heads; a round that fails to halve the range is followed
// by a bisection, so no search takes more than about 3 log2(n) probes.
// stats may be null.
// REQUIRES: heads_le holds n little-endian u64 sorted ascending.
size_t FindLastLess(const uint8_t* heads_le, size_t n, uint64_t x, HeadSearchStats* stats);

// Same result by plain binary search (the baseline, and the oracle in tests).
size_t FindLastLessBinary(const uint8_t* heads_le, size_t n, uint64_t x, HeadSearchStats* stats);

// A copy of every kStride-th head, kept in memory by the reader, so that a
// search probes the (cold, memory-mapped) head index only once: the sample
// is searched first (it is small enough to stay in cache), which narrows
// the answer to kStride consecutive heads, 64 bytes, which are then
// scanned. The search is split in two steps so that a caller can prefetch
// the window of several tables before scanning any of them.
//
// The sample search starts from a directory on the leading bits (as a radix
// sort's buckets): for each value of the top dir_bits bits, where the
// sampled heads with that prefix begin. On evenly spread heads a bucket holds
// about one sampled head, so a search is a directory load and a short scan;
// a bucket holding many (skewed heads: constant leading bits, clusters) is
// searched with FindLastLess, which keeps the O(log n) bound.
//
// Thread safety: immutable after Init(); concurrent searches are safe.
class HeadSample {
 public:
  static constexpr size_t kStride = 8;

  // Copies every kStride-th of the n heads at heads_le.
  void Init(const uint8_t* heads_le, size_t n);

  // Optional steps before Window(x), for searches of several samples at
  // once (one per table) whose memory accesses should overlap: after
  // PrefetchBucket(x) of every search, PrefetchSample(x) of every search
  // (it reads the directory line the first asked for), then Window(x) of
  // every search finds its lines on the way.
  void PrefetchBucket(uint64_t x) const;
  void PrefetchSample(uint64_t x) const;

  // Step 1: the window of heads that holds FindLastLess(x): its first index
  // (a multiple of kStride), or kNoHead when no head is less than x.
  size_t Window(uint64_t x, HeadSearchStats* stats) const;

  // Step 2: FindLastLess(heads_le, n, x) given w = Window(x). heads_le and n
  // must be those passed to Init().
  static size_t FinishInWindow(const uint8_t* heads_le, size_t n, size_t w, uint64_t x, HeadSearchStats* stats);

  // The head at index i when the sample holds it (i a multiple of kStride
  // below n), so that a caller needs no memory-mapped load for it: sets
  // *head and returns true; otherwise returns false.
  bool SampledHead(size_t i, uint64_t* head) const;

  // Memory held: the sample and its directory.
  size_t bytes() const { return sample_le_.size() + 4 * dir_.size(); }

 private:
  // Largest directory: 2^12 + 1 u32 (16 KiB) per table.
  static constexpr int kMaxDirBits = 12;

  // x's directory bucket: its top dir_bits_ bits.
  size_t Bucket(uint64_t x) const;
  // FindLastLess(sample, x) through the directory.
  size_t FindInSample(uint64_t x, HeadSearchStats* stats) const;

  std::vector<uint8_t> sample_le_;  // little-endian u64, as the head index
  // dir_[d]: the number of sampled heads whose top dir_bits_ bits are < d,
  // for d = 0 .. 2^dir_bits_ (empty when the sample is).
  std::vector<uint32_t> dir_;
  int dir_bits_ = 0;
};

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_HEAD_SEARCH_H_
