// Constants and small helpers shared by the block encoder (block_builder.h)
// and decoder (block_reader.h). block_builder.h draws the layout.
#ifndef SIMDEX_FORMAT_BLOCK_FORMAT_H_
#define SIMDEX_FORMAT_BLOCK_FORMAT_H_

#include <bit>
#include <cstddef>
#include <cstdint>

namespace simdex::format {

inline constexpr size_t kMinBlockSize = 64;
inline constexpr size_t kMaxBlockSize = 65536;
// u32 checksum + u16 count.
inline constexpr size_t kBlockHeaderSize = 6;
// The count field is a u16 and includes the head.
inline constexpr uint32_t kMaxBlockEntries = 65535;

// True for the block sizes the format allows: powers of two in
// [kMinBlockSize, kMaxBlockSize].
inline constexpr bool IsValidBlockSize(size_t block_size) {
  return block_size >= kMinBlockSize && block_size <= kMaxBlockSize && std::has_single_bit(block_size);
}

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
inline constexpr int kMaxRestarts = 15;
inline constexpr int kRestartSymbolBits = 7;  // the symbol n, 0..64

// Bits of one offset-table field: enough for any bit position in the stream.
inline constexpr int RestartOffsetBits(size_t block_size) { return std::countr_zero(block_size) + 3; }

// Bits of the offset table at the front of a block's stream.
inline constexpr size_t RestartTableBits(size_t block_size, int restarts) {
  return static_cast<size_t>(restarts) * RestartOffsetBits(block_size);
}

inline constexpr bool IsValidRestarts(int restarts) { return restarts >= 0 && restarts <= kMaxRestarts; }

// True when a block of `count` values (head included) uses its restart points.
inline constexpr bool HasRestarts(uint32_t count, int restarts) {
  return restarts > 0 && count > static_cast<uint32_t>(restarts);
}

// The entry index of restart point r (1..restarts) in a block of `count`
// values. REQUIRES: HasRestarts(count, restarts).
inline constexpr uint32_t RestartIndex(int r, uint32_t count, int restarts) {
  return static_cast<uint32_t>(uint64_t{static_cast<uint32_t>(r)} * count / static_cast<uint32_t>(restarts + 1));
}

// The checksum stored at offset 0 of a block: the low 32 bits of
// XXH3_64bits_withSeed over bytes [4, block_size) with the caller's seed.
// REQUIRES: block_size >= kBlockHeaderSize; block holds block_size bytes.
uint32_t BlockChecksum(const uint8_t* block, size_t block_size, uint64_t seed);

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_BLOCK_FORMAT_H_
