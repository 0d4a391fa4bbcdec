// The card codec's constants and small helpers, shared by its block encoder
// (block_builder.h, which draws the layout) and decoder (block_reader.h).
#ifndef SIMDEX_FORMAT_CARD_CARD_FORMAT_H_
#define SIMDEX_FORMAT_CARD_CARD_FORMAT_H_

#include <bit>
#include <cstddef>
#include <cstdint>

#include "format/block_frame.h"

namespace simdex::format {

// The symbol that codes v after its predecessor p: the number of leading
// bits they share, 64 when equal.
inline int PrefixSymbol(uint64_t p, uint64_t v) { return std::countl_zero(p ^ v); }

// Number of suffix bits that follow symbol n: the bits of v after the first
// bit where it differs from its predecessor (which is 1 in v and not stored).
inline constexpr int SuffixBits(int n) { return n == 64 ? 0 : 63 - n; }

// Restart points (block_builder.h draws them). A block with R restart
// points and count c > R codes its entry i_r = floor(r * c / (R + 1)),
// r = 1..R, against the block's head instead of its predecessor, with the
// symbol in kRestartSymbolBits raw bits, and records the bit where that
// entry starts in an offset table at the front of the stream, so that a scan
// can begin at the last restart point below its key instead of at the head.
inline constexpr int kRestartSymbolBits = 7;  // the symbol n, 0..64

// Bits of one offset-table field: enough for any bit position in the stream.
inline constexpr int RestartOffsetBits(size_t block_size) { return std::countr_zero(block_size) + 3; }

// Bits of the offset table at the front of a block's stream.
inline constexpr size_t RestartTableBits(size_t block_size, int restarts) {
  return static_cast<size_t>(restarts) * RestartOffsetBits(block_size);
}

// True when a block of `count` values (head included) uses its restart points.
inline constexpr bool HasRestarts(uint32_t count, int restarts) {
  return restarts > 0 && count > static_cast<uint32_t>(restarts);
}

// The entry index of restart point r (1..restarts) in a block of `count`
// values. REQUIRES: HasRestarts(count, restarts).
inline constexpr uint32_t RestartIndex(int r, uint32_t count, int restarts) {
  return static_cast<uint32_t>(uint64_t{static_cast<uint32_t>(r)} * count / static_cast<uint32_t>(restarts + 1));
}

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_CARD_CARD_FORMAT_H_
