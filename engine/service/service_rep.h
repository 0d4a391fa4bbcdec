// DocIdService's state (include/simdex/service.h), shared by
// docid_service.cc (opening, the cascade) and service_maintenance.cc
// (compaction, expiry, import).
//
// Locks, in the order they may be taken:
//   compact_mu   one compaction or import at a time
//   decision_mu  serializes decisions, and every change of next_seq, the
//                manifest and the published snapshot's parts (the
//                manifest is changed by compact_mu's holder only, which
//                may therefore read it and write it to the store
//                without decision_mu), and every write of a url, an
//                article id or a doc record (marked in `writes`, so that
//                what was read of them before the lock can be reused
//                under it)
//   snapshot_mu  guards the snapshot pointer itself (held for a copy)
//   sync_mu      group commit of the write-ahead log
// Searches take none of them for long: they copy the snapshot pointer and
// search what it holds.
#ifndef SIMDEX_ENGINE_SERVICE_SERVICE_REP_H_
#define SIMDEX_ENGINE_SERVICE_SERVICE_REP_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/service/clone_pool.h"
#include "engine/service/field_index.h"
#include "engine/service/records.h"
#include "engine/service/store.h"
#include "engine/service/timeline.h"
#include "engine/service/write_marks.h"
#include "simdex/confirm.h"
#include "simdex/minhash.h"
#include "simdex/profile.h"
#include "simdex/fingerprint.h"
#include "simdex/service.h"

namespace simdex {

constexpr int kTitle = static_cast<int>(Field::kTitle);
constexpr int kContent = static_cast<int>(Field::kContent);

// The fingerprints of one article's title and content, and the distance
// its content is searched at (k_short for a short content to confirm);
// under MinHash also the content's signature, the content fingerprint
// being searched and indexed for short contents only.
struct Prepared {
  bool has[2] = {false, false};  // search the field's fingerprint
  uint64_t fp[2] = {0, 0};
  bool index_content_fp = false;  // a new docId indexes fp[kContent]
  bool confirm = false;
  // MinHash, exact: the content's shingle hashes (Confirmer::Shingles),
  // against which candidates' representatives are checked.
  std::vector<uint64_t> shingles;
  int k[2] = {0, 0};
  service::BandQuery bands;
};

// What the searches found: fingerprint matches of each field, MinHash
// content candidates.
struct Found {
  std::vector<service::OnlineMatch> fields[2];
  std::vector<service::BandMatch> bands;
  // MinHash, exact: the candidates checked so far, with their exact
  // Jaccard (kept across a re-search: a candidate is checked once).
  std::vector<service::BandMatch> checked;
  // Short contents to confirm: the candidates whose representatives were
  // checked so far (kept across a re-search, as `checked`).
  struct Verdict {
    uint64_t seq = 0;
    bool confirmed = false;
    bool no_text = false;  // no representative (imported): the distance decides
  };
  std::vector<Verdict> verdicts;
  // The database reads done for `checked` and `verdicts`.
  uint64_t reads = 0;
  void Clear() {
    fields[0].clear();
    fields[1].clear();
    bands.clear();
  }
};

// The content stage's match: the docId, and the distance (SimHash) or the
// estimated similarity (MinHash).
struct ContentMatch {
  uint64_t seq = 0;
  int distance = 0;
  double similarity = 0;
};

struct DocIdService::Rep {
  ServiceOptions options;
  Scheme schemes[2];
  int ks[2] = {0, 0};
  std::string index_dir;
  std::unique_ptr<service::Store> store;
  service::Timeline timeline;

  // Neither is safe for concurrent use: pools of clones.
  service::ClonePool<Fingerprinter> fingerprinters;
  std::string profile;  // the fingerprinters' profile (include/simdex/profile.h)
  // Short contents' two-stage check: empty without one (SimHash without
  // options.confirm; MinHash with confirm "off").
  service::ClonePool<Confirmer> confirmers;
  int k_short = 0;
  // MinHash: contents shorter than this (code points) have their
  // fingerprints indexed: the longest a short content can be confirmed
  // against (short_length / the confirm threshold).
  uint64_t short_index_length = 0;
  // ContentMethod::kMinHash: the stage's settings (the state's bands) and
  // signers.
  bool minhash = false;
  service::BandSettings band_settings;
  service::ClonePool<MinHasher> minhashers;
  // ServiceOptions::exact: the checker of candidates ("jaccard-shingles:T"),
  // empty otherwise; and the least estimate of a candidate.
  service::ClonePool<Confirmer> exact_confirmers;
  double candidate_min_estimate = 0;

  std::mutex compact_mu;
  // Guarded by compact_mu: next_seq when each delta still frozen in the
  // snapshot (oldest first) was frozen; more than one after a compaction
  // failed to write or install its files.
  std::vector<uint64_t> frozen_upto;
  std::mutex decision_mu;
  uint64_t next_seq = 0;          // guarded by decision_mu
  service::Manifest manifest;     // guarded by decision_mu
  service::WriteMarks writes;     // guarded by decision_mu, but for writes.Seen()
  // Every entry with a smaller seq is visible in the snapshot's parts.
  std::atomic<uint64_t> published_seq{0};

  mutable std::mutex snapshot_mu;
  std::shared_ptr<const service::IndexSnapshot> snapshot;

  std::mutex sync_mu;
  uint64_t synced_seq = 0;  // guarded by sync_mu: writes below it are fsync'ed

  std::mutex background_mu;
  std::condition_variable background_cv;
  bool background_stop = false;  // guarded by background_mu
  bool background_wake = false;  // guarded by background_mu
  std::thread background;

  std::atomic<uint64_t> articles{0}, replays{0}, docs{0}, compactions{0}, merges{0}, expired_files{0};
  std::atomic<uint64_t> confirmations{0}, rejections{0}, pruned_articles{0};
  std::atomic<uint64_t> content_candidates{0}, content_estimates{0};
  std::atomic<uint64_t> retained_seq{0};  // manifest.retained_seq, for stats()
  std::atomic<uint64_t> decision_lock_nanos{0};  // Submit's hold of decision_mu, summed
  std::atomic<uint64_t> decision_lock_reads{0};  // database reads Submit did under decision_mu
  // What the state has answered since it was created (service::Totals, in
  // the database); written under decision_mu, read by stats() at any time.
  std::atomic<uint64_t> total_by_reason[4] = {};
  std::atomic<uint64_t> total_docs{0};
  service::Totals Totals() const;
  // Counts the state's totals from its records (a state made before they
  // were kept): what it still holds, the retention's deletions aside.
  Status CountTotals();
  std::atomic<uint64_t> by_reason[4] = {};
  mutable std::mutex stats_mu;
  double last_compaction_seconds = 0;  // guarded by stats_mu
  std::string last_error;              // guarded by stats_mu

  int64_t Now() const;
  // Now(), but never before the timeline's last second.
  int64_t Second() const;
  // The first seq still in the window at `second` (0 without a window).
  uint64_t Cutoff(int64_t second, uint64_t next) const;
  // The cutoff now, of what is published.
  uint64_t CurrentCutoff() const;
  std::shared_ptr<const service::IndexSnapshot> Snapshot() const;
  void Publish(std::shared_ptr<const service::IndexSnapshot> snapshot);

  Prepared Prepare(std::string_view title, std::string_view content);
  // The content match among `found`: under SimHash the closest within k
  // (oldest among equals), or for a content to confirm, the closest within
  // k_short whose docId's representative content the confirmer accepts;
  // under MinHash the highest estimate >= threshold (oldest among equals).
  // *matched false if none.
  Status PickContent(const Prepared& p, std::string_view content, Found* found, uint64_t cutoff, bool* matched,
                     ContentMatch* out);
  // The cascade's decision: the url's docId when live_url is given (a url
  // still in the window), else the title's match, else PickContent's. Sets
  // rec's reason, doc_seq, distance and similarity on a match; leaves it
  // as it is (reason kNew) otherwise.
  Status Decide(const Prepared& p, std::string_view content, Found* found, uint64_t cutoff,
                const service::UrlRecord* live_url, service::ArticleRecord* rec);
  // MinHash, exact: checks the best candidates of found->bands (by
  // estimate, at least candidate_min_estimate, seq >= cutoff; 32 at most)
  // not checked yet against their docIds' representative contents, into
  // found->checked. Called outside the decision lock after the searches,
  // and under it for what the re-search adds.
  Status CheckBands(const Prepared& p, uint64_t cutoff, double min_estimate, Found* found);
  // PickContent's SimHash half: the match among the content's fingerprint
  // matches (found->fields[kContent]); nullptr if none. The verdicts on
  // representatives it checks are kept in found->verdicts, and reused.
  Status PickFingerprint(const Prepared& p, std::string_view content, Found* found, uint64_t cutoff,
                         const service::OnlineMatch** out);
  void CountBandWork(const service::BandWork& work);
  // Gives `snap` fresh live deltas (empty, sized for compact_entries).
  void NewDeltas(service::IndexSnapshot* snap) const;
  // The most entries any live delta of `snap` holds (what compact_entries bounds).
  static uint64_t LiveEntries(const service::IndexSnapshot& snap);

  // Searches both fields of `snap` for the prepared fingerprints, and its
  // MinHash contents for the prepared signature.
  Status SearchFields(const service::IndexSnapshot& snap, const Prepared& p, uint64_t min_seq, Found* found);
  // Searches only what the live delta of `snap` holds from min_seq on.
  void SearchLive(const service::IndexSnapshot& snap, const Prepared& p, uint64_t min_seq, Found* found);
  // The JSON of docId doc_seq's representative article; NotFound when it
  // has none (imported).
  Status GetRepresentativeJson(uint64_t doc_seq, std::string* json) const;
  // The "content" of docId doc_seq's representative article; NotFound when
  // it has none (imported).
  Status GetRepresentativeContent(uint64_t doc_seq, std::string* content) const;
  // The answer recorded for article `seq`.
  Status AnswerOf(const service::ArticleRecord& a, DocIdAnswer* answer) const;
  // Fsyncs the log unless a sync since `seq` was written already did.
  Status SyncThrough(uint64_t seq);
  // Under decision_mu: forgets the checks of `found` whose docIds' records
  // were written since the reads that began at generation `seen`.
  void DropChangedChecks(uint64_t seen, Found* found) const;

  // service_maintenance.cc
  Status CompactLocked(bool force);  // REQUIRES: compact_mu held
  Status FreezeAndWrite(bool force);
  // Writes the oldest frozen delta of each field into a file and installs
  // them. REQUIRES: compact_mu held, frozen_upto not empty.
  Status WriteFrozen();
  Status ExpireAndMerge();
  // Walks the articles from manifest.*done up to `cutoff` in chunks and
  // deletes the keys of `kind` (url or id) that still name them, chunk by
  // chunk, each chunk's end recorded in *done. The keys are read before
  // the decision lock; under it only those written since are read again
  // (WriteMarks), and end_chunk(chunk from, chunk end, batch), if given,
  // adds the chunk's other deletions. *walked (if given) counts the
  // articles walked.
  using ChunkEnd = std::function<void(uint64_t from, uint64_t end, service::Store::Batch* batch)>;
  Status PruneArticles(uint64_t service::Manifest::*done, uint64_t cutoff, service::WriteMarks::Key kind,
                       const ChunkEnd& end_chunk, uint64_t* walked);
  // Whether the url or id `key` still names article `seq`.
  Status KeyNamesArticle(service::WriteMarks::Key kind, const std::string& key, uint64_t seq, bool* names) const;
  Status PruneUrls(uint64_t cutoff);
  // Deletes the articles, article ids, docs and representatives older than
  // options.retain_seconds (nothing when it is 0).
  Status PruneRetained();
  Status InstallFiles(const std::vector<std::string>& remove, const std::vector<service::FileRecord>& add,
                      uint64_t compacted_seq, size_t frozen_to_drop);
  void BackgroundLoop();
  void WakeBackground();
};

}  // namespace simdex

#endif  // SIMDEX_ENGINE_SERVICE_SERVICE_REP_H_
