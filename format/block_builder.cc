// Writes the block layout drawn in block_builder.h.
#include "format/block_builder.h"

#include <xxhash.h>

#include <cassert>

#include "format/coding.h"

namespace simdex::format {

uint32_t BlockChecksum(const uint8_t* block, size_t block_size, uint64_t seed) {
  assert(block_size >= kBlockHeaderSize);
  return static_cast<uint32_t>(XXH3_64bits_withSeed(block + 4, block_size - 4, seed));
}

BlockBuilder::BlockBuilder(size_t block_size, const HuffmanEncoderTable& code)
    : block_size_(block_size),
      stream_capacity_bits_((block_size - kBlockHeaderSize) * 8),
      code_(code),
      writer_(&block_) {
  assert(IsValidBlockSize(block_size));
  block_.reserve(block_size);
}

void BlockBuilder::Start(uint64_t head) {
  writer_.Finish();  // drops any unfinished state of the writer
  block_.assign(kBlockHeaderSize, '\0');
  last_ = head;
  count_ = 1;
}

bool BlockBuilder::Add(uint64_t value) {
  assert(count_ >= 1);
  assert(value >= last_);
  const int n = PrefixSymbol(last_, value);
  const HuffmanCode& hc = code_[n];
  assert(hc.length > 0);
  const int suffix_bits = SuffixBits(n);
  const size_t bits = size_t{hc.length} + suffix_bits;
  if (count_ == kMaxBlockEntries || writer_.bit_position() + bits > stream_capacity_bits_) return false;
  // The suffix is v's low bits; its leading bit is the implied 1.
  const uint64_t suffix = suffix_bits == 0 ? 0 : value & ((uint64_t{1} << suffix_bits) - 1);
  if (bits <= 64) {
    writer_.Write((uint64_t{hc.code} << suffix_bits) | suffix, static_cast<int>(bits));
  } else {
    writer_.Write(hc.code, hc.length);
    writer_.Write(suffix, suffix_bits);
  }
  last_ = value;
  ++count_;
  return true;
}

std::string_view BlockBuilder::Finish(uint64_t seed) {
  assert(count_ >= 1);
  writer_.Finish();
  assert(block_.size() <= block_size_);
  block_.resize(block_size_, '\0');
  char* data = block_.data();
  EncodeFixed16(data + 4, static_cast<uint16_t>(count_));
  EncodeFixed32(data, BlockChecksum(reinterpret_cast<const uint8_t*>(data), block_size_, seed));
  count_ = 0;
  return block_;
}

void BlockBuilder::CountPrefixSymbols(const uint64_t* values, size_t num, uint64_t* freqs) {
  for (size_t i = 1; i < num; ++i) {
    assert(values[i - 1] <= values[i]);
    ++freqs[PrefixSymbol(values[i - 1], values[i])];
  }
}

}  // namespace simdex::format
