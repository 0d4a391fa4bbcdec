// BlockBuilder: encodes one block of a sorted table with the card codec
// (format/codec.h; the frame's first six bytes are block_frame.h's).
//
// Block layout (B = block_size bytes, a power of two in 64..65536):
//
//   +----------+---------+---------------+-------------------------+---------+
//   | checksum |  count  | restart       | entry 1 | ... | count-1 | 0 bits  |
//   | u32 LE   | u16 LE  | offsets (R x w)|                        | padding |
//   |          |         |<------ MSB-first bit stream ----------->|         |
//   +----------+---------+---------------+-------------------------+---------+
//   0          4         6                                                  B
//
//   checksum  low 32 bits of XXH3_64bits_withSeed(bytes [4, B), seed); the
//             engine's seed names the table and block, so that a block
//             read from the wrong place fails its checksum.
//   count     number of values in the block including the head, 1..65535.
//   entry i   value v_i after its predecessor p = v_{i-1}, as h(n) + suffix:
//               n      = leading bits v shares with p (countl_zero(p ^ v),
//                        64 when v == p), coded with the table's canonical
//                        Huffman code (huffman.h);
//               suffix = when n < 64, the 63 - n bits of v after its first
//                        differing bit (that bit is 1 in v, 0 in p: implied).
//   restart   R = restarts per block (0..15, an index-wide setting). When
//             count > R, entry i_r = floor(r * count / (R + 1)) (r = 1..R)
//             is coded against the head instead: n = leading bits v shares
//             with the head, in 7 raw bits, then the same suffix; the r-th
//             w-bit field of the offset table (w = log2(B) + 3) holds the
//             stream bit where that entry starts. When count <= R the
//             fields are zero and no entry is special.
//
// The head v_0 is not in the block: it is stored in the table's head index
// and passed to the decoder. A block is full when the offset table and the
// entries, restart points placed for the new count, would not fit in the
// (B - 6) * 8 stream bits, or the count would pass 65535; the next block
// then starts with that value as its head.
//
// Thread safety: a BlockBuilder is not safe for concurrent use.
#ifndef SIMDEX_FORMAT_CARD_BLOCK_BUILDER_H_
#define SIMDEX_FORMAT_CARD_BLOCK_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "format/bit_writer.h"
#include "format/card/card_format.h"
#include "format/card/huffman.h"

namespace simdex::format {

class BlockBuilder {
 public:
  // REQUIRES: IsValidBlockSize(block_size); IsValidRestarts(restarts); code
  // outlives the builder and has a codeword for every symbol that Add()
  // will meet (build it from CountPrefixSymbols over the same values).
  BlockBuilder(size_t block_size, const HuffmanEncoderTable& code, int restarts = 0);

  BlockBuilder(const BlockBuilder&) = delete;
  BlockBuilder& operator=(const BlockBuilder&) = delete;

  // Begins a new block whose head is `head`, discarding any unfinished one.
  void Start(uint64_t head);

  // Appends value as the next entry and returns true, or returns false and
  // changes nothing when the block is full (the caller then calls Finish()
  // and Start(value)).
  // REQUIRES: Start() was called since the last Finish(); value >= the last
  // value added (or the head).
  bool Add(uint64_t value);

  // Returns the finished block: block_size bytes, valid until the next call
  // of Start(). REQUIRES: Start() was called since the last Finish().
  std::string_view Finish(uint64_t seed);

  // Values in the current block, including the head.
  uint32_t count() const { return count_; }
  size_t block_size() const { return block_size_; }
  // Stream bits the current block uses: the offset table and the entries.
  size_t stream_bits() const { return BitsFor(count_, normal_sum_); }

  // Adds to freqs[n] (65 counters) the symbol n of every consecutive pair
  // of values[0..num), the frequencies from which a table's code is built.
  // Pairs that straddle two blocks are counted too; this costs a few bits of
  // code optimality at most and keeps the count independent of the cuts.
  // REQUIRES: values is sorted ascending.
  static void CountPrefixSymbols(const uint64_t* values, size_t num, uint64_t* freqs);

 private:
  // Stream bits of the block if it held count values (head included) whose
  // entries cost normal_bits_[i] each, restart points costing
  // restart_bits_[i] instead. REQUIRES: count <= count_ + 1.
  size_t BitsFor(uint32_t count, size_t entry_bits) const;
  // True when entry i of the current block (count_ values) is a restart point.
  bool IsRestart(uint32_t i) const;

  const size_t block_size_;
  const size_t stream_capacity_bits_;
  const int restarts_;
  const HuffmanEncoderTable& code_;
  std::string block_;
  BitWriter writer_;
  uint64_t head_ = 0;
  uint32_t count_ = 0;
  std::vector<uint64_t> values_;       // values_[i]: entry i (values_[0] is the head)
  std::vector<uint8_t> normal_bits_;   // bits of entry i coded after its predecessor
  std::vector<uint8_t> restart_bits_;  // bits of entry i coded as a restart point
  size_t normal_sum_ = 0;              // sum of normal_bits_
  uint8_t max_restart_bits_ = 0;       // the largest of restart_bits_
};

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_CARD_BLOCK_BUILDER_H_
