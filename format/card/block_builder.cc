// Writes the block layout drawn in block_builder.h.
#include "format/card/block_builder.h"

#include <algorithm>
#include <cassert>

#include "format/coding.h"

namespace simdex::format {

BlockBuilder::BlockBuilder(size_t block_size, const HuffmanEncoderTable& code, int restarts)
    : block_size_(block_size),
      stream_capacity_bits_((block_size - kBlockHeaderSize) * 8),
      restarts_(restarts),
      code_(code),
      writer_(&block_) {
  assert(IsValidBlockSize(block_size));
  assert(IsValidRestarts(restarts));
  block_.reserve(block_size);
}

void BlockBuilder::Start(uint64_t head) {
  writer_.Finish();  // drops any unfinished state of the writer
  block_.clear();
  values_.assign(1, head);
  normal_bits_.assign(1, 0);
  restart_bits_.assign(1, 0);
  normal_sum_ = 0;
  max_restart_bits_ = 0;
  head_ = head;
  count_ = 1;
}

bool BlockBuilder::IsRestart(uint32_t i) const {
  if (!HasRestarts(count_, restarts_)) return false;
  // RestartIndex grows with r in steps of at least 1: the r whose index
  // could be i is the one with r * count / (R + 1) just at or above i.
  const uint32_t r = static_cast<uint32_t>((uint64_t{i} * (restarts_ + 1) + count_ - 1) / count_);
  return r >= 1 && r <= static_cast<uint32_t>(restarts_) && RestartIndex(static_cast<int>(r), count_, restarts_) == i;
}

size_t BlockBuilder::BitsFor(uint32_t count, size_t entry_bits) const {
  size_t bits = RestartTableBits(block_size_, restarts_) + entry_bits;
  if (HasRestarts(count, restarts_)) {
    for (int r = 1; r <= restarts_; ++r) {
      const uint32_t i = RestartIndex(r, count, restarts_);
      bits = bits - normal_bits_[i] + restart_bits_[i];
    }
  }
  return bits;
}

bool BlockBuilder::Add(uint64_t value) {
  assert(count_ >= 1);
  assert(value >= values_.back());
  if (count_ == kMaxBlockEntries) return false;
  const int n = PrefixSymbol(values_.back(), value);
  assert(code_[n].length > 0);
  const uint8_t normal = static_cast<uint8_t>(code_[n].length + SuffixBits(n));
  const uint8_t restart = static_cast<uint8_t>(kRestartSymbolBits + SuffixBits(PrefixSymbol(head_, value)));
  values_.push_back(value);
  normal_bits_.push_back(normal);
  restart_bits_.push_back(restart);
  // The restart points replace R entries' normal bits by their restart
  // bits, so R times the largest restart cost bounds what they add. While
  // that bound fits, the exact sum (O(R) divisions) is not needed: it is
  // computed only over a block's last few entries, or when asked for
  // (stream_bits()).
  const uint8_t max_restart = std::max(max_restart_bits_, restart);
  const size_t upper = RestartTableBits(block_size_, restarts_) + normal_sum_ + normal +
                       (HasRestarts(count_ + 1, restarts_) ? size_t{max_restart} * restarts_ : 0);
  if (upper > stream_capacity_bits_ && BitsFor(count_ + 1, normal_sum_ + normal) > stream_capacity_bits_) {
    values_.pop_back();
    normal_bits_.pop_back();
    restart_bits_.pop_back();
    return false;
  }
  max_restart_bits_ = max_restart;
  normal_sum_ += normal;
  ++count_;
  return true;
}

std::string_view BlockBuilder::Finish(uint64_t seed) {
  assert(count_ >= 1);
  block_.assign(kBlockHeaderSize, '\0');
  const bool restarts = HasRestarts(count_, restarts_);
  const int offset_bits = RestartOffsetBits(block_size_);
  // The offset table: where each restart entry starts.
  size_t pos = RestartTableBits(block_size_, restarts_);
  uint32_t i = 1;
  for (int r = 1; r <= restarts_; ++r) {
    if (!restarts) {
      writer_.Write(0, offset_bits);
      continue;
    }
    const uint32_t at = RestartIndex(r, count_, restarts_);
    for (; i < at; ++i) pos += IsRestart(i) ? restart_bits_[i] : normal_bits_[i];
    writer_.Write(pos, offset_bits);
  }
  // The entries: restart points against the head, the rest after their
  // predecessor. Each suffix is v's low bits; its leading bit is implied.
  for (i = 1; i < count_; ++i) {
    const uint64_t v = values_[i];
    const bool is_restart = IsRestart(i);
    const int n = PrefixSymbol(is_restart ? head_ : values_[i - 1], v);
    const int suffix_bits = SuffixBits(n);
    const uint64_t suffix = suffix_bits == 0 ? 0 : v & ((uint64_t{1} << suffix_bits) - 1);
    if (is_restart) {
      writer_.Write(static_cast<uint64_t>(n), kRestartSymbolBits);
    } else {
      writer_.Write(code_[n].code, code_[n].length);
    }
    writer_.Write(suffix, suffix_bits);
  }
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
