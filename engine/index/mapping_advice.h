// The advice a reader gives the kernel about an index file's mapping
// (ReaderOptions::access): whether page faults read their neighbours, and,
// when they do not, asking ahead for the pages a sequential read will need.
// Advice only: a call the kernel refuses changes speed, never results.
#ifndef SIMDEX_ENGINE_INDEX_MAPPING_ADVICE_H_
#define SIMDEX_ENGINE_INDEX_MAPPING_ADVICE_H_

#include <cstddef>
#include <cstdint>

#include "simdex/index.h"

namespace simdex::index {

// Whether a mapped file of file_bytes is to be read without read-around:
// kRandom, or kAuto and the file is larger than half of physical memory.
bool WantsRandomAccess(ReaderOptions::Access access, uint64_t file_bytes);

// [data, data + size) widened to whole pages, as madvise and mlock take it.
struct PageSpan {
  void* begin;
  size_t length;
};
PageSpan WholePages(const uint8_t* data, size_t size);

// A reader's advice for its whole mapped file: MADV_RANDOM (widened to
// whole pages) when WantsRandomAccess(access, size); returns whether it was
// given.
bool AdviseAccess(ReaderOptions::Access access, const uint8_t* file, size_t size);

// MADV_WILLNEED over [data, data + size) (widened to whole pages): the
// kernel starts reading them in.
void WillRead(const uint8_t* data, size_t size);

// IndexFile::Preload over a mapped file's bytes (engine/index/index_preload.cc):
// reads every page of [data, data + size) in, and with lock mlock()s them.
Status PreloadPages(const uint8_t* data, size_t size, bool lock, PreloadResult* result);

// Bytes a sequential reader asks for at a time when read-around is off.
inline constexpr size_t kReadAheadWindowBytes = size_t{4} << 20;

// A walk over a table's blocks in order (Verify(), a merge's scan) asks for
// them a window at a time, when random access was advised (`enabled`):
//   BlockReadAhead ahead(random_access, table.blocks, table.num_blocks, block_size);
//   for (uint64_t b = 0; b < table.num_blocks; ++b) { ahead.Before(b); ... }
class BlockReadAhead {
 public:
  BlockReadAhead(bool enabled, const uint8_t* blocks, uint64_t num_blocks, uint32_t block_size)
      : enabled_(enabled), blocks_(blocks), num_blocks_(num_blocks), block_size_(block_size),
        window_blocks_(block_size >= kReadAheadWindowBytes ? 1 : kReadAheadWindowBytes / block_size) {}

  // Before block b is read; blocks are read in increasing order.
  void Before(uint64_t b) {
    if (!enabled_ || b % window_blocks_ != 0 || b >= num_blocks_) return;
    const uint64_t blocks = num_blocks_ - b < window_blocks_ ? num_blocks_ - b : window_blocks_;
    WillRead(blocks_ + b * block_size_, static_cast<size_t>(blocks * block_size_));
  }

 private:
  bool enabled_;
  const uint8_t* blocks_;
  uint64_t num_blocks_;
  uint64_t block_size_;
  uint64_t window_blocks_;
};

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_MAPPING_ADVICE_H_
