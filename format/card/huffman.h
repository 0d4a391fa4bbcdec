// Canonical, length-limited Huffman codes over a small alphabet.
//
// The index codes one symbol per entry: n, the number of leading bits an
// entry shares with its predecessor, 0..64 (block_builder.h). Each table has
// its own code, built from that table's n frequencies and stored as the 65
// code lengths (HuffmanCodeLengths, 33 bytes). Codes are canonical, as in
// DEFLATE and zstd: the lengths alone define them. Within the code space,
// shorter codes come first; codes of equal length are assigned in increasing
// symbol order. Codes are written MSB-first (bit_writer.h).
//
// Thread safety: the tables are immutable after construction/Init() and may
// be shared between threads.
#ifndef SIMDEX_FORMAT_CARD_HUFFMAN_H_
#define SIMDEX_FORMAT_CARD_HUFFMAN_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "simdex/status.h"

namespace simdex::format {

// Size of the alphabet: the symbols are 0..64.
inline constexpr int kHuffmanSymbols = 65;
// Longest code: a decoder resolves every code with one 11-bit peek into a
// 2048-entry table.
inline constexpr int kMaxCodeLength = 11;

// Computes optimal length-limited code lengths (package-merge): over all
// prefix codes whose lengths are at most max_len, the lengths minimise
// sum(freqs[s] * lengths[s]). Symbols with frequency 0 get length 0. When
// exactly one symbol is used it gets length 1 (a code must spend at least a
// bit); when none is, every length is 0.
// REQUIRES: nsym >= 0; 1 <= max_len <= 32; 2^max_len >= number of used
// symbols; the frequencies sum to less than 2^58; lengths has nsym slots.
void BuildCodeLengths(const uint64_t* freqs, int nsym, int max_len, uint8_t* lengths);

// The code lengths of the 65 symbols: the stored form of a table's code.
// Encoded as 65 4-bit nibbles, high nibble first, the 66th nibble zero.
struct HuffmanCodeLengths {
  static constexpr size_t kEncodedLength = (kHuffmanSymbols + 1) / 2;

  // Optimal lengths for these symbol frequencies (BuildCodeLengths with
  // kMaxCodeLength). REQUIRES: freqs has kHuffmanSymbols entries summing to
  // less than 2^58.
  static HuffmanCodeLengths FromFrequencies(const uint64_t* freqs);

  // Appends kEncodedLength bytes to dst.
  void EncodeTo(std::string* dst) const;

  // Parses kEncodedLength bytes at ptr. Returns Corruption when fewer are
  // available before limit, when a length exceeds kMaxCodeLength or when the
  // padding nibble is not zero. It does not check that the lengths form a
  // code: HuffmanDecoder::Init() does.
  Status DecodeFrom(const uint8_t* ptr, const uint8_t* limit);

  std::array<uint8_t, kHuffmanSymbols> lengths{};
};

// One symbol's codeword: the low `length` bits of `code`, written MSB-first.
struct HuffmanCode {
  uint16_t code = 0;
  uint8_t length = 0;  // 0: the symbol has no code
};

// Encoder side: the canonical codeword of every symbol.
class HuffmanEncoderTable {
 public:
  // An empty table: no symbol has a code.
  HuffmanEncoderTable() = default;
  // REQUIRES: lengths form a valid code, as HuffmanCodeLengths::FromFrequencies
  // produces (HuffmanDecoder::Init would accept them).
  explicit HuffmanEncoderTable(const HuffmanCodeLengths& lengths);

  // REQUIRES: 0 <= symbol < kHuffmanSymbols.
  const HuffmanCode& operator[](int symbol) const { return codes_[symbol]; }

 private:
  std::array<HuffmanCode, kHuffmanSymbols> codes_{};
};

// Decoder side: a 2^kMaxCodeLength-entry table indexed by the next
// kMaxCodeLength bits of the stream (zero-padded past its end). The entry
// gives the symbol whose code is a prefix of those bits, the code length,
// and the total bits of the symbol's field: the code plus the symbol's
// "extra bits", raw bits that always follow that symbol's code (as the
// extra bits of DEFLATE's length codes). With extra bits a decoder steps
// over a whole field with one lookup.
class HuffmanDecoder {
 public:
  static constexpr int kTableBits = kMaxCodeLength;

  struct Entry {
    uint8_t symbol;
    uint8_t length;      // 0: no code starts with these bits (invalid stream)
    uint8_t total_bits;  // length + the symbol's extra bits
    uint8_t reserved;    // 0; keeps the entry one aligned 32-bit load
  };

  // An uninitialized decoder: every entry is invalid.
  HuffmanDecoder();

  // Builds the table. extra_bits, when not null, holds kHuffmanSymbols
  // counts (each <= 64) of raw bits following each symbol; null means none.
  // Returns Corruption("invalid Huffman code lengths") unless each length is
  // at most kMaxCodeLength and the code is complete (Kraft sum exactly 1),
  // or it is a single symbol of length 1, whose code is the bit 0 (the bit 1
  // then decodes to an invalid entry). On error the decoder is left
  // uninitialized.
  Status Init(const HuffmanCodeLengths& lengths, const uint8_t* extra_bits = nullptr);

  // The entry for the next kTableBits bits of the stream.
  // REQUIRES: bits < 2^kTableBits.
  Entry Lookup(uint32_t bits) const { return table_[bits]; }
  const Entry* table() const { return table_.data(); }

 private:
  std::array<Entry, size_t{1} << kTableBits> table_;
};

}  // namespace simdex::format

#endif  // SIMDEX_FORMAT_CARD_HUFFMAN_H_
