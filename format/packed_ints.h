// Bit-packed arrays of w-bit unsigned integers, 0 <= w <= 64.
//
// Layout: little-endian bit packing. Value i occupies bits
// [i * w, (i + 1) * w) of the array, where bit k is bit (k % 8) of byte
// k / 8 and a value's least significant bit comes first. The array takes
// PackedIntsBytes(count, w) = ceil(count * w / 8) bytes; unused high bits of
// the last byte are zero.
//
// Thread safety: a PackedIntsReader is immutable after Init() and may be
// shared between threads; a PackedIntsWriter is not.
#ifndef SIMDEX_FORMAT_PACKED_INTS_H_
#define SIMDEX_FORMAT_PACKED_INTS_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>

#include "simdex/status.h"

namespace simdex::format {

// Bits needed to store every value in [0, max_value]: 0 for 0, 64 for
// values with the top bit set.
inline int BitWidth(uint64_t max_value) { return 64 - std::countl_zero(max_value); }

// Bytes taken by count values of width bits.
// REQUIRES: count * width does not overflow a size_t.
inline size_t PackedIntsBytes(size_t count, int width) {
  return (count * static_cast<size_t>(width) + 7) / 8;
}

class PackedIntsWriter {
 public:
  // Values are appended to *dst, after its current contents.
  // REQUIRES: 0 <= width <= 64; dst outlives the writer and nobody else
  // modifies it until Finish() has returned.
  PackedIntsWriter(std::string* dst, int width);

  PackedIntsWriter(const PackedIntsWriter&) = delete;
  PackedIntsWriter& operator=(const PackedIntsWriter&) = delete;

  // REQUIRES: value < 2^width.
  void Add(uint64_t value);

  // Appends the last partial byte. The writer must not be used afterwards.
  void Finish();

 private:
  std::string* const dst_;
  const int width_;
  uint32_t pending_ = 0;  // the low pending_bits_ bits are not yet appended
  int pending_bits_ = 0;  // 0..7 between calls
};

class PackedIntsReader {
 public:
  // Validates that [ptr, limit) holds the count values of width bits
  // (Corruption("truncated packed integer array") otherwise) and that
  // width <= 64 (Corruption("bad packed integer width N")).
  // REQUIRES: the bytes stay readable for the reader's lifetime.
  Status Init(const uint8_t* ptr, const uint8_t* limit, size_t count, int width);

  size_t size() const { return count_; }
  int width() const { return width_; }

  // Returns value i. Reads only the array's bytes.
  // REQUIRES: Init() succeeded; i < size().
  uint64_t Get(size_t i) const;
  // Asks the CPU to start loading the line of value i (for a Get() soon
  // after). REQUIRES: Init() succeeded; i < size().
  void Prefetch(size_t i) const;

 private:
  const uint8_t* data_ = nullptr;
  size_t bytes_ = 0;
  size_t count_ = 0;
  int width_ = 0;
  uint64_t mask_ = 0;
};

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_PACKED_INTS_H_
