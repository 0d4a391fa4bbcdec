// The docId service: online de-duplication of a stream of articles.
//
// Each article (an id, a url, a title, a content) gets a 64-bit docId;
// near-duplicate articles share one. Submit() runs the source documents'
// cascade: an article id answered before gets that answer again (a client
// retry); then an exact url seen before; then the title's fingerprint
// within k_title of an indexed title; then the content: its SimHash
// fingerprint within k of an indexed content's, or (content_method
// kMinHash) its MinHash signature sharing an LSH band with an indexed
// content's and an estimated Jaccard similarity of at least `threshold`.
// Only when all miss is a new docId made, and the article's url, title and
// content fingerprints (or signature) indexed under it. For each
// docId one representative copy of the article is kept: the first, or the
// one with the largest value of a numeric field (keep_field, "the most
// popular copy"). docs/service.md describes the service and its HTTP API
// (simdex/http_server.h).
//
// Serialized decisions. The check-and-insert of one article is atomic with
// respect to every other: two near-duplicates submitted at the same moment
// get one docId. The expensive parts (fingerprints, searches of the
// compressed files) run in parallel outside the decision lock; under it,
// only what was inserted since is checked again.
//
// Storage (all under data_dir): an embedded RocksDB database holds the
// article -> docId mapping, the url map, each docId's fingerprints and
// representative, and the index manifest; new fingerprints go to an
// in-memory delta (permuted tables as hashed chains) that a background
// compaction writes into compressed index files (docs/format.md) with an
// atomic rename; searches consult the delta and the files and are never
// blocked by a compaction. Every decision is written to the database's
// write-ahead log before Submit() returns, so an acknowledged answer
// survives the process being killed (kill -9); with `sync`, the log is
// also fsync'ed first, so it survives a machine crash.
//
// The retention window. A docId and everything indexed under it (url,
// title, content) expire `window_seconds` after the docId was made:
// excluded from answers from then on, and dropped from the files at
// compaction. The article -> docId mapping and the representatives are
// kept, for `retain_seconds` when it is set: the database then forgets
// articles and docIds that old at compaction (its disk use stays bounded
// by the traffic of that period).
//
// Thread safety: every method may be called from any number of threads.
#ifndef SIMDEX_SERVICE_H_
#define SIMDEX_SERVICE_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/dedup.h"
#include "simdex/fingerprint.h"
#include "simdex/minhash.h"
#include "simdex/scheme.h"
#include "simdex/status.h"

namespace simdex {

// How the content stage matches contents (docs/service.md, "MinHash content").
enum class ContentMethod : uint8_t {
  kSimHash = 0,  // fingerprints within k bits (the fields k, content_scheme, confirm, ...)
  kMinHash = 1,  // MinHash-LSH: band candidates, estimated Jaccard >= threshold
  // Not recorded: Open() takes an existing state's method, and kMinHash for
  // a new state (the default since issue 21: docs/quality.md, "Which method").
  kAuto = 2,
};
// "simhash", "minhash", "auto".
const char* ContentMethodName(ContentMethod method);

// The two-stage check of short contents in a MinHash state, unless
// ServiceOptions::confirm names another (or "off"): candidates within
// kDefaultShortK bits, confirmed by the Jaccard similarity of the texts'
// 3-code-point shingles (docs/quality.md, "Short texts").
inline constexpr const char* kDefaultShortConfirm = "jaccard:0.5";
inline constexpr int kDefaultShortK = 10;

// The most entries a live delta holds (they are chained by 32-bit links).
inline constexpr uint64_t kMaxLiveEntries = (uint64_t{1} << 32) - 1;

struct ServiceOptions {
  // Directory of the service's state; created if missing. One service at a
  // time may open it (the database holds a lock).
  std::string data_dir;
  // Largest distance (inclusive) between two contents of one docId.
  int k = Scheme::Default().k();
  // Largest distance between two titles of one docId (0: equal fingerprints).
  int k_title = 0;
  // The tables of the content and title indexes. Empty: chosen from the
  // distance ("16,16,16,16:0" for 0, t10 up to 3); a larger k needs a
  // scheme that covers it. Fixed when data_dir is created: Open() of an
  // existing state with another scheme named here is InvalidArgument
  // (empty takes the state's).
  std::string content_scheme;
  std::string title_scheme;
  // Entries older than this expire; 0 keeps everything.
  int64_t window_seconds = 48 * 3600;
  // Articles (the answer given to an article id) and docIds (their record
  // and representative) older than this are deleted from the database at
  // compaction: an article id then gets a fresh answer, and GET of such a
  // docId finds nothing. 0 keeps them forever. When set, at least
  // window_seconds (and the window must be set).
  int64_t retain_seconds = 0;
  // "" keeps each docId's first article as its representative; otherwise the
  // article with the largest value of this numeric field (missing or null
  // counts as the smallest; ties keep the earlier one).
  std::string keep_field;
  // Fingerprints of titles and contents.
  FingerprintOptions fingerprint;
  // Two-stage matching of short contents (docs/quality.md), as the source
  // documents describe it: a content of fewer than short_length code points
  // is matched within k_short and each candidate is confirmed on the texts
  // by this ConfirmOptions spec ("jaccard:0.5", "jaccard-words:0.3",
  // "edit:0.8"; simdex/confirm.h) against the candidate docId's
  // representative content; a candidate without one (imported) counts when
  // within k.
  // - kSimHash: empty (the default) is off; k_short -1 is k; the content
  //   scheme must cover max(k, k_short).
  // - kMinHash: empty is kDefaultShortConfirm, "off" is off; k_short -1 is
  //   kDefaultShortK (or what an older state's scheme covers). Contents
  //   shorter than short_length / the confirm threshold (280 code points at
  //   the defaults) have their fingerprints indexed, in a scheme of
  //   k_short + 1 tables made with the state; a short content that no
  //   candidate confirms is still matched by its bands.
  std::string confirm;
  int k_short = -1;
  int short_length = static_cast<int>(kDefaultShortLength);
  // The content stage. Fixed when data_dir is created, with the MinHash
  // profile (MinHashProfile(minhash)), the bands and signature_bits: Open()
  // of an existing state with another is InvalidArgument naming both.
  // kAuto (the default) takes the state's method, as an empty
  // content_scheme takes its scheme, and makes a new state kMinHash; after
  // Open(), options() holds the method resolved. A new state matching by
  // SimHash needs kSimHash. Titles are SimHash fingerprints either way
  // (k_title).
  ContentMethod content_method = ContentMethod::kAuto;
  // kMinHash: the signatures (the defaults of `simdex dedup --method
  // minhash`: word 5-shingles, 128 values, seed 1), the Jaccard similarity
  // a duplicate's estimate must reach, the bands ({0, 0}: the state's, or
  // for a new state ExactCandidateBands(threshold, num_perm), 21 x 6 for
  // 0.8, or without `exact` DefaultLshBands(threshold, num_perm), 16 x 8 for 0.8
  // and 128 values) and the bits of the b-bit signatures that estimate J
  // (1, 2, 4, 8, 16 or 32). The threshold may change between runs.
  MinHashOptions minhash;
  // kMinHash: how spaced text is cut into words for the shingles
  // (include/simdex/shingles.h), in place of minhash.shingles.words. Unset
  // (the default): an existing state's, as its recorded profile says, or
  // ShingleOptions' default for a new state; set: a new state's, and an
  // existing state's must be it. After Open(), options().minhash holds
  // the definition used.
  std::optional<ShingleWords> shingle_words;
  double threshold = kDefaultMinHashThreshold;
  // kMinHash: a content matches a candidate (a docId sharing a band with
  // it) only when the exact Jaccard similarity of their texts' shingles
  // (those the signatures are made of) is at least `threshold`, checked
  // against the candidate docId's representative content; the candidates
  // are those whose b-bit estimate is within three standard errors below
  // the threshold (ExactEstimateFilter of include/simdex/batch.h), the 32
  // best tried, and the match is the one of highest exact Jaccard (the
  // oldest among equals). A new state's bands are then
  // ExactCandidateBands(threshold, num_perm). false: the estimate decides
  // (at least `threshold`), as `simdex dedup --approximate`.
  bool exact = true;
  LshBands bands;
  int signature_bits = kDefaultSignatureBits;
  // The delta is compacted into a new file when it holds this many entries.
  uint64_t compact_entries = uint64_t{1} << 20;
  // The most entries the live delta may hold (about 56 bytes each for
  // SimHash's t10, more with MinHash bands): while compactions fail (a full
  // disk) it grows past compact_entries, and a new document that would
  // pass this is refused with an IOError instead. At least compact_entries,
  // at most kMaxLiveEntries (the default).
  uint64_t max_live_entries = kMaxLiveEntries;
  // A background thread compacts and expires. Off: only Compact() does.
  bool background_compaction = true;
  // Seconds between background checks for expiry when nothing is inserted.
  int maintenance_interval_seconds = 60;
  // fsync the write-ahead log before acknowledging (group commit).
  bool sync = false;
  // Seconds since the epoch. Default: the system clock. Tests give a fake.
  std::function<int64_t()> clock;
  // Threads for building compacted files.
  int build_threads = 1;
  // Read every page of each index file the service opens (at Open() and
  // after each compaction) before searches use it, so that no search waits
  // on the disk (IndexReader::Preload); with preload_lock also mlock() the
  // pages where RLIMIT_MEMLOCK allows. A refused lock is not an error: the
  // pages stay read, and ServiceStats::preload_lock_error says why.
  bool preload = false;
  bool preload_lock = false;
};

// An article as submitted. Views into the caller's memory, for the call.
struct Article {
  // The article's id as JSON text (`42` or `"a-17"`), or empty when it has
  // none. An id answered before gets the same answer.
  std::string_view id_json;
  std::string_view url;    // empty: no url check, no url indexed
  std::string_view title;
  std::string_view content;
  // The keep_field value (ServiceOptions::keep_field), -infinity when absent.
  double score = -std::numeric_limits<double>::infinity();
  // The whole article as JSON, kept as the docId's representative.
  std::string_view json;
};

enum class FilterReason { kNew, kUrl, kTitle, kContent };
// "new", "url", "title", "content".
const char* FilterReasonName(FilterReason reason);

struct DocIdAnswer {
  uint64_t doc_id = 0;
  // False for the article that made the docId.
  bool duplicate = false;
  FilterReason reason = FilterReason::kNew;
  // For a duplicate: the id (JSON text, "" if it had none) of the article
  // that made the docId, and the distance between the fingerprints that
  // matched (0 for a url, and for a MinHash content match).
  std::string matched_id_json;
  int distance = 0;
  // A content match by MinHash (content_method kMinHash): the Jaccard
  // similarity of the contents, exact (ServiceOptions::exact) or the
  // b-bit estimate; >= threshold.
  // 0 for every other answer.
  double similarity = 0;
  // The article's id was answered before: this is that answer, unchanged.
  bool replayed = false;
};

// A search's hit: the docId whose title or content matched, and how: the
// fingerprint and its distance, or (a MinHash content match) the
// estimated Jaccard similarity.
struct ServiceMatch {
  uint64_t doc_id;
  uint64_t fingerprint;
  int distance;
  double similarity = 0;  // > 0 for a MinHash band match only
  // A band match of a search with thresholds (ContentSearchOptions): the
  // highest its similarity reaches; else 0.
  double threshold = 0;
};

// What SearchContent keeps of the band candidates.
struct ContentSearchOptions {
  // The thresholds, each in (0, 1], that a band candidate's similarity
  // (its exact Jaccard, or the estimate under ServiceOptions::approximate)
  // is compared with: it is kept when it reaches the lowest, and
  // ServiceMatch::threshold names the highest it reaches. Empty: the
  // service's threshold, and no label.
  std::vector<double> thresholds;
  // 0: every match; K > 0: the first K of the answer (best first).
  uint64_t top_k = 0;
};

enum class Field { kTitle, kContent };

// Counters count since Open(); totals since the state was created (kept in
// its database; a state made before they were kept counts what it held
// when first opened so); figures are the state now.
struct ServiceStats {
  uint64_t articles = 0;        // answered, replays excluded
  uint64_t replays = 0;
  uint64_t docs = 0;            // docIds made (imported ones included)
  uint64_t by_reason[4] = {};   // answers by FilterReason
  uint64_t total_articles = 0;       // ... since the state was created
  uint64_t total_docs = 0;
  uint64_t total_by_reason[4] = {};
  uint64_t delta_entries = 0;   // title + content entries in memory
  uint64_t file_entries = 0;    // title + content entries in files
  uint64_t files = 0;
  uint64_t window_first_seq = 0;   // entries below it have expired
  uint64_t next_seq = 0;
  uint64_t compactions = 0;
  uint64_t merges = 0;          // files merged into one
  uint64_t expired_files = 0;   // files dropped whole
  uint64_t retained_first_seq = 0;  // articles and docIds below it were deleted (retain_seconds)
  uint64_t pruned_articles = 0;     // articles deleted by the retention since Open()
  double last_compaction_seconds = 0;
  uint64_t confirmations = 0;    // short-content candidates checked on their texts
  uint64_t rejections = 0;       // ... and not confirmed
  uint64_t content_candidates = 0;  // MinHash: docIds sharing a band with a content, per part searched
  uint64_t content_estimates = 0;   // MinHash: estimates of J computed for them
  uint64_t delta_memory_bytes = 0;
  uint64_t file_bytes = 0;
  uint64_t store_write_errors = 0;  // database writes and log syncs that failed
  uint64_t store_reopens = 0;       // reopens of the database after one
  uint64_t wal_syncs = 0;           // log fsyncs (sync: one covers the decisions written before it)
  uint64_t preloaded_bytes = 0;     // of the open index files, read by preload
  uint64_t locked_bytes = 0;        // of the open index files, mlock()ed
  uint64_t decision_lock_microseconds = 0;  // the decision lock held by Submit's decisions, summed
  uint64_t decision_lock_reads = 0;  // database reads done under it (most are done before it)
  std::string preload_lock_error;   // why an open file's pages could not be locked ("" if none)
  std::string last_error;       // the background thread's last failure
};

class DocIdService {
 public:
  // Opens or creates the state in options.data_dir: replays the database,
  // opens the index files of its manifest, removes files it does not name
  // (left by a compaction that did not finish), and rebuilds the delta.
  static Status Open(const ServiceOptions& options, std::unique_ptr<DocIdService>* out);
  // Stops the background thread (a compaction under way finishes first).
  ~DocIdService();

  // Runs the cascade and, when nothing matches, makes a new docId.
  // InvalidArgument for an id or url over 4096 bytes; IOError when the
  // database refuses the write (nothing is then acknowledged or indexed;
  // the next call reopens the database when there is room again). With
  // `sync`, IOError also when the log cannot be fsync'ed: the decision was
  // written but is not acknowledged; a retry with the same id gets it.
  Status Submit(const Article& article, DocIdAnswer* answer);

  // The cascade without inserting anything: what Submit would answer now
  // (a new article gets doc_id 0).
  Status Check(const Article& article, DocIdAnswer* answer) const;

  // The answer given to the article whose id is `id_json`; NotFound if none.
  Status LookupArticle(std::string_view id_json, DocIdAnswer* answer) const;

  // The representative article (its JSON) of a docId; NotFound when the
  // docId was never made or was imported without one.
  Status GetRepresentative(uint64_t doc_id, std::string* json) const;

  // Every docId in the window whose title or content fingerprint is within
  // k of `fingerprint`, closest first, then oldest first. A state of
  // content_method kMinHash indexes the fingerprints of short contents only
  // (ServiceOptions::confirm): search its contents with SearchContent.
  // REQUIRES: 0 <= k <= that index's scheme's k (else InvalidArgument).
  Status Search(Field field, uint64_t fingerprint, int k, std::vector<ServiceMatch>* out) const;

  // Every docId in the window whose content the content stage of a state
  // of content_method kMinHash matches `content` with: first, for a short
  // content, the candidates within k_short its text confirms (closest
  // first, the 32 closest tried; distance and fingerprint set); then the
  // band candidates whose similarity reaches the options' lowest threshold
  // (none: the service's), best first (similarity set; with thresholds,
  // the highest reached). Each docId once; with top_k the first K.
  // InvalidArgument for a threshold outside (0, 1]; a SimHash state's
  // contents are searched with Search (InvalidArgument here).
  Status SearchContent(std::string_view content, const ContentSearchOptions& options,
                       std::vector<ServiceMatch>* out) const;

  // Fingerprint of a title or content as the service computes it.
  FingerprintResult FingerprintText(std::string_view text) const;

  // Preloads stored documents: each (id, content fingerprint) becomes a
  // docId without title, url or representative, stamped now, written
  // straight into a compressed file. For seeding a window from an existing
  // corpus. REQUIRES: ids.size() == fingerprints.size(); ids as JSON text.
  // `profile` is the fingerprints' profile (a fingerprint file's profile());
  // one other than profile() is refused (CheckSameProfile), "" is taken as is.
  // A state of content_method kMinHash refuses every import
  // (InvalidArgument): its contents are matched by signatures of texts.
  Status Import(std::span<const std::string> id_json, std::span<const uint64_t> fingerprints,
                std::string_view profile = {});

  // The fingerprint profile of the service's fingerprints
  // (include/simdex/profile.h). Open() refuses a state that records another.
  const std::string& profile() const;

  // Compacts the delta into files, drops expired entries and merges files
  // now, waiting for it.
  Status Compact();

  ServiceStats stats() const;
  const ServiceOptions& options() const;

 private:
  struct Rep;
  explicit DocIdService(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// docIds are the sequence numbers of the articles that made them, mixed by
// a bijection so that they spread over 64 bits. 16 lower-case hex digits.
std::string FormatDocId(uint64_t doc_id);
bool ParseDocId(std::string_view hex, uint64_t* doc_id);

}  // namespace simdex

#endif  // SIMDEX_SERVICE_H_
