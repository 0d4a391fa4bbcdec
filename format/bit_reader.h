// BitReader: reads the MSB-first bit stream written by BitWriter
// (bit_writer.h states the bit order) from a bounded buffer [ptr, limit).
//
// Fast path: while at least 8 bytes remain from the byte holding the current
// bit, a peek is one unaligned big-endian 8-byte load shifted by the bit
// offset, which yields at least 57 valid bits. Near the end a plain path
// assembles the word byte by byte. Neither reads a byte at or past limit.
// force_plain makes every peek take the plain path, so tests can check that
// both give the same bits (zstd's HUF_flags_disableFast habit).
//
// Bits past the end of the buffer peek as zero. Consuming them (Skip/Read)
// is an overflow: overflowed() becomes true and stays true, and the values
// read are unspecified. Decoders read first and check overflowed() once at
// the end, as with zstd's BIT_DStream overflow status.
//
// Thread safety: a BitReader is not safe for concurrent use; distinct
// readers over the same bytes are.
#ifndef SIMDEX_FORMAT_BIT_READER_H_
#define SIMDEX_FORMAT_BIT_READER_H_

#include <cassert>
#include <cstddef>
#include <cstdint>

#include "format/coding.h"

namespace simdex::format {

// Returns the 64 bits that start at bit bitpos of base, left-aligned; the
// low (bitpos % 8) bits are zero, so at least 57 bits are valid.
// REQUIRES: the 8 bytes at base + bitpos / 8 are readable.
inline uint64_t LoadBitsUnchecked(const uint8_t* base, size_t bitpos) {
  return LoadBigEndian64(base + (bitpos >> 3)) << (bitpos & 7);
}

class BitReader {
 public:
  // Largest n accepted by Peek(): what one 8-byte load at any bit offset
  // is guaranteed to hold.
  static constexpr int kMaxPeekBits = 56;

  // REQUIRES: ptr <= limit; the bytes in [ptr, limit) stay readable for the
  // reader's lifetime.
  BitReader(const uint8_t* ptr, const uint8_t* limit, bool force_plain = false)
      : base_(ptr),
        size_bytes_(static_cast<size_t>(limit - ptr)),
        fast_limit_(force_plain || size_bytes_ < 8 ? 0 : size_bytes_ - 8 + 1) {}

  // Returns the next n bits as an integer without consuming them.
  // REQUIRES: 1 <= n <= kMaxPeekBits.
  uint64_t Peek(int n) const {
    assert(n >= 1 && n <= kMaxPeekBits);
    return Window() >> (64 - n);
  }

  // Consumes n bits. REQUIRES: n >= 0.
  void Skip(size_t n) { pos_ += n; }

  // Consumes and returns the next n bits. REQUIRES: 0 <= n <= 64.
  uint64_t Read(int n) {
    assert(n >= 0 && n <= 64);
    if (n == 0) return 0;
    if (n > kMaxPeekBits) {
      const uint64_t high = Read(n - 32);
      return (high << 32) | Read(32);
    }
    const uint64_t v = Peek(n);
    Skip(n);
    return v;
  }

  // Bits consumed since construction.
  size_t bit_position() const { return pos_; }
  size_t size_bits() const { return size_bytes_ * 8; }
  // True once more bits were consumed than the buffer holds. Sticky.
  bool overflowed() const { return pos_ > size_bits(); }

 private:
  // The 64 bits starting at pos_, left-aligned, zero past the end.
  uint64_t Window() const {
    const size_t byte = pos_ >> 3;
    if (byte < fast_limit_) return LoadBitsUnchecked(base_, pos_);
    return PlainWindow(byte);
  }

  uint64_t PlainWindow(size_t byte) const {
    uint64_t w = 0;
    for (size_t i = 0; i < 8; ++i) {
      const size_t at = byte + i;
      w = (w << 8) | (at < size_bytes_ ? base_[at] : 0u);
    }
    return w << (pos_ & 7);
  }

  const uint8_t* const base_;
  const size_t size_bytes_;
  const size_t fast_limit_;  // fast path when pos_ / 8 < fast_limit_
  size_t pos_ = 0;
};

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_BIT_READER_H_
