// Test and benchmark helper: encodes a sorted sequence into blocks the way
// the engine does (count the symbols, build the code, cut blocks) and
// decodes it back.
#ifndef SIMDEX_TESTS_FORMAT_TABLE_UTIL_H_
#define SIMDEX_TESTS_FORMAT_TABLE_UTIL_H_

#include <array>
#include <cstdlib>
#include <cstdint>
#include <string>
#include <vector>

#include "format/card/block_builder.h"
#include "format/card/block_reader.h"
#include "format/card/huffman.h"

namespace simdex::format::testing {

// The seed the engine gives block b of table t.
inline uint64_t BlockSeed(uint64_t table, uint64_t block) { return (table << 32) | block; }

struct EncodedTable {
  size_t block_size = 0;
  uint64_t table = 0;
  HuffmanCodeLengths lengths;
  CardDecoder decoder;
  std::vector<uint64_t> heads;
  std::string blocks;  // heads.size() * block_size bytes

  const uint8_t* block(size_t i) const {
    return reinterpret_cast<const uint8_t*>(blocks.data()) + i * block_size;
  }
  // Total encoded size in bits: blocks plus 64 bits per head.
  double total_bits() const { return 8.0 * blocks.size() + 64.0 * heads.size(); }
};

inline EncodedTable EncodeTable(const std::vector<uint64_t>& sorted, size_t block_size,
                                uint64_t table = 0, int restarts = 0) {
  EncodedTable t;
  t.block_size = block_size;
  t.table = table;
  std::array<uint64_t, kHuffmanSymbols> freqs{};
  BlockBuilder::CountPrefixSymbols(sorted.data(), sorted.size(), freqs.data());
  t.lengths = HuffmanCodeLengths::FromFrequencies(freqs.data());
  if (!t.decoder.Init(t.lengths, restarts).ok() && sorted.size() > 1) std::abort();
  const HuffmanEncoderTable code(t.lengths);
  BlockBuilder builder(block_size, code, restarts);
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (i > 0 && builder.Add(sorted[i])) continue;
    if (i > 0) t.blocks.append(builder.Finish(BlockSeed(table, t.heads.size() - 1)));
    builder.Start(sorted[i]);
    t.heads.push_back(sorted[i]);
  }
  if (!sorted.empty()) t.blocks.append(builder.Finish(BlockSeed(table, t.heads.size() - 1)));
  return t;
}

// Decodes every block with DecodeBlock, checksums and strict checks on.
inline Status DecodeTable(const EncodedTable& t, bool force_plain, std::vector<uint64_t>* out) {
  out->clear();
  std::vector<uint64_t> block_values;
  for (size_t b = 0; b < t.heads.size(); ++b) {
    BlockReadOptions options;
    options.verify_checksum = true;
    options.seed = BlockSeed(t.table, b);
    options.strict = true;
    options.force_plain = force_plain;
    const uint8_t* p = t.block(b);
    SIMDEX_RETURN_IF_ERROR(
        DecodeBlock(p, p + t.block_size, t.block_size, t.heads[b], t.decoder, options, &block_values));
    out->insert(out->end(), block_values.begin(), block_values.end());
  }
  return Status::OK();
}

}  // namespace simdex::format::testing

#endif  // SIMDEX_TESTS_FORMAT_TABLE_UTIL_H_
