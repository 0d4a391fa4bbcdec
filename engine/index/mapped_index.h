// What a reader of either index kind keeps of its file, and the steps of
// Open() both kinds take alike: the file mapped and its envelope and kind
// checked, the access advice once Open() has read what it reads, reads
// asked for ahead, the id map's checksum, and errors named by the file;
// and, over the metadata of either kind, the tables, the ids and the id map
// with their checks (MappedTables). IndexReader::Rep (reader_rep.h) and
// LshIndexReader::Rep (engine/minhash/index/lsh_rep.h) derive from it.
#ifndef SIMDEX_ENGINE_INDEX_MAPPED_INDEX_H_
#define SIMDEX_ENGINE_INDEX_MAPPED_INDEX_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/query_batch.h"
#include "engine/index/file_sections.h"
#include "engine/index/mapping_advice.h"
#include "engine/index/once_check.h"
#include "engine/index/open_table.h"
#include "format/codec.h"
#include "format/coding.h"
#include "format/id_map.h"
#include "format/index_layout.h"
#include "format/packed_ints.h"
#include "simdex/front_end_text.h"
#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::index {

struct MappedIndex {
  std::unique_ptr<RandomAccessFile> file;
  const uint8_t* file_begin = nullptr;  // file->data(), ...
  const uint8_t* file_end = nullptr;    // ... + file->size(): kept so that a query makes no virtual calls
  std::string path;                     // the file's name, "" for bytes given by the caller
  uint32_t format_version = 0;          // the header's
  // MADV_RANDOM was advised (ReaderOptions::access): page faults read no
  // neighbours, and sequential reads ask for their pages ahead (WillRead).
  bool random_access = false;

  // Takes `f` and checks its envelope (format::OpenEnvelope: header,
  // footer, metadata checksum) and that it is an index of `kind`
  // (WrongIndexKind otherwise); sets format_version.
  Status MapEnvelope(std::unique_ptr<RandomAccessFile> f, format::IndexKind kind, format::Envelope* envelope);
  // For Open(path), after Open()'s own reads (which read-around serves
  // well): records the path and advises the mapping as options.access says.
  void AdviseOpened(const std::string& file_path, const ReaderOptions& options);
  // Asks the kernel for [data, data + size) ahead of a sequential read when
  // page faults do not read ahead by themselves (random_access).
  void WillRead(const uint8_t* data, size_t size) const;
  // OK, or Corruption "<name> (byte offset <offset>): checksum mismatch"
  // when the section [offset, offset + length) does not have `checksum`
  // (read ahead first).
  Status VerifySection(const std::string& name, uint64_t offset, uint64_t length, uint64_t checksum) const;
  // `s` with the file's path in front when it is an error and the reader
  // has a path: every error of a search, stream or merge of the index goes
  // through it, so that a message names the file it is about.
  Status InFile(Status s) const { return s.ok() || path.empty() ? s : s.WithContext(path); }
};

// The tables, ids and id map of an open index whose metadata is a Meta
// (format::IndexMetadata, format::LshMetadata: their id fields are named
// alike), and what both readers do with them. `record` names a record of
// the kind in messages ("entry", "document"). The checks run once each
// (Check*, OnceCheck) or each time (Verify*, for Verify()).
template <typename Meta>
struct MappedTables : MappedIndex {
  using Table = OpenTable;

  explicit MappedTables(const char* record_name) : record(record_name) {}

  const char* record;
  Meta meta;
  std::vector<Table> tables;
  SharedDecoders decoders;  // one per distinct codec and parameters
  format::PackedIntsReader ids;
  bool has_id_map = false;  // string ids: a record's id is a number into id_map
  format::IdMapReader id_map;
  // heads_checked[t] for table t's head index, and the id section and the
  // id map: each check run once (Open() runs those its options ask for).
  std::unique_ptr<OnceCheck[]> heads_checked;
  OnceCheck ids_checked, id_map_checked;

  // The id of the record at `i`. REQUIRES: i < records; the id section checked.
  uint64_t IdAt(uint64_t i) const { return meta.id_base + ids.Get(i); }

  // Open(), placing the sections: Corruption unless the id section holds
  // `records` ids of meta.id_width bits in the `area` before the metadata;
  // then its placement is added to `sections`.
  Status PlaceIds(uint64_t records, uint64_t area, std::vector<Section>* sections) const {
    if (records > area * 8 / std::max<uint64_t>(meta.id_width, 1) ||
        meta.ids_length != format::PackedIntsBytes(records, meta.id_width)) {
      return Status::Corruption("metadata: id section length " + std::to_string(meta.ids_length) +
                                " does not match " + std::to_string(records) + " ids of " +
                                std::to_string(meta.id_width) + " bits");
    }
    sections->push_back({meta.ids_offset, meta.ids_length, "id section"});
    return Status::OK();
  }

  // Open(), once the kind's sections are in `sections`: the id map's
  // added, their placement checked (CheckPlacement, in the data area before
  // `area`), the tables attached, the ids and the id map (whose numbers are
  // the ranks 0..K-1 of its strings, each used) ready to read, and a head
  // check per table.
  Status Attach(uint64_t records, uint64_t area, std::vector<Section> sections) {
    has_id_map = meta.id_map_length > 0;
    if (has_id_map) sections.push_back({meta.id_map_offset, meta.id_map_length, "id map"});
    SIMDEX_RETURN_IF_ERROR(CheckPlacement(std::move(sections), format::FileHeader::kEncodedLength, area));
    AttachTables(file_begin, meta.tables, &tables);
    const uint8_t* section = file_begin + meta.ids_offset;
    SIMDEX_RETURN_IF_ERROR(
        ids.Init(section, section + meta.ids_length, records, meta.id_width).WithContext("id section"));
    if (has_id_map) {
      SIMDEX_RETURN_IF_ERROR(id_map.Init(file_begin + meta.id_map_offset, meta.id_map_length));
      SIMDEX_RETURN_IF_ERROR(CheckIdMapNumbering(id_map.size(), records, meta.id_base, meta.id_width));
    }
    heads_checked = std::make_unique<OnceCheck[]>(meta.tables.size());
    return Status::OK();
  }

  // Table t's head index: OK or Corruption naming it.
  Status VerifyHeads(size_t t) const {
    const format::TableMetadata& tm = meta.tables[t];
    return VerifySection("table " + std::to_string(t) + " head index", tm.heads_offset, tm.num_blocks * 8,
                         tm.heads_checksum);
  }
  // The id section's checksum and the id base rule (docs/format.md: the id
  // base plus the largest packed value is at most 2^64 - 1).
  Status VerifyIdSection() const {
    SIMDEX_RETURN_IF_ERROR(VerifySection("id section", meta.ids_offset, meta.ids_length, meta.ids_checksum));
    return CheckIdBase(ids, meta.id_base, meta.id_width, record);
  }
  // The id map's checksum (OK for an index without one).
  Status VerifyIdMap() const {
    return has_id_map ? VerifySection("id map", meta.id_map_offset, meta.id_map_length, meta.id_map_checksum)
                      : Status::OK();
  }
  Status CheckHeads(size_t t) const {
    return heads_checked[t].Run([&] { return VerifyHeads(t); });
  }
  // Every table's head index, once each.
  Status CheckAllHeads() const {
    for (size_t t = 0; t < tables.size(); ++t) SIMDEX_RETURN_IF_ERROR(CheckHeads(t));
    return Status::OK();
  }
  // Every block of every table against its checksum (Open() with
  // verify_block_checksums).
  Status CheckAllBlocks() const {
    for (size_t t = 0; t < tables.size(); ++t) {
      for (uint64_t b = 0; b < tables[t].num_blocks; ++b) {
        SIMDEX_RETURN_IF_ERROR(CheckTableBlock(tables[t], meta.tables[t], meta.block_size, t, b));
      }
    }
    return Status::OK();
  }
  // The scan of block b of table t (whose head is `head`) for the values
  // in [lo, hi], appending them to *out (TableBlockScan).
  format::BlockScan ScanOf(uint32_t t, uint64_t b, uint64_t head, uint64_t lo, uint64_t hi,
                           std::vector<uint64_t>* out) const {
    return TableBlockScan(tables[t], t, b, head, lo, hi, meta.block_size, meta.restarts, file_end, out);
  }
  // After the scan `s` of a block of table t (format::ScanBlocks): its
  // error, named by block and table; or, while its key range runs on past
  // the block, the blocks after it scanned one at a time into s.out.
  Status FollowScan(format::BlockScan s, uint32_t t, format::BlockScanStats* stats) const {
    const Table& table = tables[t];
    for (uint64_t b = s.block + 1;; ++b) {
      if (!s.status.ok()) return s.status.WithContext(BlockOfTable(s.block, t));
      if (!s.reached_end || b >= table.num_blocks || table.Head(b) > s.hi) return Status::OK();
      s = ScanOf(t, b, table.Head(b), s.lo, s.hi, s.out);
      table.decoder->ScanBlocks(&s, 1, meta.block_size, format::BlockReadOptions(), stats);
    }
  }

  // Verify()'s walk over table t: every block decoded strictly
  // (DecodeBlockStrictly, asked for ahead under random access; its errors
  // InFile), then f(b, values) with block b's values. Stops at the first
  // error.
  template <typename F>
  Status ForEachBlockStrictly(size_t t, std::vector<uint64_t>* values, const F& f) const {
    const Table& table = tables[t];
    uint64_t prev = 0;
    BlockReadAhead ahead(random_access, table.blocks, table.num_blocks, meta.block_size);
    for (uint64_t b = 0; b < table.num_blocks; ++b) {
      ahead.Before(b);
      SIMDEX_RETURN_IF_ERROR(
          InFile(DecodeBlockStrictly(table, meta.tables[t], meta.block_size, t, b, prev, file_end, values)));
      if (!values->empty()) prev = values->back();
      SIMDEX_RETURN_IF_ERROR(f(b, *values));
    }
    return Status::OK();
  }
  // Verify()'s rule that every byte outside the sections is zero: the
  // tables, the ids and the id map, and the kind's own sections `used`.
  Status VerifyZeroGaps(std::vector<std::pair<uint64_t, uint64_t>> used) const {
    AppendTableSections(meta.tables, meta.block_size, &used);
    used.push_back({meta.ids_offset, meta.ids_length});
    if (has_id_map) used.push_back({meta.id_map_offset, meta.id_map_length});
    const uint64_t size = file->size();
    const uint64_t meta_offset = format::DecodeFixed64(file_begin + size - format::Footer::kEncodedLength);  // checked by Open()
    return index::VerifyZeroGaps(file_begin, size, meta_offset, std::move(used));
  }
  Status CheckIdSection() const {
    return ids_checked.Run([&] { return VerifyIdSection(); });
  }
  Status CheckIdMap() const {
    return id_map_checked.Run([&] { return VerifyIdMap(); });
  }

  // The fields of the readers' Info() (IndexInfo, LshIndexInfo) that both
  // kinds fill alike: the block layout, a Table per table with its blocks,
  // bytes, payload bits and codec, the id sections, version, profile, size.
  template <typename Info>
  void DescribeFile(Info* info) const {
    info->block_size = meta.block_size;
    info->restarts = meta.restarts;
    for (const format::TableMetadata& tm : meta.tables) {
      auto& table = info->tables.emplace_back();
      table.blocks = tm.num_blocks;
      table.bytes = tm.num_blocks * (meta.block_size + 8);
      table.payload_bits = tm.payload_bits;
      const format::Codec* codec = format::FindCodec(tm.codec);  // Open() checked the tag
      if (codec != nullptr) table.codec = codec->name();
    }
    info->id_bytes = meta.ids_length;
    info->id_width = meta.id_width;
    info->string_ids = has_id_map;
    info->id_map_strings = IdStringCount();
    info->id_map_bytes = meta.id_map_length;
    info->format_version = format_version;
    info->profile = meta.profile;
    info->total_bytes = file->size();
  }

  // The readers' IdStringCount() and FindIdString().
  uint64_t IdStringCount() const { return has_id_map ? id_map.size() : 0; }
  Status FindIdString(std::string_view id, uint64_t* number) const {
    if (!has_id_map) return Status::InvalidArgument("the index holds numeric ids, not string ids");
    SIMDEX_RETURN_IF_ERROR(InFile(CheckIdMap()));
    if (!id_map.Find(id, number)) {
      return Status::NotFound("no " + std::string(record) + " has the id '" + simdex::Printable(id, 80) + "'");
    }
    return Status::OK();
  }
};

// The batch forms of both kinds' queries: query(i, worker, found, stats)
// answers query i into *found on a worker's thread (base::RunQueryBatch,
// one worker per thread_stats entry); the answers go to *out (lims,
// matches) in query order and the workers' stats are added to *stats. The
// first error names its query and the index's file.
template <class Results, class Stats, class Query>
Status RunQueries(const MappedIndex& index, size_t n, std::vector<Stats> thread_stats, const Query& query,
                  Results* out, Stats* stats) {
  std::vector<decltype(out->matches)> per_query(n);
  size_t failed = 0;
  const Status s = base::RunQueryBatch(
      n, static_cast<int>(thread_stats.size()),
      [&](size_t i, int w) { return query(i, w, &per_query[i], &thread_stats[w]); }, &failed);
  if (!s.ok()) return index.InFile(s.WithContext("query " + std::to_string(failed)));
  out->lims.assign(1, 0);
  out->matches.clear();
  for (const auto& found : per_query) {
    out->matches.insert(out->matches.end(), found.begin(), found.end());
    out->lims.push_back(out->matches.size());
  }
  if (stats != nullptr) {
    for (const Stats& ts : thread_stats) stats->Add(ts);
  }
  return Status::OK();
}

}  // namespace simdex::index

#endif  // SIMDEX_ENGINE_INDEX_MAPPED_INDEX_H_
