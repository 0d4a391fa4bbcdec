// IndexMerger (include/simdex/merge.h). Finish():
//   1. sorts the batch's (fingerprint, id) pairs (external sorter) and the
//      deleted ids, and finds the ids that remain: numeric ids give the
//      packed id section's base and width; string ids give the new id map
//      (the remaining old strings and the batch's, sorted);
//   2. merges table 0: the old index's entries in (fingerprint, id) order,
//      read with a TableCursor and the rank index, less the deleted ones,
//      with the batch's sorted pairs; this gives the new ids (packed) and
//      table 0's values, and the fingerprints of the deleted entries. With
//      string ids the entries of one fingerprint are packed sorted by their
//      new numbers, as the builder packs them;
//   3. for each other table: the old table read in order (its fingerprints
//      checked against table 0's: index/fingerprint_multiset.h), less the deleted
//      entries' permuted fingerprints, merged with the batch's permuted
//      fingerprints sorted;
//   4. writes everything through the IndexWriter the builder uses
//      (engine/simhash/index/index_writer.h).
// No old table is sorted again; each is decoded once. Everything read from
// the old index is verified first (its blocks by their checksums as the
// cursors decode them, its sections by theirs before the first id is read),
// so that damage is never copied into the new file; errors about the old
// index name its file.
#include <algorithm>
#include <limits>

#include "base/timing.h"
#include "engine/simhash/index/entry_ids.h"
#include "engine/simhash/index/fingerprint_multiset.h"
#include "engine/simhash/index/index_writer.h"
#include "engine/index/id_map_builder.h"
#include "engine/index/table_writer.h"
#include "engine/index/sorted_values.h"
#include "engine/simhash/index/table_cursor.h"
#include "engine/index/batch_ids.h"
#include "engine/index/id_ranges.h"
#include "engine/simhash/merge/merged_id_map.h"
#include "engine/util/external_sorter.h"
#include "engine/util/output_file.h"
#include "engine/util/sticky_status.h"
#include "simdex/front_end_text.h"
#include "simdex/merge.h"
#include "simdex/profile.h"

namespace simdex {

using util::ExternalSorter;
using util::FingerprintIdPair;

struct IndexMerger::Rep : util::StickyStatus {
  const IndexReader* old = nullptr;
  std::string path;
  MergeOptions options;
  BuildOptions build;  // the old index's layout, for the writer
  MergeStats stats;
  std::unique_ptr<ExternalSorter<FingerprintIdPair>> batch;
  std::vector<uint64_t> deleted;              // ids in the old index's id space
  index::IdRanges deleted_ranges;             // DeleteRange()'s, joined in Finish()
  std::vector<std::string> deleted_strings;   // string ids to delete, resolved in Finish()
  uint64_t batch_min_id = std::numeric_limits<uint64_t>::max();
  uint64_t batch_max_id = 0;
  // String ids: the batch's pairs carry id_map's provisional numbers; after
  // Finish() the map also holds the old entries' ids that remain.
  bool string_ids = false;
  index::IdMapBuilder id_map;
  // MergeOptions::existing_ids: the batch's ids, for an old index of
  // numeric ids; for one of string ids the id map is asked (id_map.Find),
  // each old id number once: in_batch[i] 0 not yet asked, 1 no, 2 yes.
  index::BatchIds batch_ids{ExistingIds::kKeep, false};
  std::vector<uint8_t> in_batch;

  std::string ScratchDir() const { return util::ScratchDirFor(path, options.tmpdir); }
  util::ExternalSortOptions SortOptions(size_t bytes) const {
    return {.memory_bytes = std::max(bytes, util::kExternalSortMinMemoryBytes), .tmpdir = ScratchDir(),
            .threads = options.threads};
  }
  bool IsDeleted(uint64_t id) const {
    return std::binary_search(deleted.begin(), deleted.end(), id) || deleted_ranges.Contains(id) || IsReplaced(id);
  }
  // Whether the batch gives old id `id`, whose entries kReplace removes.
  bool IsReplaced(uint64_t id) const {
    if (!batch_ids.replacing()) return false;
    return old->has_string_ids() ? id < in_batch.size() && in_batch[id] == 2 : batch_ids.Holds(id);
  }
  bool InBatch(uint64_t id);
  Status SwitchToStringIds();
  uint64_t ResolveDeletedStrings();
};

// The first string id added to a merge into an old index of numeric ids:
// the batch pairs added so far become pairs of decimal strings.
Status IndexMerger::Rep::SwitchToStringIds() {
  string_ids = true;
  auto numeric = std::move(batch);
  batch = std::make_unique<ExternalSorter<FingerprintIdPair>>(SortOptions(options.memory_bytes / 2));
  return index::ReaddAsDecimalStrings(numeric.get(), &id_map, batch.get());
}

// Turns the string ids given to Delete() into ids of the old index (added
// to `deleted`); returns how many name no id of the old index.
uint64_t IndexMerger::Rep::ResolveDeletedStrings() {
  uint64_t unknown = 0;
  for (const std::string& id : deleted_strings) {
    uint64_t number = 0;
    bool found = false;
    if (old->has_string_ids()) {
      found = old->FindIdString(id, &number).ok();
    } else {
      // Only an id's own decimal string names it ("007" does not name 7).
      found = ParseDecimalUint64(id, &number) && std::to_string(number) == id;
    }
    if (found) {
      deleted.push_back(number);
    } else {
      ++unknown;
    }
  }
  deleted_strings.clear();
  return unknown;
}

// Whether the batch gives old id `id` (an id number of the old id map when
// the old index has string ids: asked of the batch's id map once per
// number). REQUIRES: batch_ids sealed; with old string ids, id_map finished
// and id < in_batch.size().
bool IndexMerger::Rep::InBatch(uint64_t id) {
  if (!old->has_string_ids()) return batch_ids.Find(id);
  if (in_batch[id] == 0) {
    const std::string_view name = old->IdString(id);
    uint64_t rank = 0;
    in_batch[id] = id_map.Find(name, &rank) ? 2 : 1;
    if (in_batch[id] == 2) batch_ids.Found(name);
  }
  return in_batch[id] == 2;
}

IndexMerger::IndexMerger(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
IndexMerger::~IndexMerger() = default;

Status IndexMerger::Create(const IndexReader* old, const std::string& path, const MergeOptions& options,
                           std::unique_ptr<IndexMerger>* out) {
  if (path.empty()) return Status::InvalidArgument("no output path");
  if (options.threads < 1) return Status::InvalidArgument("threads must be at least 1");
  auto rep = std::make_unique<Rep>();
  rep->old = old;
  rep->path = path;
  rep->options = options;
  const IndexInfo info = old->Info();
  rep->build.scheme = old->scheme();
  rep->build.block_size = info.block_size;
  rep->build.restarts = info.restarts;
  // One profile for the old entries and the added ones.
  ProfileCheck profiles;
  SIMDEX_RETURN_IF_ERROR(profiles.Add("the old index", old->profile()));
  SIMDEX_RETURN_IF_ERROR(profiles.Add("the entries added", options.profile));
  SIMDEX_RETURN_IF_ERROR(CheckProfileText(profiles.profile()));
  rep->build.profile = profiles.profile();
  // The old index's codec when all its tables share one, else a choice per
  // table again (also for an empty old index, whose tables' codecs say
  // nothing of the data: auto gives ef to a table of no blocks).
  rep->build.codec = index::kAutoCodec;
  if (info.entries > 0 && !info.tables.empty() && std::all_of(info.tables.begin(), info.tables.end(),
                                          [&](const IndexInfo::Table& t) { return t.codec == info.tables[0].codec; })) {
    rep->build.codec = info.tables[0].codec;
  }
  rep->stats.old_entries = info.entries;
  rep->string_ids = old->has_string_ids();
  rep->batch_ids = index::BatchIds(options.existing_ids, old->has_string_ids());
  // The batch's pairs may use half the budget; the merged tables the rest.
  rep->batch = std::make_unique<ExternalSorter<FingerprintIdPair>>(rep->SortOptions(options.memory_bytes / 2));
  // String ids in memory: a quarter, then spilled runs (engine/index/id_map_builder.h).
  rep->id_map = index::IdMapBuilder(options.memory_bytes / 4, rep->ScratchDir());
  Status s = rep->batch->status();
  if (!s.ok()) return s.IsIOError() && options.tmpdir.empty() ? s.WithContext("cannot write " + path) : s;
  out->reset(new IndexMerger(std::move(rep)));
  return Status::OK();
}

const MergeStats& IndexMerger::stats() const { return rep_->stats; }

Status IndexMerger::Add(uint64_t id, uint64_t fingerprint) {
  return Add(std::span<const uint64_t>(&id, 1), std::span<const uint64_t>(&fingerprint, 1));
}

Status IndexMerger::Add(std::span<const uint64_t> ids, std::span<const uint64_t> fingerprints) {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.Check("Add() after Finish() or Abandon()"));
  if (ids.size() != fingerprints.size()) return Status::InvalidArgument("ids and fingerprints differ in length");
  if (!r.old->has_string_ids()) {
    for (uint64_t id : ids) r.batch_ids.AddNumber(id);  // else the id map is asked
  }
  // Numeric ids of a string-id index are kept as their decimal strings.
  r.status = index::AddPairs(ids, fingerprints, r.string_ids, &r.id_map, &r.batch_min_id, &r.batch_max_id, r.batch.get());
  if (r.status.ok()) r.stats.added += ids.size();
  return r.status;
}

Status IndexMerger::Add(std::string_view id, uint64_t fingerprint) {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.Check("Add() after Finish() or Abandon()"));
  SIMDEX_RETURN_IF_ERROR(simdex::CheckStringId(id).WithContext("id " + simdex::Quoted(id)));
  if (!r.string_ids) {
    r.status = r.SwitchToStringIds();
    if (!r.status.ok()) return r.status;
  }
  if (!r.old->has_string_ids()) r.batch_ids.AddString(id);  // else the id map is asked
  const FingerprintIdPair record{fingerprint, r.id_map.Intern(id)};
  r.status = r.batch->Add(&record, 1);
  if (r.status.ok()) ++r.stats.added;
  return r.status;
}

Status IndexMerger::Delete(uint64_t id) {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.Check("Delete() after Finish() or Abandon()"));
  if (r.old->has_string_ids()) {
    r.deleted_strings.push_back(std::to_string(id));
  } else {
    r.deleted.push_back(id);
  }
  return Status::OK();
}

Status IndexMerger::DeleteRange(uint64_t first, uint64_t last) {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.Check("DeleteRange() after Finish() or Abandon()"));
  return r.deleted_ranges.Add(first, last, r.old->has_string_ids());
}

Status IndexMerger::Delete(std::string_view id) {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.Check("Delete() after Finish() or Abandon()"));
  r.deleted_strings.emplace_back(id);
  return Status::OK();
}

void IndexMerger::Abandon() {
  rep_->done = true;
  rep_->batch.reset();
  if (rep_->status.ok()) rep_->status = Status::InvalidArgument("the merger was abandoned");
}

Status IndexMerger::Finish() {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.Check("Finish() called twice"));
  r.done = true;
  const auto start = base::Clock::now();
  r.status = FinishImpl();
  r.batch.reset();
  r.stats.seconds = base::Seconds(start);
  return r.status;
}

Status IndexMerger::FinishImpl() {
  Rep& r = *rep_;
  const IndexReader& old = *r.old;
  const simhash::EntryIds old_ids(old);
  SIMDEX_RETURN_IF_ERROR(old_ids.Check());
  const uint64_t old_n = old.entries();
  const uint64_t unknown_strings = r.ResolveDeletedStrings();
  std::sort(r.deleted.begin(), r.deleted.end());
  r.deleted.erase(std::unique(r.deleted.begin(), r.deleted.end()), r.deleted.end());
  r.deleted_ranges.Join();

  // 1. The ids that remain: the packed section's base and width, or with
  // string ids the new id map: the old map's remaining strings joined with
  // the batch's (simhash::MergedIdMap), or, into an index of numeric ids,
  // their decimal strings interned with the batch's.
  // Old ids the batch gives (MergeOptions::existing_ids) are found here
  // too: kRefuse stops after this pass, kReplace removes their entries.
  uint64_t min_id = r.batch_min_id, max_id = r.batch_max_id, removed = 0, replaced = 0;
  std::vector<bool> seen(r.deleted.size(), false);
  // Old index of string ids: whether each old id number remains (1 bit each).
  std::vector<bool> kept(old.has_string_ids() ? old.IdStringCount() : 0, false);
  r.batch_ids.Seal();
  const bool check = r.batch_ids.checking();
  bool id_map_finished = false;
  if (check && old.has_string_ids()) {  // the batch's strings are asked of the id map
    SIMDEX_RETURN_IF_ERROR(r.id_map.Finish());
    id_map_finished = true;
    r.in_batch.assign(kept.size(), 0);
  }
  for (uint64_t rank = 0; rank < old_n; ++rank) {
    const uint64_t id = old_ids.AtRank(rank);
    const auto it = std::lower_bound(r.deleted.begin(), r.deleted.end(), id);
    const bool listed = it != r.deleted.end() && *it == id;
    if (listed) seen[static_cast<size_t>(it - r.deleted.begin())] = true;
    if (listed || r.deleted_ranges.Contains(id)) {
      ++removed;
      continue;
    }
    if (old.has_string_ids() && id >= kept.size()) {
      return old_ids.InFile(Status::Corruption("entry " + std::to_string(rank) + " has id number " +
                                               std::to_string(id) + ", past the id map"));
    }
    if (check && r.InBatch(id) && r.batch_ids.replacing()) {
      ++replaced;
      continue;
    }
    if (!r.string_ids) {
      min_id = std::min(min_id, id);
      max_id = std::max(max_id, id);
    } else if (!old.has_string_ids()) {
      r.id_map.Intern(std::to_string(id));
    } else {
      kept[id] = true;
    }
  }
  SIMDEX_RETURN_IF_ERROR(r.batch_ids.Refusal());
  r.stats.deleted = removed;
  r.stats.replaced = replaced;
  removed += replaced;  // the entries left out, by either
  r.stats.ids_not_found = unknown_strings + static_cast<uint64_t>(std::count(seen.begin(), seen.end(), false));
  const uint64_t n = old_n - removed + r.stats.added;
  r.stats.entries = n;
  simhash::EntrySummary summary;
  summary.entries = n;
  std::unique_ptr<simhash::MergedIdMap> merged_ids;
  uint64_t strings = 0;
  if (r.string_ids) {
    if (!id_map_finished) SIMDEX_RETURN_IF_ERROR(r.id_map.Finish());
    r.stats.id_map_runs = r.id_map.stats().runs_spilled;
    strings = r.id_map.size();
    if (old.has_string_ids()) {
      Status built = simhash::MergedIdMap::Build(old, kept, r.id_map, r.ScratchDir(), &merged_ids);
      SIMDEX_RETURN_IF_ERROR(built.IsCorruption() ? old_ids.InFile(built) : built);
      std::vector<bool>().swap(kept);
      strings = merged_ids->size();
    }
  }
  summary.SetIds(r.string_ids, strings, min_id, max_id);
  auto new_old_id = [&](uint64_t id) -> uint64_t {
    if (!r.string_ids) return id - summary.id_base;
    if (merged_ids) return merged_ids->OldId(id);
    uint64_t rank = 0;  // interned above, as every remaining old id was
    r.id_map.Find(std::to_string(id), &rank);
    return rank;
  };
  auto new_batch_id = [&](uint64_t id) -> uint64_t {
    if (merged_ids) return merged_ids->BatchId(r.id_map.Rank(id));
    return r.string_ids ? r.id_map.Rank(id) : id - summary.id_base;
  };

  // 2. Table 0 with the ids. The batch's fingerprints (in order) and the
  // deleted entries' fingerprints are kept for the other tables. The
  // budget: half for a merged table; an eighth each for the batch's and the
  // deleted fingerprints and for their permuted sorts in step 3.
  SIMDEX_RETURN_IF_ERROR(r.batch->Finish());
  const std::string dir = r.ScratchDir();
  const size_t table_budget = r.options.memory_bytes / 2, eighth = r.options.memory_bytes / 8;
  std::unique_ptr<simhash::Table0Writer> table0;
  SIMDEX_RETURN_IF_ERROR(simhash::Table0Writer::Create(n, table_budget, dir, summary.id_width, r.string_ids, &table0));
  std::unique_ptr<index::SortedValues> batch_fps, deleted_fps;
  SIMDEX_RETURN_IF_ERROR(index::SortedValues::Create(r.stats.added, eighth, dir, &batch_fps));
  SIMDEX_RETURN_IF_ERROR(index::SortedValues::Create(removed, eighth, dir, &deleted_fps));
  // The fingerprints of the old tables, each table's inverted, must agree
  // with table 0's (index/fingerprint_multiset.h): a table whose values
  // were changed is never copied, with fresh checksums, into the new file.
  const Scheme& scheme = old.scheme();
  simhash::FingerprintMultiset old_table0;
  {
    simhash::TableCursor cursor(old, 0);
    SIMDEX_RETURN_IF_ERROR(cursor.Seek(0));
    index::SortedStream<FingerprintIdPair> batch(r.batch.get());
    FingerprintIdPair next{}, previous_old{};
    bool have_batch = batch.Next(&next);
    while (cursor.Valid() || have_batch) {
      bool take_old = cursor.Valid();
      FingerprintIdPair mine{};
      if (take_old) {
        if (cursor.Rank() >= old_n) return old_ids.InFile(Status::Corruption("table 0 holds more values than entries"));
        mine = {cursor.value(), old_ids.AtRank(cursor.Rank())};
        if (have_batch && next < mine) take_old = false;
      }
      if (take_old) {
        if (mine < previous_old) return old_ids.InFile(Status::Corruption("table 0 is out of order"));
        previous_old = mine;
        old_table0.Add(scheme.table(0).Invert(mine.fingerprint));
        if (r.IsDeleted(mine.id)) {
          SIMDEX_RETURN_IF_ERROR(deleted_fps->Append(mine.fingerprint));
        } else {
          SIMDEX_RETURN_IF_ERROR(table0->Add(mine.fingerprint, new_old_id(mine.id)));
        }
        SIMDEX_RETURN_IF_ERROR(cursor.Next());
      } else {
        SIMDEX_RETURN_IF_ERROR(table0->Add(next.fingerprint, new_batch_id(next.id)));
        SIMDEX_RETURN_IF_ERROR(batch_fps->Append(next.fingerprint));
        have_batch = batch.Next(&next);
      }
    }
    SIMDEX_RETURN_IF_ERROR(batch.status());
    r.stats.blocks_decoded += cursor.blocks_decoded();
  }
  r.batch.reset();
  if (table0->entries() != n) return old_ids.InFile(Status::Corruption("table 0 does not hold the index's entries"));
  SIMDEX_RETURN_IF_ERROR(table0->Finish());
  SIMDEX_RETURN_IF_ERROR(batch_fps->Finish());
  SIMDEX_RETURN_IF_ERROR(deleted_fps->Finish());
  summary.distinct_fingerprints = table0->distinct();

  std::unique_ptr<simhash::IndexWriter> writer;
  SIMDEX_RETURN_IF_ERROR(simhash::IndexWriter::Create(r.path, r.build, &writer));
  SIMDEX_RETURN_IF_ERROR(writer->AddTable(0, table0->values()));
  table0->ReleaseValues();

  // 3. The other tables.
  for (int t = 1; t < scheme.num_tables(); ++t) {
    const BlockPermutation& perm = scheme.table(t);
    // The batch's and the deleted entries' values in table t, sorted.
    ExternalSorter<uint64_t> added(r.SortOptions(eighth)), deleted(r.SortOptions(eighth));
    SIMDEX_RETURN_IF_ERROR(simhash::AddPermuted(batch_fps->values(), perm, &added));
    SIMDEX_RETURN_IF_ERROR(added.Finish());
    SIMDEX_RETURN_IF_ERROR(simhash::AddPermuted(deleted_fps->values(), perm, &deleted));
    SIMDEX_RETURN_IF_ERROR(deleted.Finish());
    std::unique_ptr<index::SortedValues> table;
    SIMDEX_RETURN_IF_ERROR(index::SortedValues::Create(n, table_budget, dir, &table));
    simhash::TableCursor cursor(old, t);
    SIMDEX_RETURN_IF_ERROR(cursor.Seek(0));
    index::SortedStream<uint64_t> batch(&added), gone(&deleted);
    uint64_t next = 0, next_gone = 0;
    bool have_batch = batch.Next(&next);
    bool have_gone = gone.Next(&next_gone);  // the next deleted value to drop
    uint64_t count = 0, previous_old = 0;
    simhash::FingerprintMultiset old_table;
    while (cursor.Valid() || have_batch) {
      if (cursor.Valid() && (!have_batch || cursor.value() <= next)) {
        const uint64_t v = cursor.value();
        if (v < previous_old) return old_ids.InFile(Status::Corruption("table " + std::to_string(t) + " is out of order"));
        previous_old = v;
        old_table.Add(perm.Invert(v));
        while (have_gone && next_gone < v) have_gone = gone.Next(&next_gone);  // not in a sound index
        if (have_gone && next_gone == v) {
          have_gone = gone.Next(&next_gone);  // one deleted entry's value
        } else {
          SIMDEX_RETURN_IF_ERROR(table->Append(v));
          ++count;
        }
        SIMDEX_RETURN_IF_ERROR(cursor.Next());
      } else {
        SIMDEX_RETURN_IF_ERROR(table->Append(next));
        ++count;
        have_batch = batch.Next(&next);
      }
    }
    SIMDEX_RETURN_IF_ERROR(batch.status());
    SIMDEX_RETURN_IF_ERROR(gone.status());
    r.stats.blocks_decoded += cursor.blocks_decoded();
    if (count != n || !(old_table == old_table0)) {
      return old_ids.InFile(
          Status::Corruption("table " + std::to_string(t) + " does not hold the entries of table 0"));
    }
    SIMDEX_RETURN_IF_ERROR(table->Finish());
    SIMDEX_RETURN_IF_ERROR(writer->AddTable(t, table->values()));
  }

  // 4. Ids, metadata, footer.
  SIMDEX_RETURN_IF_ERROR(writer->Finish(summary, table0->ids(), merged_ids ? merged_ids->section()
                                                                : r.string_ids ? r.id_map.Section()
                                                                               : std::string_view()));
  r.stats.file_bytes = writer->file_bytes();
  return Status::OK();
}

}  // namespace simdex
