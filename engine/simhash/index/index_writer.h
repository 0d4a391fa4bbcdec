// IndexWriter: lays out an index file (docs/format.md) from its parts, in
// file order: the header; each table's blocks and head index, table 0
// first; the rank index; the packed ids; the metadata and the footer. Then
// it fsyncs the file and renames it into place (OutputFile).
//
// The index builder and the index merger both write through it, so the
// same entries give the same bytes whichever of them made the file. Its
// tables are written by engine/index/table_writer.h, as MinHash-LSH's are.
//
// Not thread-safe. After an error the file is abandoned: the destructor
// removes the temporary and nothing appears under the output name.
#ifndef SIMDEX_ENGINE_SIMHASH_INDEX_INDEX_WRITER_H_
#define SIMDEX_ENGINE_SIMHASH_INDEX_INDEX_WRITER_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/index/sorted_values.h"
#include "engine/index/table_writer.h"
#include "engine/util/external_sorter.h"
#include "engine/util/output_file.h"
#include "format/packed_ints.h"
#include "format/index_layout.h"
#include "simdex/index.h"

namespace simdex::simhash {

// What the metadata says of the entries as a whole.
struct EntrySummary {
  uint64_t entries = 0;
  uint64_t distinct_fingerprints = 0;
  uint64_t id_base = 0;  // the smallest id (0 without entries)
  uint8_t id_width = 0;  // bits per packed id

  // id_base and id_width for the entries' ids: the ranks of `strings`
  // string ids, or numbers from min_id to max_id.
  void SetIds(bool string_ids, uint64_t strings, uint64_t min_id, uint64_t max_id) {
    id_base = string_ids || entries == 0 ? 0 : min_id;
    const uint64_t widest = string_ids ? (strings > 0 ? strings - 1 : 0) : entries ? max_id - min_id : 0;
    id_width = static_cast<uint8_t>(format::BitWidth(widest));
  }
};

// Table 0 as the builder and the merger produce it, entry by entry in
// (fingerprint, id) order: its values (index::SortedValues: in memory when
// 8 bytes each fit memory_bytes, else a mapped scratch file), the number of
// distinct ones, and the ids packed in its order into a scratch file. With
// string ids (sort_runs) the ids of one fingerprint are packed sorted by
// their numbers, which are known only as the entries come.
class Table0Writer {
 public:
  static Status Create(uint64_t entries, size_t memory_bytes, const std::string& dir, uint8_t id_width,
                       bool sort_runs, std::unique_ptr<Table0Writer>* out);

  // An entry: its fingerprint and its id's packed value.
  Status Add(uint64_t fingerprint, uint64_t id);
  // Ends the entries; values() and ids() are valid after.
  Status Finish();

  uint64_t entries() const { return entries_; }
  uint64_t distinct() const { return distinct_; }
  std::span<const uint64_t> values() const { return values_->values(); }
  void ReleaseValues() { values_.reset(); }
  std::string_view ids() const { return ids_map_->bytes(); }

 private:
  Table0Writer(uint8_t id_width, bool sort_runs) : packed_(&ids_buf_, id_width), sort_runs_(sort_runs) {}
  void FlushRun();

  std::unique_ptr<index::SortedValues> values_;
  std::unique_ptr<util::OutputFile> ids_file_;
  std::unique_ptr<util::MappedValues> ids_map_;
  std::string ids_buf_;
  format::PackedIntsWriter packed_;
  bool sort_runs_;
  std::vector<uint64_t> run_;  // the ids of the current fingerprint (sort_runs)
  uint64_t entries_ = 0, distinct_ = 0, last_ = 0;
};

// Adds perm(v) of every value to *sorter, a batch at a time: table t's
// values from the fingerprints (table 0's, inverted).
Status AddPermuted(std::span<const uint64_t> values, const BlockPermutation& perm,
                   util::ExternalSorter<uint64_t>* sorter);

class IndexWriter {
 public:
  // Creates the temporary output for `path` and writes the header. The
  // scheme, block size and restart points come from `options`.
  static Status Create(const std::string& path, const BuildOptions& options, std::unique_ptr<IndexWriter>* out);

  // Encodes table t from its sorted permuted values and appends its blocks
  // and head index. REQUIRES: tables are added in order 0, 1, ...
  Status AddTable(int t, std::span<const uint64_t> sorted);
  // Appends table t encoded elsewhere: `enc` and its blocks, in order.
  Status AddEncodedTable(int t, const index::EncodedTable& enc, std::string_view blocks);

  // Appends the rank index, the packed ids (packed with summary.id_base and
  // id_width, in table 0's order), the id map section (format/id_map.h;
  // empty when the ids are numbers), the metadata and the footer; fsyncs
  // and renames. REQUIRES: every table was added.
  Status Finish(const EntrySummary& summary, std::string_view packed_ids, std::string_view id_map = {});

  uint64_t file_bytes() const { return file_bytes_; }

 private:
  IndexWriter(const BuildOptions& options, std::unique_ptr<util::OutputFile> out);
  // Appends table t's head index and records its metadata.
  Status AddHeads(int t, const index::EncodedTable& enc, uint64_t blocks_offset);
  // Keeps table t's fields (with its leading blocks) and table 0's ranks.
  void Record(int t, format::TableMetadata tm, const index::EncodedTable& enc);

  Scheme scheme_;               // its tables' leading blocks go to the metadata
  index::TableOptions tables_;  // the build's codec, block size and restart points
  std::unique_ptr<util::OutputFile> out_;
  format::IndexMetadata meta_;
  std::vector<uint64_t> ranks0_;  // table 0's rank index
  uint64_t file_bytes_ = 0;
};

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_INDEX_INDEX_WRITER_H_
