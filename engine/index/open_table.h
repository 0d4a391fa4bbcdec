// A table of an open index file, of either kind: the permuted tables of a
// SimHash index (engine/simhash/index/reader_rep.h) and the band tables of a
// MinHash-LSH index (engine/minhash/index/lsh_rep.h) are tables of the same format:
// blocks of a codec and a head index. What both readers do with them is
// here: placing them in the file, checking head indexes and blocks,
// scanning a key range, decoding a block with every check for Verify.
#ifndef SIMDEX_ENGINE_INDEX_OPEN_TABLE_H_
#define SIMDEX_ENGINE_INDEX_OPEN_TABLE_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/index/file_sections.h"
#include "format/codec.h"
#include "format/coding.h"
#include "format/head_search.h"
#include "format/index_layout.h"
#include "format/prefetch.h"
#include "format/verified_blocks.h"

namespace simdex::index {

struct OpenTable {
  const uint8_t* blocks = nullptr;  // num_blocks * block_size bytes
  const uint8_t* heads = nullptr;   // num_blocks little-endian u64
  uint64_t num_blocks = 0;
  format::HeadSample head_sample;  // every 8th head, in memory
  // One of the reader's SharedDecoders: tables whose codec and parameters
  // are equal share one.
  const format::TableDecoder* decoder = nullptr;
  // The blocks whose checksum this reader has checked: every decode passes
  // it in format::BlockReadOptions::verified.
  format::VerifiedBlocks verified;

  uint64_t Head(uint64_t b) const { return format::DecodeFixed64(heads + 8 * b); }

  // The block whose key range may hold lo, given its head-sample window
  // (head_sample.Window(lo)): the last block whose head is below lo, or
  // block 0. REQUIRES: num_blocks > 0.
  uint64_t FirstBlockInWindow(size_t window, uint64_t lo) const {
    const size_t b = format::HeadSample::FinishInWindow(heads, num_blocks, window, lo, nullptr);
    return b == format::kNoHead ? 0 : b;
  }

  // Where lo falls between block b's head and the next block's, as a
  // fraction of the block (values are spread about evenly within a block),
  // for TableDecoder::PrefetchScan. The next head comes from the sample
  // when it starts the next window, so that only the window's own line of
  // the head index is read.
  double FractionInBlock(uint64_t b, uint64_t head, uint64_t lo) const {
    if (lo <= head) return 0;
    if (b + 1 >= num_blocks) return 1;
    uint64_t next;
    if (!head_sample.SampledHead(b + 1, &next)) next = Head(b + 1);
    if (next <= head) return 1;
    return std::min(1.0, static_cast<double>(lo - head) / static_cast<double>(next - head));
  }
};

// The first steps of the head searches of n tables at once: windows[i] =
// the head-sample window of los[i] in table_of(i) (kNoHead when none, or
// the table has no blocks), the head index's line of it asked for. Each
// step asks for what the next reads, for every table before any waits:
// the samples' directory lines, their sampled heads, the windows' lines.
// Then FirstBlockInWindow(windows[i], los[i]) finds those lines on the way.
template <class TableOf>
void FindWindows(size_t n, const TableOf& table_of, const uint64_t* los, size_t* windows) {
  for (size_t i = 0; i < n; ++i) table_of(i).head_sample.PrefetchBucket(los[i]);
  for (size_t i = 0; i < n; ++i) table_of(i).head_sample.PrefetchSample(los[i]);
  for (size_t i = 0; i < n; ++i) {
    const OpenTable& table = table_of(i);
    const size_t w = table.num_blocks == 0 ? format::kNoHead : table.head_sample.Window(los[i], nullptr);
    windows[i] = w;
    if (w != format::kNoHead) format::PrefetchLine(table.heads + 8 * w);
  }
}

// For each table of `meta`: checks its block count (it fits the data area
// below `area`, it is at most `values`, and it is 0 exactly when values
// is), adds its block data and head index to *sections, and makes its
// decoder. Corruption or NotSupported naming the table.
Status PlaceTables(const std::vector<format::TableMetadata>& meta, uint32_t block_size, int restarts, uint64_t values,
                   uint64_t area, SharedDecoders* decoders, std::vector<OpenTable>* tables,
                   std::vector<Section>* sections);

// Points the tables at their bytes in the file at `base` (after
// CheckPlacement).
void AttachTables(const uint8_t* base, const std::vector<format::TableMetadata>& meta, std::vector<OpenTable>* tables);

// Samples the heads and makes the verified-block sets (after the head
// indexes were checked, when the reader checks them at open).
void SampleTables(std::vector<OpenTable>* tables);

// Block b of table t against its checksum, unless this reader checked it
// before; Corruption naming the block, table and byte offset.
Status CheckTableBlock(const OpenTable& table, const format::TableMetadata& meta, uint32_t block_size, size_t t,
                       uint64_t b);

// "block <b> of table <t>", the context of a scan's error.
std::string BlockOfTable(uint64_t b, size_t t);

// The scan of block b of table t for the values in [lo, hi], appending
// them to *out, from the block's last restart point until a guess is set.
inline format::BlockScan TableBlockScan(const OpenTable& table, uint32_t t, uint64_t b, uint64_t head, uint64_t lo,
                                        uint64_t hi, uint32_t block_size, int restarts, const uint8_t* file_end,
                                        std::vector<uint64_t>* out) {
  format::BlockScan s;
  s.ptr = table.blocks + b * block_size;
  s.limit = file_end;
  s.head = head;
  s.decoder = table.decoder;
  s.lo = lo;
  s.hi = hi;
  s.seed = format::BlockSeed(t, b);
  s.verified = &table.verified;
  s.block = b;
  s.restart_guess = restarts;
  s.out = out;
  return s;
}

// Verify's decode of block b of table t: its checksum and every rule of its
// codec (strict), and its head not below `prev`, the last value of the
// block before (ignored for block 0). *values = the block's values, head
// first. Corruption naming the table, block and byte offset.
Status DecodeBlockStrictly(const OpenTable& table, const format::TableMetadata& meta, uint32_t block_size, size_t t,
                           uint64_t b, uint64_t prev, const uint8_t* file_end, std::vector<uint64_t>* values);

// "table <t> block <b> (byte offset <o>)", for errors found in a block.
std::string TableBlockPlace(size_t t, uint64_t b, const format::TableMetadata& meta, uint32_t block_size);

// The sections of the tables, for VerifyZeroGaps.
void AppendTableSections(const std::vector<format::TableMetadata>& meta, uint32_t block_size,
                         std::vector<std::pair<uint64_t, uint64_t>>* used);

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_OPEN_TABLE_H_
