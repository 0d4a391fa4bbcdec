// The state of an open index shared by index_reader.cc (Open, Info),
// index_search.cc (Search) and index_verify.cc (Verify).
#ifndef SIMDEX_ENGINE_INDEX_READER_REP_H_
#define SIMDEX_ENGINE_INDEX_READER_REP_H_

#include <memory>
#include <vector>

#include "format/block_reader.h"
#include "format/head_search.h"
#include "format/id_map.h"
#include "format/index_layout.h"
#include "format/packed_ints.h"
#include "simdex/index.h"

namespace simdex {

struct IndexReader::Rep {
  struct Table {
    const BlockPermutation* permutation = nullptr;
    const uint8_t* blocks = nullptr;  // num_blocks * block_size bytes
    const uint8_t* heads = nullptr;   // num_blocks little-endian u64
    uint64_t num_blocks = 0;
    format::HeadSample head_sample;  // every 8th head, in memory
    // One of `decoders`: tables whose code lengths are equal share one, so
    // that a query's decode tables stay in the L1 cache together (uniform
    // data gives all tables the same code).
    const format::BlockDecoder* decoder = nullptr;
  };

  std::unique_ptr<RandomAccessFile> file;
  ReaderOptions options;
  format::IndexMetadata meta;
  uint32_t format_version = 0;
  Scheme scheme;
  std::vector<Table> tables;
  std::vector<std::unique_ptr<format::BlockDecoder>> decoders;  // distinct codes, and an empty one for no codes
  const uint8_t* ranks = nullptr;  // table 0's num_blocks little-endian u64
  format::PackedIntsReader ids;
  bool has_id_map = false;  // string ids: an entry's id is a number into id_map
  format::IdMapReader id_map;

  const uint8_t* file_begin = nullptr;  // file->data(), ...
  const uint8_t* file_end = nullptr;    // ... + file->size(): kept so that a query makes no virtual calls

  const uint8_t* begin() const { return file_begin; }
  const uint8_t* end() const { return file_end; }
  const uint8_t* Block(const Table& t, uint64_t b) const { return t.blocks + b * meta.block_size; }
  // The id of the entry at `rank` in table 0. REQUIRES: rank < meta.entries.
  uint64_t IdAtRank(uint64_t rank) const { return meta.id_base + ids.Get(rank); }
};

}  // namespace simdex

#endif  // SIMDEX_ENGINE_INDEX_READER_REP_H_
