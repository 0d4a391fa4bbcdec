// Encodes one sorted table into fixed-size blocks (docs/format.md "Tables").
#ifndef SIMDEX_ENGINE_INDEX_TABLE_ENCODER_H_
#define SIMDEX_ENGINE_INDEX_TABLE_ENCODER_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "format/huffman.h"
#include "simdex/status.h"

namespace simdex::index {

struct EncodedTable {
  format::HuffmanCodeLengths code_lengths;
  std::vector<uint64_t> heads;   // one per block
  std::vector<uint64_t> ranks;   // values before each block (the rank index)
  uint64_t payload_bits = 0;     // bit stream bits over all blocks
};

// Encodes the sorted permuted values of table `table`: builds the table's
// Huffman code from its n frequencies, cuts the values into blocks of
// block_size bytes (with `restarts` restart points each) and passes each finished block to `sink` in order.
// REQUIRES: values sorted ascending; block_size valid (format/block_format.h).
Status EncodeTable(std::span<const uint64_t> values, uint32_t block_size, int restarts, uint32_t table,
                   const std::function<Status(std::string_view block)>& sink, EncodedTable* out);

// The seed of block `block` of table `table` for its checksum.
inline uint64_t BlockSeed(uint32_t table, uint64_t block) { return (uint64_t{table} << 32) | block; }

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_TABLE_ENCODER_H_
