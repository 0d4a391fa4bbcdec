// EfBlockBuilder: encodes one block of a sorted table with the Elias-Fano
// codec (ef_format.h draws the layout; the frame's first six bytes are
// block_frame.h's).
//
// Each block takes the low-bit width L that makes its stream shortest (the
// smallest such L on a tie), so that a dense stretch of a table gets a
// small L and a sparse one a large L. A block is full when its values at
// their best L would not fit in its (B - 6) * 8 stream bits, or the count
// would pass 65535; the next block then starts with that value as its head.
// (A block's bits at its best L only grow as values are added, so filling
// greedily is exact.)
//
// Thread safety: an EfBlockBuilder is not safe for concurrent use.
#ifndef SIMDEX_FORMAT_EF_EF_BLOCK_BUILDER_H_
#define SIMDEX_FORMAT_EF_EF_BLOCK_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "format/ef/ef_format.h"

namespace simdex::format {

class EfBlockBuilder {
 public:
  // REQUIRES: IsValidBlockSize(block_size).
  explicit EfBlockBuilder(size_t block_size);

  EfBlockBuilder(const EfBlockBuilder&) = delete;
  EfBlockBuilder& operator=(const EfBlockBuilder&) = delete;

  // Begins a new block whose head is `head`, discarding any unfinished one.
  void Start(uint64_t head);

  // Appends value and returns true, or returns false and changes nothing
  // when the block is full. REQUIRES: Start() was called since the last
  // Finish(); value >= the last value added (or the head).
  bool Add(uint64_t value);

  // Returns the finished block: block_size bytes, valid until the next call
  // of Start(). REQUIRES: Start() was called since the last Finish().
  std::string_view Finish(uint64_t seed);

  // Values in the current block, including the head.
  uint32_t count() const { return static_cast<uint32_t>(deltas_.size()) + 1; }
  // The current block's low-bit width L.
  int low_width() const { return low_width_; }
  // The current block's Z: its last value's bucket, the upper bits' zeros.
  uint64_t zeros() const { return last() >> low_width_; }
  // Stream bits the current block uses (header, samples, upper and lower bits).
  uint64_t stream_bits() const;

 private:
  uint64_t last() const { return deltas_.empty() ? 0 : deltas_.back(); }

  const size_t block_size_;
  const uint64_t capacity_bits_;
  uint64_t head_ = 0;
  std::vector<uint64_t> deltas_;  // v_i - head for i = 1..count-1
  int low_width_ = 0;
  std::string block_;
};

// The L in 0..63 that makes a block of `count` values whose last lies
// `last` above the head shortest (the smallest on a tie), searched from
// `guess`: the stream bits are a convex function of L, so a walk from any
// guess reaches the minimum.
int EfBestLowWidth(size_t block_size, uint32_t count, uint64_t last, int guess);

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_EF_EF_BLOCK_BUILDER_H_
