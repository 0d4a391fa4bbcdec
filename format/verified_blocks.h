// VerifiedBlocks: the blocks of one table that this process has checked
// against their checksums (docs/format.md, "Block"), so that a reader hashes
// each block once, the first time it decodes it, and afterwards pays one bit
// test: one bit per block, set after a good check.
//
// A failed check sets nothing: every later decode of a damaged block checks
// it again and fails again.
//
// Thread safety: Check() and Contains() may be called concurrently from any
// number of threads. The bits are std::atomic words, tested with a relaxed
// load and set with a relaxed fetch_or: the bytes a bit vouches for are
// immutable while the reader lives (a read-only mapping), so a bit publishes
// nothing else; two threads checking the same block at once both hash it
// and both set the same bit, which is harmless.
#ifndef SIMDEX_FORMAT_VERIFIED_BLOCKS_H_
#define SIMDEX_FORMAT_VERIFIED_BLOCKS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "simdex/status.h"

namespace simdex::format {

class VerifiedBlocks {
 public:
  VerifiedBlocks() = default;
  // None of `num_blocks` blocks verified yet.
  explicit VerifiedBlocks(uint64_t num_blocks);

  uint64_t size() const { return size_; }

  // True when block b has passed Check(). REQUIRES: b < size().
  bool Contains(uint64_t b) const {
    return (words_[b >> 6].load(std::memory_order_relaxed) >> (b & 63)) & 1;
  }

  // OK when block b passed before, or when its stored checksum matches
  // BlockChecksum(ptr, block_size, seed) now (then b is remembered);
  // otherwise Corruption("checksum mismatch").
  // REQUIRES: b < size(); ptr holds block_size >= 6 readable bytes.
  Status Check(const uint8_t* ptr, size_t block_size, uint64_t seed, uint64_t b) const {
    if (Contains(b)) [[likely]] {
      return Status::OK();
    }
    return CheckNow(ptr, block_size, seed, b);
  }

 private:
  Status CheckNow(const uint8_t* ptr, size_t block_size, uint64_t seed, uint64_t b) const;

  std::unique_ptr<std::atomic<uint64_t>[]> words_;
  uint64_t size_ = 0;
};

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_VERIFIED_BLOCKS_H_
