// The block frame that every codec shares (docs/format.md, "Block").
//
// A table's values are cut into blocks of block_size bytes (a power of two
// in 64..65536, one size per index). Every block starts with the same six
// bytes; what follows them is the table's codec's (format/codec.h):
//
//   +----------+---------+--------------------------------------------+
//   | checksum |  count  | codec payload                              |
//   | u32 LE   | u16 LE  |                                            |
//   +----------+---------+--------------------------------------------+
//   0          4         6                                 block_size
//
//   checksum  low 32 bits of XXH3_64bits_withSeed(bytes [4, B), seed) with
//             seed = BlockSeed(table, block), so that a block read from the
//             wrong place fails its checksum.
//   count     number of values in the block including the head, 1..65535.
//
// The head (the block's first value) is kept in the table's head index, not
// in the block, and passed to the decoder.
#ifndef SIMDEX_FORMAT_BLOCK_FRAME_H_
#define SIMDEX_FORMAT_BLOCK_FRAME_H_

#include <bit>
#include <cstddef>
#include <cstdint>

#include "format/verified_blocks.h"
#include "simdex/status.h"

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

// Restart points per block: an index-wide setting (docs/format.md,
// "Metadata") that a codec may use to cut its blocks into segments a scan
// can start at (the card codec: card/block_builder.h).
inline constexpr int kMaxRestarts = 15;
inline constexpr bool IsValidRestarts(int restarts) { return restarts >= 0 && restarts <= kMaxRestarts; }

// The seed of block `block` of table `table` for its checksum.
inline constexpr uint64_t BlockSeed(uint32_t table, uint64_t block) { return (uint64_t{table} << 32) | block; }

// The checksum stored at offset 0 of a block: the low 32 bits of
// XXH3_64bits_withSeed over bytes [4, block_size) with the caller's seed.
// REQUIRES: block_size >= kBlockHeaderSize; block holds block_size bytes.
uint32_t BlockChecksum(const uint8_t* block, size_t block_size, uint64_t seed);

// Verifies the checksum of the block at ptr: OK or
// Corruption("checksum mismatch").
// REQUIRES: ptr holds block_size >= 6 readable bytes.
Status VerifyBlockChecksum(const uint8_t* ptr, size_t block_size, uint64_t seed);

// How a block is read; the same for every codec.
struct BlockReadOptions {
  // Compare the stored checksum with BlockChecksum(block, seed) first.
  bool verify_checksum = false;
  uint64_t seed = 0;
  // Also require the bits after the last entry to be all zero
  // (verification). Only a block decoded to its end is checked.
  bool strict = false;
  // Decode without the codec's fast paths (the card codec: the byte-wise
  // bit reader only). The results are identical; tests run both.
  bool force_plain = false;
  // The blocks of the block's table checked before (verified_blocks.h):
  // when set, the checksum is compared first unless block number `block`
  // is in it already, and the block is added once it matches, so that a
  // reader hashes each block once. (verify_checksum compares it always.)
  const VerifiedBlocks* verified = nullptr;
  uint64_t block = 0;
};

// The checks every decode makes before it reads a block's payload: the
// block_size bytes at ptr lie before limit (else Corruption("truncated
// block")), and the checksum as options ask. REQUIRES:
// IsValidBlockSize(block_size).
Status CheckBlockFrame(const uint8_t* ptr, const uint8_t* limit, size_t block_size, const BlockReadOptions& options);

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_BLOCK_FRAME_H_
