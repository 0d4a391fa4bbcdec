#include "engine/service/compaction.h"

#include <algorithm>
#include <limits>
#include <memory>

#include "engine/simhash/index/entry_ids.h"
#include "engine/simhash/index/table_cursor.h"
#include "simdex/merge.h"

namespace simdex::service {

namespace {

// Sets *record's entries and seq range to those of the first `count`
// entries of `delta` whose seq is >= min_seq (entries 0 when none).
template <typename Delta>
void CountEntries(const Delta& delta, uint64_t count, uint64_t min_seq, FileRecord* record) {
  record->entries = 0;
  record->min_seq = std::numeric_limits<uint64_t>::max();
  record->max_seq = 0;
  delta.ForEach(count, [&](uint64_t seq, const auto&...) {
    if (seq < min_seq) return;
    ++record->entries;
    record->min_seq = std::min(record->min_seq, seq);
    record->max_seq = std::max(record->max_seq, seq);
  });
}

// Finishes the file `writer` (a builder or merger of index or LSH files)
// writes, or abandons it after a failure `s`.
template <typename Writer>
Status FinishOrAbandon(Writer& writer, const Status& s) {
  if (!s.ok()) {
    writer.Abandon();
    return s;
  }
  return writer.Finish();
}

// The record of the file merged from `older` and `newer` (one field's or
// the bands'): `entries` of it, its seqs from min_seq on.
void MergedRecord(const FileRecord& older, const FileRecord& newer, uint64_t min_seq, const std::string& name,
                  uint64_t entries, FileRecord* record) {
  record->field = older.field;
  record->name = name;
  record->entries = entries;
  record->min_seq = std::max(min_seq, std::min(older.min_seq, newer.min_seq));
  record->max_seq = std::max(older.max_seq, newer.max_seq);
}

}  // namespace

Status WriteDeltaFile(const OnlineIndex& delta, uint64_t count, uint64_t min_seq, const FileWork& work,
                      const std::string& name, FileRecord* record) {
  record->name = name;
  CountEntries(delta, count, min_seq, record);
  if (record->entries == 0) return Status::OK();
  BuildOptions options;
  options.scheme = delta.scheme();
  options.profile = work.profile;
  options.memory_bytes = work.memory_bytes;
  options.threads = work.threads;
  std::unique_ptr<IndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(IndexBuilder::Create(work.dir + "/" + name, options, &builder));
  Status s;
  delta.ForEach(count, [&](uint64_t seq, uint64_t fp) {
    if (s.ok() && seq >= min_seq) s = builder->Add(seq, fp);
  });
  return FinishOrAbandon(*builder, s);
}

Status ForEachEntry(const IndexReader& reader, const std::function<Status(uint64_t id, uint64_t fp)>& fn) {
  simhash::TableCursor cursor(reader, 0);
  SIMDEX_RETURN_IF_ERROR(cursor.Seek(0));
  const simhash::EntryIds ids(reader);
  const uint64_t n = reader.entries();
  while (cursor.Valid()) {
    if (cursor.Rank() >= n) return Status::Corruption("table 0 holds more values than entries");
    SIMDEX_RETURN_IF_ERROR(fn(ids.AtRank(cursor.Rank()), cursor.value()));
    SIMDEX_RETURN_IF_ERROR(cursor.Next());
  }
  return Status::OK();
}

Status MergeFiles(const IndexFile& older, const IndexFile& newer, uint64_t min_seq, const FileWork& work,
                  const std::string& name, FileRecord* record) {
  MergeOptions options;
  options.memory_bytes = work.memory_bytes;
  options.threads = work.threads;
  options.profile = work.profile;
  std::unique_ptr<IndexMerger> merger;
  SIMDEX_RETURN_IF_ERROR(IndexMerger::Create(older.reader.get(), work.dir + "/" + name, options, &merger));
  // The older file's expired entries are a prefix of its seqs: one range,
  // however many.
  Status s;
  if (min_seq > older.record.min_seq) {
    s = merger->DeleteRange(older.record.min_seq, std::min(min_seq - 1, older.record.max_seq));
  }
  if (s.ok()) {
    s = ForEachEntry(*newer.reader, [&](uint64_t id, uint64_t fp) -> Status {
      return id < min_seq ? Status::OK() : merger->Add(id, fp);
    });
  }
  SIMDEX_RETURN_IF_ERROR(FinishOrAbandon(*merger, s));
  MergedRecord(older.record, newer.record, min_seq, name, merger->stats().entries, record);
  return Status::OK();
}

Status WriteDeltaFile(const OnlineBands& delta, uint64_t count, uint64_t min_seq, const FileWork& work,
                      const std::string& name, FileRecord* record) {
  record->name = name;
  CountEntries(delta, count, min_seq, record);
  if (record->entries == 0) return Status::OK();
  LshBuildOptions options;
  options.minhash = work.bands.minhash;
  options.threshold = work.bands.threshold;
  options.bands = work.bands.bands;
  options.signature_bits = work.bands.signature_bits;
  std::unique_ptr<LshIndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(LshIndexBuilder::Create(work.dir + "/" + name, options, &builder));
  Status s;
  delta.ForEach(count, [&](uint64_t seq, const uint64_t* keys, const uint8_t* packed) {
    if (s.ok() && seq >= min_seq) s = builder->AddBanded(seq, keys, packed);
  });
  return FinishOrAbandon(*builder, s);
}

Status MergeFiles(const BandFile& older, const BandFile& newer, uint64_t min_seq, const FileWork& work,
                  const std::string& name, FileRecord* record) {
  std::unique_ptr<LshIndexMerger> merger;
  SIMDEX_RETURN_IF_ERROR(LshIndexMerger::Create(older.reader.get(), work.dir + "/" + name, &merger));
  Status s = merger->AddIndex(newer.reader.get());
  // The expired entries of each file are a prefix of its seqs: a range
  // each, however many.
  for (const BandFile* f : {&older, &newer}) {
    if (s.ok() && min_seq > f->record.min_seq) {
      s = merger->DeleteRange(f->record.min_seq, std::min(min_seq - 1, f->record.max_seq));
    }
  }
  SIMDEX_RETURN_IF_ERROR(FinishOrAbandon(*merger, s));
  MergedRecord(older.record, newer.record, min_seq, name, merger->stats().documents, record);
  return Status::OK();
}

}  // namespace simdex::service
