// Little-endian bit packing (packed_ints.h states the layout).
#include "format/packed_ints.h"

#include <cassert>

#include "format/coding.h"
#include "format/prefetch.h"

namespace simdex::format {

PackedIntsWriter::PackedIntsWriter(std::string* dst, int width) : dst_(dst), width_(width) {
  assert(width >= 0 && width <= 64);
}

void PackedIntsWriter::Add(uint64_t value) {
  assert(width_ == 64 || (value >> width_) == 0);
  // Byte at a time: writing is not on any hot path.
  for (int left = width_; left > 0;) {
    const int take = left < 8 - pending_bits_ ? left : 8 - pending_bits_;
    pending_ |= (value & ((uint64_t{1} << take) - 1)) << pending_bits_;
    pending_bits_ += take;
    value >>= take;
    left -= take;
    if (pending_bits_ == 8) {
      dst_->push_back(static_cast<char>(pending_));
      pending_ = 0;
      pending_bits_ = 0;
    }
  }
}

void PackedIntsWriter::Finish() {
  if (pending_bits_ > 0) dst_->push_back(static_cast<char>(pending_));
  pending_ = 0;
  pending_bits_ = 0;
}

Status PackedIntsReader::Init(const uint8_t* ptr, const uint8_t* limit, size_t count, int width) {
  if (width < 0 || width > 64) return Status::Corruption("bad packed integer width " + std::to_string(width));
  const size_t avail = static_cast<size_t>(limit - ptr);
  if (width > 0 && count > (avail * 8) / static_cast<size_t>(width)) {
    return Status::Corruption("truncated packed integer array");
  }
  data_ = ptr;
  bytes_ = PackedIntsBytes(count, width);
  count_ = count;
  width_ = width;
  mask_ = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  return Status::OK();
}

void PackedIntsReader::Prefetch(size_t i) const {
  assert(i < count_);
  if (width_ != 0) PrefetchLine(data_ + ((i * static_cast<size_t>(width_)) >> 3));
}

uint64_t PackedIntsReader::Get(size_t i) const {
  assert(i < count_);
  if (width_ == 0) return 0;
  const size_t bit = i * static_cast<size_t>(width_);
  const size_t byte = bit >> 3;
  const int shift = static_cast<int>(bit & 7);
  uint64_t v;
  if (byte + 8 <= bytes_) {
    v = DecodeFixed64(data_ + byte) >> shift;
    // A 64-bit value at an odd offset spills into a ninth byte, which
    // exists because the value's last bit lies in it.
    if (shift + width_ > 64) v |= uint64_t{data_[byte + 8]} << (64 - shift);
  } else {
    // Near the end: gather the bytes that hold the value, one at a time.
    const size_t last = (bit + width_ + 7) >> 3;
    v = 0;
    for (size_t b = byte; b < last && b < byte + 8; ++b) v |= uint64_t{data_[b]} << (8 * (b - byte));
    v >>= shift;
    if (last > byte + 8) v |= uint64_t{data_[byte + 8]} << (64 - shift);
  }
  return v & mask_;
}

}  // namespace simdex::format
