// The Elias-Fano codec's block layout (format/codec.h, tag 1, name "ef"):
// its constants, and the geometry that its encoder (ef_block_builder.h) and
// decoder (ef_block_reader.h) share. docs/format.md, "The ef codec's
// payload", is the specification.
//
// A block of count values v_0 (the head, kept in the head index) .. v_{c-1}
// stores each value after the head by its distance from the head,
// d_i = v_i - head, split at a low-bit width L chosen per block: the high
// part h_i = d_i >> L in unary (the "upper bits", a bit vector with a 1 for
// each value and a 0 for each step of h), the low part d_i mod 2^L in L
// plain bits (the "lower bits"). Values whose high part is h ("bucket h")
// start in the upper bits just after its h-th zero, so that a search for lo
// finds lo's bucket by counting zeros (from a select sample every
// kSampleSpacing zeros) instead of decoding the values before it.
//
//   +----------+---------+---+---+-----------+-------------+-------------+---------+
//   | checksum |  count  | L | Z | samples   | upper bits  | lower bits  | 0 bits  |
//   | u32 LE   | u16 LE  | 6 | w | M x w     | c - 1 + Z   | (c - 1) x L | padding |
//   |          |         |<----------------- MSB-first bit stream -------------->|  |
//   +----------+---------+---+---+-----------+-------------+-------------+---------+
//   0          4         6                                                         B
//
//   w        FieldBits(B) = log2(B) + 3: holds any bit position in the block.
//   L        the low-bit width, 0..63.
//   Z        the last value's bucket h_{c-1} (0 when c = 1): the number of
//            zeros in the upper bits.
//   samples  M = floor(Z / kSampleSpacing) fields: sample j (1..M) is the
//            position in the upper bits just after their (j * S)-th zero,
//            where bucket j * S starts.
//   upper    bit h_i + i - 1 is 1 for each i = 1..c-1, every other bit 0.
//   lower    d_i mod 2^L for i = 1..c-1, L bits each.
#ifndef SIMDEX_FORMAT_EF_EF_FORMAT_H_
#define SIMDEX_FORMAT_EF_EF_FORMAT_H_

#include <bit>
#include <cstddef>
#include <cstdint>

#include "format/block_frame.h"

namespace simdex::format {

// Bits of the low-bit width field.
inline constexpr int kEfLowWidthBits = 6;
inline constexpr int kEfMaxLowWidth = 63;
// Zeros of the upper bits between two select samples.
inline constexpr uint32_t kEfSampleSpacing = 256;

// Bits of the Z field and of each sample: enough for any bit position in a
// block of block_size bytes.
inline constexpr int EfFieldBits(size_t block_size) { return std::countr_zero(block_size) + 3; }

// Where everything lies in one block: bit positions from the start of the
// block (the stream starts at bit kStreamStart).
struct EfLayout {
  static constexpr size_t kStreamStart = kBlockHeaderSize * 8;

  uint32_t count = 0;   // values, the head included
  int low_width = 0;    // L
  uint32_t zeros = 0;   // Z
  uint32_t samples = 0; // M
  size_t samples_start = 0;
  size_t upper_start = 0;
  size_t upper_bits = 0;  // count - 1 + Z
  size_t lower_start = 0;
  size_t end = 0;  // the first padding bit

  // The layout of a block with these fields. Sizes are computed in 64 bits
  // and may pass the block (the caller compares end with its size).
  static EfLayout For(size_t block_size, uint32_t count, int low_width, uint32_t zeros) {
    EfLayout l;
    const int w = EfFieldBits(block_size);
    l.count = count;
    l.low_width = low_width;
    l.zeros = zeros;
    l.samples = zeros / kEfSampleSpacing;
    l.samples_start = kStreamStart + kEfLowWidthBits + w;
    l.upper_start = l.samples_start + size_t{l.samples} * w;
    l.upper_bits = size_t{count} - 1 + zeros;
    l.lower_start = l.upper_start + l.upper_bits;
    l.end = l.lower_start + (size_t{count} - 1) * static_cast<size_t>(low_width);
    return l;
  }
};

// The ef codec's parameters in the metadata (kEncodedLength bytes): the
// shape of the table's usual block, from which a reader can guess where a
// block keeps a value before reading it. Decoding does not depend on it.
struct EfTableShape {
  static constexpr size_t kEncodedLength = 2;

  uint8_t low_width = 0;  // the L that most of the table's blocks have (0..63)
  // The zeros of those blocks' upper bits per value after a head, times 64,
  // rounded (at most 255).
  uint8_t zeros_per_value64 = 64;
};

// Stream bits of a block of `count` values whose last one lies `last` above
// the head, at low-bit width L; saturates at 2^62 (far past any block).
// REQUIRES: count >= 1; 0 <= L <= 63.
inline uint64_t EfStreamBits(size_t block_size, uint32_t count, uint64_t last, int low_width) {
  const uint64_t zeros = last >> low_width;
  if (zeros >= (uint64_t{1} << 40)) return uint64_t{1} << 62;
  const uint64_t w = static_cast<uint64_t>(EfFieldBits(block_size));
  return kEfLowWidthBits + w + zeros / kEfSampleSpacing * w + (count - 1) + zeros +
         uint64_t{count - 1} * static_cast<uint64_t>(low_width);
}

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_EF_EF_FORMAT_H_
