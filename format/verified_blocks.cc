#include "format/verified_blocks.h"

#include "format/block_frame.h"

namespace simdex::format {

VerifiedBlocks::VerifiedBlocks(uint64_t num_blocks)
    : words_(new std::atomic<uint64_t>[(num_blocks + 63) / 64]()), size_(num_blocks) {}

Status VerifiedBlocks::CheckNow(const uint8_t* ptr, size_t block_size, uint64_t seed, uint64_t b) const {
  SIMDEX_RETURN_IF_ERROR(VerifyBlockChecksum(ptr, block_size, seed));
  words_[b >> 6].fetch_or(uint64_t{1} << (b & 63), std::memory_order_relaxed);
  return Status::OK();
}

}  // namespace simdex::format
