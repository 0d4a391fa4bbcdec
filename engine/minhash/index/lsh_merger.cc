// LshIndexMerger (include/simdex/lsh_index.h): the old index's documents
// read back as the file holds them (ids, b-bit signatures, and the band
// keys from its tables, and its sketches when it stores them), the batch's
// from their signatures (and shingles, for an index of sketches), the deleted
// ones left out; engine/minhash/index/lsh_documents.h writes the new file within half
// the budget. The band keys of the old documents are gathered in one pass
// over each table, sorted by document within the other half of the budget
// (spilling past it), and read back document by document.
#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <set>

#include "engine/index/sorted_values.h"
#include "engine/minhash/index/lsh_documents.h"
#include "engine/minhash/index/lsh_file.h"
#include "engine/minhash/index/lsh_rep.h"
#include "engine/index/batch_ids.h"
#include "engine/index/id_ranges.h"
#include "engine/util/external_sorter.h"
#include "engine/util/output_file.h"
#include "engine/util/sticky_status.h"
#include "format/codec.h"
#include "simdex/front_end_text.h"

namespace simdex {

// The run files the band sorts of AddStoredOf() hold open in all.
constexpr size_t kMergeOpenRuns = 512;

namespace minhash {
// lsh_builder.cc
Status CheckBuildOptions(LshBuildOptions* options);
Status CheckLshMemory(size_t memory_bytes, int bands, size_t shares);
}  // namespace minhash

struct LshIndexMerger::Rep : util::StickyStatus {
  const LshIndexReader* old = nullptr;
  std::vector<const LshIndexReader*> others;  // AddIndex()
  std::string path;
  std::string tmpdir;  // scratch files
  size_t memory_bytes = 0;
  std::optional<minhash::LshDocuments> docs;
  std::set<uint64_t> delete_numbers;      // old index of numeric ids
  std::set<std::string, std::less<>> delete_strings;  // old index of string ids
  index::IdRanges delete_ranges;                      // DeleteRange()'s, joined in Finish()
  index::BatchIds batch_ids{ExistingIds::kKeep, false};  // LshMergeOptions::existing_ids
  LshMergeStats stats;

  Status Check() { return StickyStatus::Check("Add() or Delete() after Finish() or Abandon()"); }
  Status AddStoredOf(const LshIndexReader& index, std::set<uint64_t>* deleted_numbers,
                     std::set<std::string_view>* deleted_strings);
  Status AddOld();
  Status AddString(std::string_view id, const uint32_t* signature, const BottomKSketch* sketch);
};

namespace {

// The options a fresh build of the old index's documents would have had.
LshBuildOptions OptionsOf(const LshIndexReader& old) {
  const LshIndexInfo info = old.Info();
  LshBuildOptions o;
  o.minhash = old.minhash_options();
  o.threshold = old.threshold();
  o.bands = old.bands();
  o.signature_bits = old.signature_bits();
  o.block_size = info.block_size;
  o.restarts = info.restarts;
  o.string_ids = old.has_string_ids();
  o.sketch_k = old.sketch_k();
  o.codec = info.tables.empty() ? "ef" : info.tables[0].codec;
  for (const auto& t : info.tables) {
    if (t.codec != info.tables[0].codec) o.codec = "auto";
  }
  return o;
}

}  // namespace

LshIndexMerger::LshIndexMerger(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
LshIndexMerger::~LshIndexMerger() = default;

Status LshIndexMerger::Create(const LshIndexReader* old, const std::string& path, std::unique_ptr<LshIndexMerger>* out) {
  return Create(old, path, LshMergeOptions(), out);
}

Status LshIndexMerger::Create(const LshIndexReader* old, const std::string& path, const LshMergeOptions& merge,
                              std::unique_ptr<LshIndexMerger>* out) {
  auto rep = std::make_unique<Rep>();
  rep->old = old;
  rep->path = path;
  rep->memory_bytes = merge.memory_bytes;
  LshBuildOptions options = OptionsOf(*old);
  options.memory_bytes = merge.memory_bytes / 2;
  SIMDEX_RETURN_IF_ERROR(minhash::CheckLshMemory(merge.memory_bytes, options.bands.bands, 2));
  SIMDEX_RETURN_IF_ERROR(minhash::CheckBuildOptions(&options));
  const std::string dir = util::ScratchDirFor(path, merge.tmpdir);
  Status s = util::CheckScratchDir(dir);
  if (!s.ok()) return merge.tmpdir.empty() ? s.WithContext("cannot write " + path) : s;
  rep->tmpdir = dir;
  rep->docs.emplace(options, options.memory_bytes, dir);
  // The old index decides: with sketches, every batch document must come
  // with its shingles (LshDocuments refuses one without).
  SIMDEX_RETURN_IF_ERROR(rep->docs->DecideSketches(old->sketch_k() > 0));
  rep->batch_ids = index::BatchIds(merge.existing_ids, old->has_string_ids());
  out->reset(new LshIndexMerger(std::move(rep)));
  return Status::OK();
}

const LshMergeStats& LshIndexMerger::stats() const { return rep_->stats; }

Status LshIndexMerger::Add(uint64_t id, const uint32_t* signature) {
  return AddSketched(id, signature, nullptr);
}

Status LshIndexMerger::Add(uint64_t id, const uint32_t* signature, std::span<const uint64_t> shingles) {
  SIMDEX_RETURN_IF_ERROR(rep_->Check());  // before docs is read
  return AddSketched(id, signature, rep_->docs->SketchOf(shingles));
}

Status LshIndexMerger::AddSketched(uint64_t id, const uint32_t* signature, const BottomKSketch* sketch) {
  SIMDEX_RETURN_IF_ERROR(rep_->Check());
  rep_->status = rep_->docs->Add(rep_->docs->IdNumber(id), signature, sketch);
  rep_->stats.added += rep_->status.ok();
  if (rep_->status.ok()) rep_->batch_ids.AddNumber(id);
  return rep_->status;
}

Status LshIndexMerger::Add(std::string_view id, const uint32_t* signature) {
  return rep_->AddString(id, signature, nullptr);
}

Status LshIndexMerger::Add(std::string_view id, const uint32_t* signature, std::span<const uint64_t> shingles) {
  SIMDEX_RETURN_IF_ERROR(rep_->Check());
  return rep_->AddString(id, signature, rep_->docs->SketchOf(shingles));
}

Status LshIndexMerger::Rep::AddString(std::string_view id, const uint32_t* signature, const BottomKSketch* sk) {
  SIMDEX_RETURN_IF_ERROR(Check());
  SIMDEX_RETURN_IF_ERROR(simdex::CheckStringId(id).WithContext("id " + simdex::Quoted(id)));
  uint64_t number = 0;
  status = docs->IdNumber(id, &number);
  if (status.ok()) status = docs->Add(number, signature, sk);
  stats.added += status.ok();
  if (status.ok()) batch_ids.AddString(id);
  return status;
}

Status LshIndexMerger::Delete(uint64_t id) {
  SIMDEX_RETURN_IF_ERROR(rep_->Check());
  if (rep_->old->has_string_ids()) rep_->delete_strings.insert(std::to_string(id));
  else rep_->delete_numbers.insert(id);
  return Status::OK();
}

Status LshIndexMerger::DeleteRange(uint64_t first, uint64_t last) {
  SIMDEX_RETURN_IF_ERROR(rep_->Check());
  return rep_->delete_ranges.Add(first, last, rep_->old->has_string_ids());
}

Status LshIndexMerger::Delete(std::string_view id) {
  SIMDEX_RETURN_IF_ERROR(rep_->Check());
  uint64_t number = 0;
  if (rep_->old->has_string_ids()) rep_->delete_strings.insert(std::string(id));
  else if (ParseDecimalUint64(id, &number)) rep_->delete_numbers.insert(number);
  else ++rep_->stats.ids_not_found;
  return Status::OK();
}

void LshIndexMerger::Abandon() {
  rep_->done = true;
  rep_->docs.reset();
}

Status LshIndexMerger::AddIndex(const LshIndexReader* other) {
  SIMDEX_RETURN_IF_ERROR(rep_->Check());
  const LshIndexReader& old = *rep_->old;
  std::string differs;
  if (other->profile() != old.profile()) differs = "signatures of '" + other->profile() + "', not '" + old.profile() + "'";
  else if (other->bands().bands != old.bands().bands || other->bands().rows != old.bands().rows) differs = "other bands";
  else if (other->signature_bits() != old.signature_bits()) differs = "other signature bits";
  else if (other->has_string_ids() != old.has_string_ids()) differs = "ids of the other kind";
  if (!differs.empty()) return Status::InvalidArgument("AddIndex: the index added has " + differs + " than the old one");
  if (other->sketch_k() != old.sketch_k()) {
    const auto sketches = [](int k) { return k > 0 ? "sketches of " + std::to_string(k) : std::string("no sketches"); };
    return Status::InvalidArgument("AddIndex: the index added has " + sketches(other->sketch_k()) +
                                   " where the old one has " + sketches(old.sketch_k()) +
                                   " (a merged file keeps every document's sketch of one k, or none)");
  }
  rep_->others.push_back(other);
  return Status::OK();
}

// Reads every document of `index` back: its band keys from the tables (a
// value's high bits, at the document its low bits name), signature, id.
// Each table is read once, its values sorted by document (rotated, so that
// the document is in the high bits) within a share of half the budget;
// the documents are then added in order, their keys taken from the front
// of every band's sorted stream.
Status LshIndexMerger::Rep::AddStoredOf(const LshIndexReader& index, std::set<uint64_t>* deleted_numbers,
                                        std::set<std::string_view>* deleted_strings) {
  const LshIndexReader::Rep& r = *index.rep_;
  const format::LshMetadata& m = r.meta;
  const uint64_t n = m.documents;
  const uint64_t mask = r.OrdinalMask();
  const int ob = m.ordinal_bits;
  const size_t bands = m.tables.size();
  SIMDEX_RETURN_IF_ERROR(r.InFile(r.CheckAllHeads()));
  SIMDEX_RETURN_IF_ERROR(r.InFile(r.CheckIds()));
  SIMDEX_RETURN_IF_ERROR(r.InFile(r.CheckSignatures()));
  if (m.sketch_k > 0) SIMDEX_RETURN_IF_ERROR(r.InFile(r.CheckSketches()));
  // A document's bytes as the writers hold them (lsh_file.h): signature,
  // then the sketch slot.
  const size_t sb = m.SignatureBytes();
  std::vector<uint8_t> document(sb + minhash::SketchSlotBytes(static_cast<int>(m.sketch_k)));
  std::vector<uint32_t> hashes;
  std::vector<uint32_t> empty(m.num_perm, kEmptyMinimum);
  std::vector<uint64_t> empty_keys(bands);
  BandKeys(empty.data(), index.bands(), empty_keys.data());

  util::ExternalSortOptions sort;
  sort.memory_bytes = std::max(util::kExternalSortMinMemoryBytes, memory_bytes / 2 / std::max<size_t>(bands, 1));
  sort.tmpdir = tmpdir;
  // Every band's runs are open together while the documents are read back:
  // kMergeOpenRuns in all, within a process's usual 1,024 descriptors.
  sort.max_open_runs = std::max<size_t>(2, kMergeOpenRuns / std::max<size_t>(bands, 1));
  std::vector<std::unique_ptr<util::ExternalSorter<uint64_t>>> by_document(bands);
  std::vector<uint64_t> values;
  for (size_t t = 0; t < bands; ++t) {
    by_document[t] = std::make_unique<util::ExternalSorter<uint64_t>>(sort);
    util::ExternalSorter<uint64_t>& sorter = *by_document[t];
    SIMDEX_RETURN_IF_ERROR(sorter.status());
    SIMDEX_RETURN_IF_ERROR(r.ForEachBlockStrictly(t, &values, [&](uint64_t, const std::vector<uint64_t>&) {
      ++stats.blocks_read;
      for (uint64_t& v : values) {
        if ((v & mask) >= n) {
          return r.InFile(Status::Corruption("table " + std::to_string(t) + ": document " + std::to_string(v & mask) +
                                             " past the last"));
        }
        v = std::rotr(v, ob);
      }
      return sorter.Add(values.data(), values.size());
    }));
    SIMDEX_RETURN_IF_ERROR(sorter.Finish());
  }

  // Whether the front of band t's stream is a value of document d (*v: the
  // value, rotated back); a read error is the stream's status().
  std::vector<index::SortedStream<uint64_t>> streams;
  for (const auto& sorter : by_document) streams.emplace_back(sorter.get());
  auto holds = [&](size_t t, uint64_t d, uint64_t* v) {
    if (!streams[t].Peek(v)) return false;
    *v = std::rotl(*v, ob);
    return (*v & mask) == d;
  };
  std::vector<uint64_t> keys(bands);
  for (uint64_t d = 0; d < n; ++d) {
    bool banded = false;
    for (size_t t = 0; t < bands; ++t) {
      uint64_t v = 0;
      const bool here = holds(t, d, &v);
      SIMDEX_RETURN_IF_ERROR(streams[t].status());
      if (t > 0 && here != banded) {
        return r.InFile(Status::Corruption("table " + std::to_string(t) + (here ? " holds" : " does not hold") +
                                           " document " + std::to_string(d) + ", table 0 " +
                                           (here ? "does not" : "does")));
      }
      banded = here;
      if (!here) continue;
      keys[t] = v & ~mask;
      streams[t].Pop();
      const bool twice = holds(t, d, &v);
      SIMDEX_RETURN_IF_ERROR(streams[t].status());
      if (twice) {
        return r.InFile(Status::Corruption("table " + std::to_string(t) + ": document " + std::to_string(d) +
                                           " is in the table twice"));
      }
    }
    const uint64_t id = r.IdAt(d);
    bool deleted = false;
    uint64_t number = 0;
    const std::string_view s = r.has_id_map ? r.id_map.Get(id) : std::string_view();
    if (r.has_id_map) {
      deleted = delete_strings.find(s) != delete_strings.end();
      if (deleted) deleted_strings->insert(s);
    } else {
      const bool listed = delete_numbers.count(id) > 0;
      if (listed) deleted_numbers->insert(id);
      deleted = listed || delete_ranges.Contains(id);
    }
    if (deleted) {
      ++stats.deleted;
      continue;
    }
    // A document the batch gives again: refused after this pass, or replaced.
    if (batch_ids.checking() && (r.has_id_map ? batch_ids.Find(s) : batch_ids.Find(id)) && batch_ids.replacing()) {
      ++stats.replaced;
      continue;
    }
    if (r.has_id_map) SIMDEX_RETURN_IF_ERROR(docs->IdNumber(s, &number));
    else number = docs->IdNumber(id);
    std::memcpy(document.data(), r.Signature(d), sb);
    if (m.sketch_k > 0) {
      bool cut = false;
      SIMDEX_RETURN_IF_ERROR(r.InFile(r.SketchAt(d, &hashes, &cut)));
      minhash::PutSketchSlot(hashes, cut, static_cast<int>(m.sketch_k), document.data() + sb);
    }
    SIMDEX_RETURN_IF_ERROR(docs->AddStored(number, banded ? keys.data() : empty_keys.data(), document.data(), banded));
  }
  for (const auto& sorter : by_document) {
    stats.spilled_runs += sorter->stats().runs_spilled;
    stats.spilled_bytes += sorter->stats().bytes_spilled;
  }
  return Status::OK();
}

Status LshIndexMerger::Rep::AddOld() {
  delete_ranges.Join();
  batch_ids.Seal();
  std::set<uint64_t> deleted_numbers;
  std::set<std::string_view> deleted_strings;
  SIMDEX_RETURN_IF_ERROR(AddStoredOf(*old, &deleted_numbers, &deleted_strings));
  for (const LshIndexReader* other : others) SIMDEX_RETURN_IF_ERROR(AddStoredOf(*other, &deleted_numbers, &deleted_strings));
  SIMDEX_RETURN_IF_ERROR(batch_ids.Refusal());
  stats.ids_not_found +=
      (delete_numbers.size() - deleted_numbers.size()) + (delete_strings.size() - deleted_strings.size());
  return Status::OK();
}

Status LshIndexMerger::Finish() {
  Rep& r = *rep_;
  SIMDEX_RETURN_IF_ERROR(r.Check());
  r.done = true;
  r.stats.old_documents = r.old->documents();
  r.status = r.AddOld();
  if (r.status.ok()) {
    r.stats.documents = r.docs->size();
    int ordinal_bits = r.old->rep_->meta.ordinal_bits;
    for (const LshIndexReader* other : r.others) ordinal_bits = std::max<int>(ordinal_bits, other->rep_->meta.ordinal_bits);
    r.status = r.docs->Write(r.path, ordinal_bits, &r.stats.file_bytes);
  }
  r.stats.spilled_runs += r.docs->spill_stats().runs;  // and the old tables' sorts (AddStoredOf)
  r.stats.spilled_bytes += r.docs->spill_stats().bytes;
  r.docs.reset();
  return r.status;
}

}  // namespace simdex
