#include "format/block_frame.h"

#include <xxhash.h>

#include <cassert>

#include "format/coding.h"

namespace simdex::format {

uint32_t BlockChecksum(const uint8_t* block, size_t block_size, uint64_t seed) {
  assert(block_size >= kBlockHeaderSize);
  return static_cast<uint32_t>(XXH3_64bits_withSeed(block + 4, block_size - 4, seed));
}

Status VerifyBlockChecksum(const uint8_t* ptr, size_t block_size, uint64_t seed) {
  if (DecodeFixed32(ptr) != BlockChecksum(ptr, block_size, seed)) {
    return Status::Corruption("checksum mismatch");
  }
  return Status::OK();
}

Status CheckBlockFrame(const uint8_t* ptr, const uint8_t* limit, size_t block_size, const BlockReadOptions& options) {
  assert(IsValidBlockSize(block_size));
  if (limit < ptr || static_cast<size_t>(limit - ptr) < block_size) {
    return Status::Corruption("truncated block");
  }
  if (options.verify_checksum) return VerifyBlockChecksum(ptr, block_size, options.seed);
  if (options.verified != nullptr) return options.verified->Check(ptr, block_size, options.seed, options.block);
  return Status::OK();
}

}  // namespace simdex::format
