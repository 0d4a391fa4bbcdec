// Writes the block layout drawn in ef_format.h.
#include "format/ef/ef_block_builder.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include "format/bit_writer.h"
#include "format/coding.h"

namespace simdex::format {

int EfBestLowWidth(size_t block_size, uint32_t count, uint64_t last, int guess) {
  // Every term of EfStreamBits is convex in L ((c - 1) * L is linear;
  // last >> L and (last >> L) / S = last >> (L + 8) fall by ceil(x / 2) of
  // their value x at each step, and those decrements shrink), so their sum
  // is: walk up while it falls, then down while it does not rise, which
  // ends at the smallest minimum. The walk starts where EfStreamBits does
  // not saturate (below, it is flat).
  auto bits = [&](int l) { return EfStreamBits(block_size, count, last, l); };
  int l = std::clamp(std::max(guess, static_cast<int>(std::bit_width(last)) - 39), 0, kEfMaxLowWidth);
  while (l < kEfMaxLowWidth && bits(l + 1) < bits(l)) ++l;
  while (l > 0 && bits(l - 1) <= bits(l)) --l;
  return l;
}

EfBlockBuilder::EfBlockBuilder(size_t block_size)
    : block_size_(block_size), capacity_bits_((block_size - kBlockHeaderSize) * 8) {
  assert(IsValidBlockSize(block_size));
  block_.reserve(block_size);
}

void EfBlockBuilder::Start(uint64_t head) {
  head_ = head;
  deltas_.clear();
  // low_width_ stays: the last block's L is the best guess for the next.
}

uint64_t EfBlockBuilder::stream_bits() const { return EfStreamBits(block_size_, count(), last(), low_width_); }

bool EfBlockBuilder::Add(uint64_t value) {
  assert(value >= head_ + last());
  if (count() == kMaxBlockEntries) return false;
  const uint64_t d = value - head_;
  const uint32_t count_after = count() + 1;
  const int l = EfBestLowWidth(block_size_, count_after, d, low_width_);
  if (EfStreamBits(block_size_, count_after, d, l) > capacity_bits_) return false;
  low_width_ = l;
  deltas_.push_back(d);
  return true;
}

std::string_view EfBlockBuilder::Finish(uint64_t seed) {
  if (deltas_.empty()) low_width_ = 0;  // any L would do: the smallest
  const int l = low_width_;
  const int w = EfFieldBits(block_size_);
  const uint32_t zeros = static_cast<uint32_t>(last() >> l);
  block_.assign(kBlockHeaderSize, '\0');
  BitWriter writer(&block_);
  writer.Write(static_cast<uint64_t>(l), kEfLowWidthBits);
  writer.Write(zeros, w);
  // Sample j: bucket j * S starts after j * S zeros and the ones of the
  // values in lower buckets.
  size_t below = 0;
  for (uint64_t target = kEfSampleSpacing; target <= zeros; target += kEfSampleSpacing) {
    while (below < deltas_.size() && (deltas_[below] >> l) < target) ++below;
    writer.Write(target + below, w);
  }
  // The upper bits: each value's step in bucket as zeros, then its one.
  uint64_t bucket = 0;
  for (uint64_t d : deltas_) {
    uint64_t step = (d >> l) - bucket;
    bucket = d >> l;
    for (; step >= 64; step -= 64) writer.Write(0, 64);
    writer.Write(1, static_cast<int>(step) + 1);
  }
  const uint64_t low_mask = l == 0 ? 0 : (uint64_t{1} << l) - 1;
  for (uint64_t d : deltas_) writer.Write(d & low_mask, l);
  writer.Finish();
  assert(block_.size() <= block_size_);
  block_.resize(block_size_, '\0');
  char* data = block_.data();
  EncodeFixed16(data + 4, static_cast<uint16_t>(count()));
  EncodeFixed32(data, BlockChecksum(reinterpret_cast<const uint8_t*>(data), block_size_, seed));
  deltas_.clear();
  return block_;
}

}  // namespace simdex::format
