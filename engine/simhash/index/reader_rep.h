// The state of an open index shared by index_reader.cc (Open, Info, the
// section checks), index_search.cc (Search), index_verify.cc (Verify) and
// the engine's streams (table_cursor.cc, the merge join, the merger).
//
// What is checked before it is read (docs/format.md): header, footer and
// metadata in Open(); each head index, the rank index and the id map in
// Open() (ReaderOptions::verify_heads_on_open) or else the first time they
// are needed; each block the first time it is decoded (Table::verified);
// and the id section the first time an id is read (CheckIds()). Code that
// reads a section calls its Check first; the checks run once per reader.
#ifndef SIMDEX_ENGINE_SIMHASH_INDEX_READER_REP_H_
#define SIMDEX_ENGINE_SIMHASH_INDEX_READER_REP_H_

#include <atomic>

#include "engine/index/mapped_index.h"
#include "engine/index/once_check.h"
#include "format/index_layout.h"
#include "simdex/index.h"

namespace simdex {

struct IndexReader::Rep : index::MappedTables<format::IndexMetadata> {
  // tables[t] is a table of the scheme: its permutation is scheme.table(t).
  Rep() : MappedTables("entry") {}

  ReaderOptions options;
  Scheme scheme;
  const uint8_t* ranks = nullptr;  // table 0's num_blocks little-endian u64
  index::OnceCheck ranks_checked;
  // Whether the last block scan of a search waited for the disk (under
  // random access and ReaderOptions::ColdReads::kWhenMissing): the next
  // query then asks for its blocks ahead (index_search.cc). A hint, shared
  // by the threads: it changes speed, never answers.
  mutable std::atomic<bool> last_scan_cold{true};

  const uint8_t* Block(const Table& t, uint64_t b) const { return t.blocks + b * meta.block_size; }

  // Verifies the rank index, once.
  Status CheckRanks() const;
  // Verifies, once each, what reading ids needs: the rank index, the id
  // section (its checksum and the id base rule) and the id map.
  Status CheckIds() const;
  // The rank index's check itself, run each time (Verify() runs it).
  Status VerifyRanks() const;
};

}  // namespace simdex

#endif  // SIMDEX_ENGINE_SIMHASH_INDEX_READER_REP_H_
