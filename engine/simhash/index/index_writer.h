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

#include "engine/index/table_writer.h"
#include "engine/util/output_file.h"
#include "format/index_layout.h"
#include "simdex/index.h"

namespace simdex::simhash {

// What the metadata says of the entries as a whole.
struct EntrySummary {
  uint64_t entries = 0;
  uint64_t distinct_fingerprints = 0;
  uint64_t id_base = 0;  // the smallest id (0 without entries)
  uint8_t id_width = 0;  // bits per packed id
};

// The table options of a SimHash build: its codec, block size and restart
// points.
index::TableOptions TableOptionsOf(const BuildOptions& options);

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
