// What the codecs' block scans share (format/codec.h): the keep() functions
// that a decode calls with each value in order until one returns false, the
// counters a scan adds to, and the check that a block's padding is zero.
#ifndef SIMDEX_FORMAT_SCAN_KEEP_H_
#define SIMDEX_FORMAT_SCAN_KEEP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "format/codec.h"

namespace simdex::format {

// The keep() of a range scan: appends the values in [lo, hi] and stops at
// the first value above hi.
struct KeepInRange {
  uint64_t lo;
  uint64_t hi;
  std::vector<uint64_t>* out;
  bool operator()(uint64_t v) const {
    if (v > hi) return false;
    if (v >= lo) out->push_back(v);
    return true;
  }
};

// The keep() of a count (TableDecoder::CountInBlock): counts the values
// equal to v in *equal and stops at the first value above v. Given the
// entry index of the value it stopped at (or the count), the values below v
// are that index less *equal, when the decode passed every value equal to v
// to it.
struct CountEqual {
  uint64_t v;
  uint64_t* equal;
  bool operator()(uint64_t x) const {
    if (x > v) return false;
    *equal += x == v;
    return true;
  }
};

// Adds one scanned block to stats (which may be null).
inline void CountScan(BlockScanStats* stats, uint64_t decoded, uint64_t in_range) {
  if (stats == nullptr) return;
  ++stats->blocks;
  stats->values_decoded += decoded;
  stats->values_in_range += in_range;
}

// True when every bit of the block from bit `pos` on is zero.
inline bool PaddingIsZero(const uint8_t* block, size_t block_size, size_t pos) {
  size_t byte = pos >> 3;
  if ((pos & 7) != 0 && (block[byte++] & (0xffu >> (pos & 7))) != 0) return false;
  for (; byte < block_size; ++byte) {
    if (block[byte] != 0) return false;
  }
  return true;
}

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_SCAN_KEEP_H_
