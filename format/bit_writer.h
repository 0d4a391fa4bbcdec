// BitWriter: appends an MSB-first bit stream to a byte string.
//
// Bit order, shared with BitReader and the block format: the first bit of
// the stream is bit 7 (the most significant) of the first byte, and a
// multi-bit field is written most significant bit first. So writing 0b101
// (3 bits) then 0b1 (1 bit) to an empty stream and finishing gives the byte
// 0b1011'0000.
//
// Thread safety: a BitWriter is not safe for concurrent use.
#ifndef SIMDEX_FORMAT_BIT_WRITER_H_
#define SIMDEX_FORMAT_BIT_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace simdex::format {

class BitWriter {
 public:
  // Bits are appended to *dst, starting after its current contents.
  // REQUIRES: dst outlives the writer and is modified by nobody else until
  // Finish() has returned.
  explicit BitWriter(std::string* dst) : dst_(dst) {}

  BitWriter(const BitWriter&) = delete;
  BitWriter& operator=(const BitWriter&) = delete;

  // Appends the low nbits bits of value, most significant first.
  // REQUIRES: 0 <= nbits <= 64, and value < 2^nbits.
  void Write(uint64_t value, int nbits);

  // Number of bits written since construction (or since the last Finish()).
  size_t bit_position() const { return bits_flushed_ + pending_bits_; }

  // Pads the stream with zero bits up to a byte boundary and appends every
  // pending byte to *dst. The next Write() starts a new byte and
  // bit_position() restarts at 0.
  void Finish();

 private:
  void FlushWord();

  std::string* const dst_;
  uint64_t pending_ = 0;  // pending_bits_ bits, aligned to the top of the word
  int pending_bits_ = 0;  // 0..63 between calls
  size_t bits_flushed_ = 0;
};

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_BIT_WRITER_H_
