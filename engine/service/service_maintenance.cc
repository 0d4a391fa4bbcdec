// DocIdService's maintenance: compaction of the delta into files, expiry of
// whole files, size-tiered merges of files, pruning of expired urls and
// timeline points, the background thread that runs them, and Import().
//
// A compaction freezes the live delta (searches keep consulting it, new
// entries go to a fresh one), writes it into one file per field without
// holding any lock, then installs the files: the manifest is written with
// a synced write first, then the snapshot is swapped. A crash before the
// manifest write leaves files no manifest names (removed at the next
// Open) and docs that are replayed into the delta again.
//
// Merges keep the number of files logarithmic: while a field's newest file
// holds at least half as many entries as the one before it (or the one
// before is mostly expired), the two are merged into one, dropping the
// expired entries.
#include <algorithm>
#include <chrono>
#include <filesystem>

#include "engine/service/compaction.h"
#include "engine/service/service_rep.h"

namespace simdex {

using service::FileRecord;
using service::IndexSnapshot;
using service::OnlineIndex;

namespace {

// title-N.sdx, content-N.sdx, content-lsh-N.sdx (kBandField).
std::string FileName(int field, uint64_t number) {
  const char* prefix = field == kTitle ? "title-" : field == kContent ? "content-" : "content-lsh-";
  return prefix + std::to_string(number) + ".sdx";
}

// The records of one field's files in `snap`, oldest first (fields 0, 1
// and kBandField).
std::vector<const FileRecord*> RecordsOf(const IndexSnapshot& snap, int field) {
  std::vector<const FileRecord*> out;
  if (field == service::kBandField) {
    for (const auto& f : snap.bands.files) out.push_back(&f->record);
  } else {
    for (const auto& f : snap.fields[field].files) out.push_back(&f->record);
  }
  return out;
}

constexpr int kFileFields[] = {kTitle, kContent, service::kBandField};

}  // namespace

void DocIdService::Rep::WakeBackground() {
  {
    std::lock_guard<std::mutex> lock(background_mu);
    background_wake = true;
  }
  background_cv.notify_one();
}

void DocIdService::Rep::BackgroundLoop() {
  std::unique_lock<std::mutex> lock(background_mu);
  while (!background_stop) {
    background_cv.wait_for(lock, std::chrono::seconds(std::max(1, options.maintenance_interval_seconds)),
                           [&] { return background_stop || background_wake; });
    if (background_stop) break;
    background_wake = false;
    lock.unlock();
    Status s;
    {
      std::lock_guard<std::mutex> compact(compact_mu);
      s = CompactLocked(/*force=*/false);
    }
    if (!s.ok()) {
      std::lock_guard<std::mutex> stats(stats_mu);
      last_error = s.ToString();
    }
    lock.lock();
  }
}

Status DocIdService::Rep::InstallFiles(const std::vector<std::string>& remove, const std::vector<FileRecord>& add,
                                       uint64_t compacted_seq, size_t frozen_to_drop) {
  // REQUIRES: compact_mu held (the manifest's only writer).
  IndexSnapshot opened;
  for (const FileRecord& rec : add) SIMDEX_RETURN_IF_ERROR(service::OpenFile(index_dir, rec, options, &opened));
  // The synced manifest write before the decision lock: an fsync there
  // would stall every decision behind it. Only compact_mu's holder changes
  // the manifest, so `m` is still the next one when the lock is taken.
  service::Manifest m = manifest;
  std::erase_if(m.files, [&](const FileRecord& f) { return service::Named(remove, f.name); });
  m.files.insert(m.files.end(), add.begin(), add.end());
  std::sort(m.files.begin(), m.files.end(), [](const FileRecord& a, const FileRecord& b) {
    return a.field != b.field ? a.field < b.field : a.min_seq < b.min_seq;
  });
  m.compacted_seq = std::max(m.compacted_seq, compacted_seq);
  service::Store::Batch batch(*store);
  batch.PutManifest(m);
  SIMDEX_RETURN_IF_ERROR(store->Write(&batch, /*sync=*/true));
  {
    std::lock_guard<std::mutex> lock(decision_mu);
    manifest = std::move(m);

    auto next = std::make_shared<IndexSnapshot>(*Snapshot());
    for (int field : {kTitle, kContent}) next->fields[field].Install(remove, opened.fields[field], frozen_to_drop);
    next->bands.Install(remove, opened.bands, frozen_to_drop);
    Publish(std::move(next));
  }
  // Searches that still hold the old snapshot keep their mappings.
  std::error_code ec;
  for (const std::string& name : remove) std::filesystem::remove(index_dir + "/" + name, ec);
  return Status::OK();
}

Status DocIdService::Rep::FreezeAndWrite(bool force) {
  // A compaction that failed (a full disk) left its delta frozen: write it
  // first. Dropping it unwritten would lose its entries for good, since the
  // manifest's compacted_seq moves past them.
  while (!frozen_upto.empty()) SIMDEX_RETURN_IF_ERROR(WriteFrozen());
  IndexSnapshot fresh;
  NewDeltas(&fresh);
  {
    std::lock_guard<std::mutex> lock(decision_mu);
    const auto cur = Snapshot();
    const uint64_t biggest = LiveEntries(*cur);
    if (biggest == 0 || (!force && biggest < options.compact_entries)) return Status::OK();
    auto next = std::make_shared<IndexSnapshot>(*cur);
    for (int field : {kTitle, kContent}) next->fields[field].Freeze(std::move(fresh.fields[field].live));
    if (minhash) next->bands.Freeze(std::move(fresh.bands.live));
    Publish(std::move(next));
    frozen_upto.push_back(next_seq);
  }
  return WriteFrozen();
}

Status DocIdService::Rep::WriteFrozen() {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t upto = frozen_upto.front();
  std::shared_ptr<const OnlineIndex> frozen[2];
  std::shared_ptr<const service::OnlineBands> frozen_bands;
  std::string names[3];
  {
    std::lock_guard<std::mutex> lock(decision_mu);
    const auto cur = Snapshot();
    for (int field : {kTitle, kContent}) {
      frozen[field] = cur->fields[field].frozen.front();
      names[field] = FileName(field, manifest.next_file++);
    }
    if (minhash) {
      frozen_bands = cur->bands.frozen.front();
      names[service::kBandField] = FileName(service::kBandField, manifest.next_file++);
    }
  }
  const uint64_t cutoff = Cutoff(Second(), upto);
  const service::FileWork work{index_dir, size_t{256} << 20, options.build_threads, manifest.profile, band_settings};
  std::vector<FileRecord> add;
  auto write = [&](const auto& delta, int field) {
    FileRecord rec;
    SIMDEX_RETURN_IF_ERROR(WriteDeltaFile(delta, delta.size(), cutoff, work, names[field], &rec));
    rec.field = static_cast<uint8_t>(field);
    if (rec.entries > 0) add.push_back(rec);
    return Status::OK();
  };
  Status s = write(*frozen[kTitle], kTitle);
  if (s.ok()) s = write(*frozen[kContent], kContent);
  if (s.ok() && frozen_bands != nullptr) s = write(*frozen_bands, service::kBandField);
  if (s.ok()) s = InstallFiles({}, add, upto, 1);
  if (!s.ok()) {
    // Not installed: the deltas stay frozen (searched) for the next attempt.
    std::error_code ec;
    for (const std::string& name : names) {
      if (!name.empty()) std::filesystem::remove(index_dir + "/" + name, ec);
    }
    return s;
  }
  frozen_upto.erase(frozen_upto.begin());
  compactions.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(stats_mu);
  last_compaction_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Status::OK();
}

Status DocIdService::Rep::ExpireAndMerge() {
  const uint64_t cutoff = CurrentCutoff();
  std::vector<std::string> expired;
  for (int field : kFileFields) {
    for (const FileRecord* f : RecordsOf(*Snapshot(), field)) {
      if (f->max_seq < cutoff) expired.push_back(f->name);
    }
  }
  if (!expired.empty()) {
    SIMDEX_RETURN_IF_ERROR(InstallFiles(expired, {}, 0, 0));
    expired_files.fetch_add(expired.size(), std::memory_order_relaxed);
  }
  const service::FileWork work{index_dir, size_t{256} << 20, options.build_threads, manifest.profile, band_settings};
  for (int field : kFileFields) {
    for (;;) {
      const auto snap = Snapshot();
      const std::vector<const FileRecord*> files = RecordsOf(*snap, field);
      const size_t n = files.size();
      if (n < 2) break;
      const FileRecord& a = *files[n - 2];
      const FileRecord& b = *files[n - 1];
      const uint64_t span = a.max_seq - a.min_seq + 1;
      const uint64_t gone = a.min_seq < cutoff ? std::min(cutoff, a.max_seq + 1) - a.min_seq : 0;
      if (b.entries * 2 < a.entries && gone * 2 <= span) break;
      std::string name;
      {
        std::lock_guard<std::mutex> lock(decision_mu);
        name = FileName(field, manifest.next_file++);
      }
      FileRecord rec;
      auto merge = [&](const auto& part) {
        return MergeFiles(*part.files[n - 2], *part.files[n - 1], cutoff, work, name, &rec);
      };
      SIMDEX_RETURN_IF_ERROR(field == service::kBandField ? merge(snap->bands) : merge(snap->fields[field]));
      std::vector<FileRecord> add;
      if (rec.entries > 0) add.push_back(rec);
      const Status installed = InstallFiles({a.name, b.name}, add, 0, 0);
      if (!installed.ok() || rec.entries == 0) {
        std::error_code ec;
        std::filesystem::remove(index_dir + "/" + name, ec);
      }
      SIMDEX_RETURN_IF_ERROR(installed);
      merges.fetch_add(1, std::memory_order_relaxed);
    }
  }
  return Status::OK();
}

Status DocIdService::Rep::KeyNamesArticle(service::WriteMarks::Key kind, const std::string& key, uint64_t seq,
                                          bool* names) const {
  bool found = false;
  if (kind == service::WriteMarks::Key::kUrl) {
    service::UrlRecord rec;
    SIMDEX_RETURN_IF_ERROR(store->GetUrl(key, &rec, &found));
    *names = found && rec.article_seq == seq;
  } else {
    uint64_t current = 0;
    SIMDEX_RETURN_IF_ERROR(store->GetArticleSeq(key, &current, &found));
    *names = found && current == seq;
  }
  return Status::OK();
}

Status DocIdService::Rep::PruneArticles(uint64_t service::Manifest::*done, uint64_t cutoff,
                                        service::WriteMarks::Key kind, const ChunkEnd& end_chunk, uint64_t* walked) {
  constexpr size_t kChunk = 4096;
  const bool urls = kind == service::WriteMarks::Key::kUrl;
  for (;;) {
    uint64_t from;
    {
      std::lock_guard<std::mutex> lock(decision_mu);
      from = manifest.*done;
    }
    if (from >= cutoff) break;
    const uint64_t written = writes.Seen();  // before the reads
    std::vector<std::pair<uint64_t, std::string>> keys;
    uint64_t end = cutoff;
    size_t seen = 0;
    SIMDEX_RETURN_IF_ERROR(store->ForEachArticle(from, cutoff, [&](uint64_t seq, const service::ArticleRecord& a) {
      std::string k = urls ? a.url : a.id_json;
      if (!k.empty()) keys.emplace_back(seq, std::move(k));
      if (++seen == kChunk) {
        end = seq + 1;
        return false;
      }
      return true;
    }));
    // Before the lock: the keys that still name their article. One that a
    // newer article took never names this one again.
    std::vector<std::pair<uint64_t, std::string>> doomed;
    for (auto& [seq, k] : keys) {
      bool names = false;
      SIMDEX_RETURN_IF_ERROR(KeyNamesArticle(kind, k, seq, &names));
      if (names) doomed.emplace_back(seq, std::move(k));
    }
    // Under the decision lock: a key written since its read (a decision
    // took it) is read again, and kept if a newer article names it.
    std::lock_guard<std::mutex> lock(decision_mu);
    const uint64_t generation = writes.Begin();
    service::Store::Batch batch(*store);
    for (const auto& [seq, k] : doomed) {
      if (writes.WrittenSince(kind, k, written)) {
        bool names = false;
        SIMDEX_RETURN_IF_ERROR(KeyNamesArticle(kind, k, seq, &names));
        if (!names) continue;
      }
      if (urls) {
        batch.DeleteUrl(k);
      } else {
        batch.DeleteArticleId(k);
      }
      writes.Mark(kind, k, generation);
    }
    if (end_chunk) end_chunk(from, end, &batch);
    service::Manifest m = manifest;
    m.*done = end;
    batch.PutManifest(m);
    SIMDEX_RETURN_IF_ERROR(store->Write(&batch, /*sync=*/false));
    writes.End(generation);
    manifest = std::move(m);
    if (walked != nullptr) *walked += seen;
  }
  return Status::OK();
}

Status DocIdService::Rep::PruneUrls(uint64_t cutoff) {
  SIMDEX_RETURN_IF_ERROR(
      PruneArticles(&service::Manifest::url_pruned_seq, cutoff, service::WriteMarks::Key::kUrl, nullptr, nullptr));
  if (options.window_seconds > 0) {
    // Timeline points that no cutoff (of the window or the retention) can
    // ask for again.
    const int64_t through = Second() - std::max(options.window_seconds, options.retain_seconds);
    std::lock_guard<std::mutex> lock(decision_mu);
    service::Store::Batch batch(*store);
    batch.DeleteTimesBefore(through + 1);
    SIMDEX_RETURN_IF_ERROR(store->Write(&batch, /*sync=*/false));
    timeline.DropThrough(through);
  }
  return Status::OK();
}

Status DocIdService::Rep::CompactLocked(bool force) {
  SIMDEX_RETURN_IF_ERROR(FreezeAndWrite(force));
  SIMDEX_RETURN_IF_ERROR(ExpireAndMerge());
  const uint64_t cutoff = CurrentCutoff();
  SIMDEX_RETURN_IF_ERROR(PruneUrls(cutoff));
  return PruneRetained();
}

Status DocIdService::Rep::PruneRetained() {
  if (options.retain_seconds <= 0) return Status::OK();
  const uint64_t cutoff =
      timeline.FirstSeqAfter(Second() - options.retain_seconds, published_seq.load(std::memory_order_acquire));
  uint64_t walked = 0;
  Status s = PruneArticles(
      &service::Manifest::retained_seq, cutoff, service::WriteMarks::Key::kArticleId,
      [&](uint64_t from, uint64_t end, service::Store::Batch* batch) {
        batch->DeleteSeqs(from, end);
        writes.MarkDocsBelow(end, writes.Begin());
        retained_seq.store(end);
      },
      &walked);
  pruned_articles.fetch_add(walked, std::memory_order_relaxed);
  return s;
}

Status DocIdService::Compact() {
  std::lock_guard<std::mutex> lock(rep_->compact_mu);
  return rep_->CompactLocked(/*force=*/true);
}

Status DocIdService::Import(std::span<const std::string> id_json, std::span<const uint64_t> fingerprints,
                            std::string_view profile) {
  Rep& r = *rep_;
  if (r.minhash) {
    return Status::InvalidArgument(
        "Import: this state matches contents by MinHash signatures of their texts, and fingerprint files hold "
        "none (import into a state of content method simhash)");
  }
  SIMDEX_RETURN_IF_ERROR(CheckSameProfile("the service", r.profile, "the fingerprints imported", profile));
  if (id_json.size() != fingerprints.size()) {
    return Status::InvalidArgument("Import: " + std::to_string(id_json.size()) + " ids for " +
                                   std::to_string(fingerprints.size()) + " fingerprints");
  }
  if (fingerprints.empty()) return Status::OK();
  std::lock_guard<std::mutex> compact(r.compact_mu);
  SIMDEX_RETURN_IF_ERROR(r.CompactLocked(/*force=*/true));
  uint64_t first = 0;
  int64_t second = 0;
  std::string name;
  {
    std::lock_guard<std::mutex> lock(r.decision_mu);
    const auto cur = r.Snapshot();
    if (Rep::LiveEntries(*cur) > 0) {
      return Status::InvalidArgument("Import: articles arrived during the import; import into an idle service");
    }
    first = r.next_seq;
    second = r.Second();
    name = FileName(kContent, r.manifest.next_file++);
  }
  const uint64_t n = fingerprints.size();
  service::Store::Batch batch(*r.store);
  for (uint64_t i = 0; i < n; ++i) {
    service::DocRecord doc;
    doc.second = second;
    doc.has_content = true;
    doc.content_fp = fingerprints[i];
    doc.score = -std::numeric_limits<double>::infinity();
    doc.rep_seq = first + i;
    doc.id_json = id_json[i];
    batch.PutDoc(first + i, doc);
    if (batch.bytes() >= (size_t{4} << 20) || i + 1 == n) {
      if (i + 1 == n && second > r.timeline.last_second()) batch.PutTime(second, first);
      SIMDEX_RETURN_IF_ERROR(r.store->Write(&batch, /*sync=*/false));
      batch.Clear();
    }
  }
  {
    // The imported docIds count in the state's totals once all are stored.
    std::lock_guard<std::mutex> lock(r.decision_mu);
    service::Totals totals = r.Totals();
    totals.docs += n;
    service::Store::Batch counted(*r.store);
    counted.PutTotals(totals);
    SIMDEX_RETURN_IF_ERROR(r.store->Write(&counted, /*sync=*/false));
    r.total_docs.fetch_add(n, std::memory_order_relaxed);
  }
  BuildOptions options;
  options.scheme = r.schemes[kContent];
  options.threads = std::max(1, r.options.build_threads);
  options.profile = r.manifest.profile;
  std::unique_ptr<IndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(IndexBuilder::Create(r.index_dir + "/" + name, options, &builder));
  constexpr size_t kSlice = size_t{1} << 16;
  std::vector<uint64_t> ids(kSlice);
  for (uint64_t begin = 0; begin < n; begin += kSlice) {
    const size_t len = static_cast<size_t>(std::min<uint64_t>(kSlice, n - begin));
    for (size_t i = 0; i < len; ++i) ids[i] = first + begin + i;
    SIMDEX_RETURN_IF_ERROR(builder->Add(std::span(ids.data(), len), fingerprints.subspan(begin, len)));
  }
  SIMDEX_RETURN_IF_ERROR(builder->Finish());
  FileRecord rec;
  rec.field = static_cast<uint8_t>(kContent);
  rec.name = name;
  rec.min_seq = first;
  rec.max_seq = first + n - 1;
  rec.entries = n;
  {
    // The imported seqs become visible together with their file.
    std::lock_guard<std::mutex> lock(r.decision_mu);
    r.timeline.Record(second, first);
    r.next_seq = first + n;
  }
  SIMDEX_RETURN_IF_ERROR(r.InstallFiles({}, {rec}, first + n, 0));
  r.published_seq.store(first + n, std::memory_order_release);
  r.docs.fetch_add(n, std::memory_order_relaxed);
  return r.store->Flush();
}

}  // namespace simdex
