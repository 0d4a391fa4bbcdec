// DocIdService: opening its state, and the cascade (Submit, Check and the
// lookups). Compaction, expiry and import are in service_maintenance.cc.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>
#include <system_error>

#include "engine/service/article_json.h"
#include "engine/service/service_rep.h"
#include "simdex/batch.h"
#include "simdex/document_reader.h"

namespace simdex {

using service::ArticleRecord;
using service::DocRecord;
using service::IndexSnapshot;
using service::OnlineIndex;
using service::OnlineMatch;
using service::UrlRecord;

namespace {

constexpr size_t kMaxKeyBytes = 4096;

int64_t SystemSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Adds the time from its construction to its destruction to *nanos, and
// `reads` to *total_reads: the decision lock's hold and the database reads
// under it, when made right after the lock and destroyed before it.
class LockWatch {
 public:
  LockWatch(std::atomic<uint64_t>* nanos, std::atomic<uint64_t>* total_reads)
      : nanos_(nanos), total_reads_(total_reads), start_(std::chrono::steady_clock::now()) {}
  ~LockWatch() {
    const auto held = std::chrono::steady_clock::now() - start_;
    nanos_->fetch_add(static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(held).count()),
                      std::memory_order_relaxed);
    total_reads_->fetch_add(reads, std::memory_order_relaxed);
  }
  LockWatch(const LockWatch&) = delete;
  LockWatch& operator=(const LockWatch&) = delete;

  uint64_t reads = 0;

 private:
  std::atomic<uint64_t>* nanos_;
  std::atomic<uint64_t>* total_reads_;
  std::chrono::steady_clock::time_point start_;
};

// One table keyed by all 64 bits for exact matches; else Scheme::Covering.
Status DefaultScheme(int k, std::string* spec) {
  if (k == 0) {
    *spec = "16,16,16,16:0";
    return Status::OK();
  }
  Scheme scheme;
  SIMDEX_RETURN_IF_ERROR(Scheme::Covering(k, &scheme));
  *spec = scheme.Name();
  return Status::OK();
}

// The fingerprint index of a MinHash state's short contents: k + 1 blocks,
// one of which agrees (k + 1 tables). It holds short contents only, so it
// trades a slower search (each table keyed by ~64 / (k + 1) bits) for an
// index the size of a few t10 tables, where Scheme::Covering(10) has 286.
std::string ShortContentScheme(int k) {
  const int blocks = k + 1;
  std::string spec;
  for (int i = 0; i < blocks; ++i) {
    spec += std::to_string(64 / blocks + (i < 64 % blocks ? 1 : 0));
    spec += i + 1 < blocks ? "," : ":";
  }
  return spec + std::to_string(k);
}

// Whether a is closer than b, or as close and older.
bool Closer(const OnlineMatch& a, const OnlineMatch& b) {
  return a.distance != b.distance ? a.distance < b.distance : a.seq < b.seq;
}

// The closest match with seq >= cutoff, the oldest among equals; nullptr
// when none.
const OnlineMatch* Best(const std::vector<OnlineMatch>& found, uint64_t cutoff) {
  const OnlineMatch* best = nullptr;
  for (const OnlineMatch& m : found) {
    if (m.seq >= cutoff && (best == nullptr || Closer(m, *best))) best = &m;
  }
  return best;
}

// What an answer says of the article record `a` (not the matched id).
void FillAnswer(const ArticleRecord& a, DocIdAnswer* answer) {
  answer->doc_id = service::MixSeq(a.doc_seq);
  answer->reason = static_cast<FilterReason>(a.reason);
  answer->duplicate = answer->reason != FilterReason::kNew;
  answer->distance = a.distance;
  answer->similarity = a.similarity;
}

Status ValidateArticle(const Article& a) {
  if (a.id_json.size() > kMaxKeyBytes) return Status::InvalidArgument("id is longer than 4096 bytes");
  if (a.url.size() > kMaxKeyBytes) return Status::InvalidArgument("url is longer than 4096 bytes");
  return Status::OK();
}

Status ParseScheme(const std::string& spec, int k, const char* field, Scheme* out) {
  Status s = Scheme::Parse(spec, out);
  if (!s.ok()) return s.WithContext(std::string(field) + " scheme");
  if (k < 0 || k > out->k()) {
    return Status::InvalidArgument(std::string(field) + " distance " + std::to_string(k) + " is outside 0.." +
                                   std::to_string(out->k()) + " of the " + field + " scheme " + out->Name());
  }
  return Status::OK();
}

// A scheme given for a state that exists must be the one it was created
// with (its files and delta are laid out by it); "" asks for nothing.
Status SchemeUnchanged(const std::string& given, const Scheme& stored, const char* field) {
  if (given.empty()) return Status::OK();
  Scheme scheme;
  Status s = Scheme::Parse(given, &scheme);
  if (!s.ok()) return s.WithContext(std::string(field) + " scheme");
  if (scheme.Name() != stored.Name()) {
    return Status::InvalidArgument(std::string("the ") + field + " scheme " + scheme.Name() + " is not " +
                                   stored.Name() + ", the one the state was created with (it cannot change)");
  }
  return Status::OK();
}

std::string FormatDouble(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Records the content method (and MinHash's profile, bands and bits) in the
// manifest of a state being created; checks an existing state's against
// the options. *settings gets the MinHash stage's settings.
Status SettleContentMethod(const ServiceOptions& o, bool exists, const std::string& where, service::Manifest* m,
                           service::BandSettings* settings) {
  const bool minhash = o.content_method == ContentMethod::kMinHash;
  if (minhash) {
    if (!(o.threshold > 0 && o.threshold <= 1)) {
      return Status::InvalidArgument("the threshold " + FormatDouble(o.threshold) + " is not in (0, 1]");
    }
    if (!ValidSignatureBits(o.signature_bits)) {
      return Status::InvalidArgument("signature bits " + std::to_string(o.signature_bits) +
                                     " is not one of 1, 2, 4, 8, 16, 32");
    }
    if ((o.bands.bands > 0) != (o.bands.rows > 0)) return Status::InvalidArgument("bands and rows go together");
    if (o.bands.bands > 0) SIMDEX_RETURN_IF_ERROR(CheckLshBands(o.bands, o.minhash.num_perm));
  }
  if (!exists) {
    m->content_method = static_cast<uint8_t>(o.content_method);
    if (minhash) {
      const LshBands b = o.bands.bands > 0 ? o.bands
                         : o.exact          ? ExactCandidateBands(o.threshold, o.minhash.num_perm)
                                            : DefaultLshBands(o.threshold, o.minhash.num_perm);
      m->minhash_profile = MinHashProfile(o.minhash);
      m->bands = static_cast<uint32_t>(b.bands);
      m->rows = static_cast<uint32_t>(b.rows);
      m->signature_bits = static_cast<uint8_t>(o.signature_bits);
    }
  }
  const ContentMethod stored = static_cast<ContentMethod>(m->content_method);
  if (stored != o.content_method) {
    return Status::InvalidArgument(where + " matches contents by " + ContentMethodName(stored) +
                                   ", not by " + ContentMethodName(o.content_method) +
                                   " as the options ask (the content method is fixed when the state is created)");
  }
  if (!minhash) return Status::OK();
  const std::string profile = MinHashProfile(o.minhash);
  if (m->minhash_profile != profile) {
    return Status::InvalidArgument(where + " records MinHash signatures of '" + m->minhash_profile +
                                   "'; the options make '" + profile + "' (fixed when the state is created)");
  }
  const std::string bands = std::to_string(m->bands) + " x " + std::to_string(m->rows);
  if (o.bands.bands > 0 && (static_cast<uint32_t>(o.bands.bands) != m->bands || static_cast<uint32_t>(o.bands.rows) != m->rows)) {
    return Status::InvalidArgument(where + " has " + bands + " bands; the options ask for " +
                                   std::to_string(o.bands.bands) + " x " + std::to_string(o.bands.rows) +
                                   " (fixed when the state is created)");
  }
  if (static_cast<uint32_t>(o.signature_bits) != m->signature_bits) {
    return Status::InvalidArgument(where + " keeps signatures of " + std::to_string(m->signature_bits) +
                                   " bits a value; the options ask for " + std::to_string(o.signature_bits) +
                                   " (fixed when the state is created)");
  }
  settings->minhash = o.minhash;
  settings->bands = LshBands{static_cast<int>(m->bands), static_cast<int>(m->rows)};
  settings->signature_bits = m->signature_bits;
  settings->threshold = o.threshold;
  return CheckLshBands(settings->bands, o.minhash.num_perm).WithContext(where);
}

}  // namespace

uint64_t DocIdService::Rep::LiveEntries(const IndexSnapshot& snap) {
  const uint64_t bands = snap.bands.live == nullptr ? 0 : snap.bands.live->size();
  return std::max({snap.fields[kTitle].live->size(), snap.fields[kContent].live->size(), bands});
}

const char* ContentMethodName(ContentMethod method) {
  return method == ContentMethod::kMinHash ? "minhash" : method == ContentMethod::kAuto ? "auto" : "simhash";
}

const char* FilterReasonName(FilterReason reason) {
  switch (reason) {
    case FilterReason::kNew: return "new";
    case FilterReason::kUrl: return "url";
    case FilterReason::kTitle: return "title";
    case FilterReason::kContent: return "content";
  }
  return "new";
}

std::string FormatDocId(uint64_t doc_id) { return FormatHexFingerprint(doc_id); }

bool ParseDocId(std::string_view hex, uint64_t* doc_id) {
  return hex.size() == 16 && ParseHexFingerprint(hex, doc_id);
}

int64_t DocIdService::Rep::Now() const { return options.clock ? options.clock() : SystemSeconds(); }

int64_t DocIdService::Rep::Second() const { return std::max(Now(), timeline.last_second()); }

uint64_t DocIdService::Rep::CurrentCutoff() const {
  return Cutoff(Second(), published_seq.load(std::memory_order_acquire));
}

uint64_t DocIdService::Rep::Cutoff(int64_t second, uint64_t next) const {
  if (options.window_seconds <= 0) return 0;
  return timeline.FirstSeqAfter(second - options.window_seconds, next);
}

std::shared_ptr<const IndexSnapshot> DocIdService::Rep::Snapshot() const {
  std::lock_guard<std::mutex> lock(snapshot_mu);
  return snapshot;
}

void DocIdService::Rep::Publish(std::shared_ptr<const IndexSnapshot> s) {
  std::lock_guard<std::mutex> lock(snapshot_mu);
  snapshot = std::move(s);
}

Prepared DocIdService::Rep::Prepare(std::string_view title, std::string_view content) {
  Prepared p;
  {
    auto f = fingerprinters.Acquire();
    const std::string_view texts[2] = {title, content};
    for (int field : {kTitle, kContent}) {
      const FingerprintResult r = f->Fingerprint(texts[field]);
      p.has[field] = !r.empty();
      p.fp[field] = r.fingerprint;
    }
  }
  p.k[kTitle] = ks[kTitle];
  p.k[kContent] = ks[kContent];
  if (minhash) {
    // Short contents: their fingerprints are indexed, and searched within
    // k_short with each candidate confirmed on the texts, beside the bands.
    const bool featured = p.has[kContent];
    const uint64_t length = featured && !confirmers.empty() ? CodePointLength(content) : 0;
    p.has[kContent] = featured && length > 0 && length < static_cast<uint64_t>(options.short_length);
    p.index_content_fp = featured && length > 0 && length < short_index_length;
    p.confirm = p.has[kContent];
    p.k[kContent] = k_short;
    p.bands.Make(band_settings, &*minhashers.Acquire(), content);
    if (p.bands.has && !exact_confirmers.empty()) exact_confirmers.Acquire()->Shingles(content, &p.shingles);
    return p;
  }
  p.index_content_fp = p.has[kContent];
  if (!confirmers.empty() && CodePointLength(content) < static_cast<uint64_t>(options.short_length)) {
    p.confirm = true;
    p.k[kContent] = std::max(ks[kContent], k_short);
  }
  return p;
}

Status DocIdService::Rep::PickContent(const Prepared& p, std::string_view content, Found* all, uint64_t cutoff,
                                      bool* matched, ContentMatch* out) {
  // SimHash; under MinHash a short content's two-stage check first.
  if (!minhash || p.confirm) {
    const OnlineMatch* best = nullptr;
    SIMDEX_RETURN_IF_ERROR(PickFingerprint(p, content, all, cutoff, &best));
    if (best != nullptr) *out = ContentMatch{best->seq, best->distance, 0};
    *matched = best != nullptr;
    if (*matched || !minhash) return Status::OK();
  }
  // Exact: the candidates checked on their texts (CheckBands does nothing
  // without exact_confirmers); else the estimates decide.
  SIMDEX_RETURN_IF_ERROR(CheckBands(p, cutoff, candidate_min_estimate, all));
  const service::BandMatch* m =
      service::BestBandMatch(exact_confirmers.empty() ? all->bands : all->checked, cutoff, options.threshold);
  if (m != nullptr) *out = ContentMatch{m->seq, 0, m->estimate};
  *matched = m != nullptr;
  return Status::OK();
}

Status DocIdService::Rep::Decide(const Prepared& p, std::string_view content, Found* found, uint64_t cutoff,
                                 const UrlRecord* live_url, ArticleRecord* rec) {
  if (live_url != nullptr) {
    rec->reason = static_cast<uint8_t>(FilterReason::kUrl);
    rec->doc_seq = live_url->doc_seq;
    return Status::OK();
  }
  if (const OnlineMatch* title = Best(found->fields[kTitle], cutoff)) {
    rec->reason = static_cast<uint8_t>(FilterReason::kTitle);
    rec->doc_seq = title->seq;
    rec->distance = static_cast<int8_t>(title->distance);
    return Status::OK();
  }
  bool matched = false;
  ContentMatch match;
  SIMDEX_RETURN_IF_ERROR(PickContent(p, content, found, cutoff, &matched, &match));
  if (matched) {
    rec->reason = static_cast<uint8_t>(FilterReason::kContent);
    rec->doc_seq = match.seq;
    rec->distance = static_cast<int8_t>(match.distance);
    rec->similarity = match.similarity;
  }
  return Status::OK();
}

Status DocIdService::Rep::CheckBands(const Prepared& p, uint64_t cutoff, double min_estimate, Found* found) {
  if (exact_confirmers.empty() || !p.bands.has) return Status::OK();
  constexpr size_t kMaxChecks = 32;  // the candidates of the highest estimates
  std::vector<const service::BandMatch*> order;
  for (const service::BandMatch& m : found->bands) {
    if (m.seq >= cutoff && m.estimate >= min_estimate) order.push_back(&m);
  }
  std::sort(order.begin(), order.end(),
            [](const service::BandMatch* a, const service::BandMatch* b) { return service::Likelier(*a, *b); });
  if (order.size() > kMaxChecks) order.resize(kMaxChecks);
  auto checked = [found](uint64_t seq) {
    return std::any_of(found->checked.begin(), found->checked.end(), [seq](const service::BandMatch& c) {
      return c.seq == seq;
    });
  };
  std::vector<uint64_t> theirs;
  std::string text;
  for (const service::BandMatch* m : order) {
    if (checked(m->seq)) continue;
    Status s = GetRepresentativeContent(m->seq, &text);
    ++found->reads;
    double j = m->estimate;  // no text to check (its representative was deleted): the estimate decides
    if (s.ok()) {
      exact_confirmers.Acquire()->Shingles(text, &theirs);
      j = Confirmer::JaccardOfShingles(p.shingles, theirs);
      confirmations.fetch_add(1, std::memory_order_relaxed);
      if (j < options.threshold) rejections.fetch_add(1, std::memory_order_relaxed);
    } else if (!s.IsNotFound()) {
      return s;
    }
    found->checked.push_back(service::BandMatch{m->seq, j});
  }
  return Status::OK();
}

Status DocIdService::Rep::PickFingerprint(const Prepared& p, std::string_view content, Found* all, uint64_t cutoff,
                                          const OnlineMatch** out) {
  *out = nullptr;
  std::vector<OnlineMatch>* found = &all->fields[kContent];
  if (!p.confirm) {
    std::erase_if(*found, [&](const OnlineMatch& m) { return m.distance > ks[kContent]; });
    *out = Best(*found, cutoff);
    return Status::OK();
  }
  std::sort(found->begin(), found->end(), Closer);
  constexpr int kMaxConfirmations = 32;  // the closest candidates; a short text has few
  int tried = 0;
  for (const OnlineMatch& m : *found) {
    if (m.seq < cutoff) continue;
    if (++tried > kMaxConfirmations) break;
    auto known = std::find_if(all->verdicts.begin(), all->verdicts.end(),
                              [&m](const Found::Verdict& v) { return v.seq == m.seq; });
    Found::Verdict v;
    if (known != all->verdicts.end()) {
      v = *known;
    } else {
      v.seq = m.seq;
      std::string text;
      Status s = GetRepresentativeContent(m.seq, &text);
      ++all->reads;
      v.no_text = s.IsNotFound();  // imported: no text to confirm on
      if (!v.no_text) {
        SIMDEX_RETURN_IF_ERROR(s);
        confirmations.fetch_add(1, std::memory_order_relaxed);
        v.confirmed = confirmers.Acquire()->Confirms(content, text);
        if (!v.confirmed) rejections.fetch_add(1, std::memory_order_relaxed);
      }
      all->verdicts.push_back(v);
    }
    if (v.no_text ? m.distance <= ks[kContent] : v.confirmed) {
      *out = &m;
      return Status::OK();
    }
  }
  return Status::OK();
}

Status DocIdService::Rep::SearchFields(const IndexSnapshot& snap, const Prepared& p, uint64_t min_seq, Found* found) {
  for (int field : {kTitle, kContent}) {
    if (!p.has[field]) continue;
    SIMDEX_RETURN_IF_ERROR(snap.fields[field].Search(p.fp[field], p.k[field], min_seq, &found->fields[field]));
  }
  if (p.bands.has) {
    service::BandWork work;
    Status s = snap.bands.Search(p.bands, min_seq, candidate_min_estimate, &found->bands, &work);
    CountBandWork(work);
    SIMDEX_RETURN_IF_ERROR(s);
  }
  return Status::OK();
}

void DocIdService::Rep::SearchLive(const IndexSnapshot& snap, const Prepared& p, uint64_t min_seq, Found* found) {
  for (int field : {kTitle, kContent}) {
    if (p.has[field]) snap.fields[field].live->Search(p.fp[field], p.k[field], min_seq, &found->fields[field]);
  }
  if (p.bands.has) {
    const size_t before = found->bands.size();
    snap.bands.live->Search(p.bands.keys.data(), p.bands.packed.data(), min_seq, &found->bands);
    CountBandWork(service::BandWork{found->bands.size() - before, found->bands.size() - before});
  }
}

void DocIdService::Rep::CountBandWork(const service::BandWork& work) {
  content_candidates.fetch_add(work.candidates, std::memory_order_relaxed);
  content_estimates.fetch_add(work.estimates, std::memory_order_relaxed);
}

Status DocIdService::Rep::GetRepresentativeJson(uint64_t doc_seq, std::string* json) const {
  DocRecord doc;
  bool found = false;
  SIMDEX_RETURN_IF_ERROR(store->GetDoc(doc_seq, &doc, &found));
  if (found && doc.has_rep) SIMDEX_RETURN_IF_ERROR(store->GetRep(doc_seq, json, &found));
  if (!found || !doc.has_rep) return Status::NotFound("doc " + std::to_string(doc_seq) + " has no representative");
  return Status::OK();
}

Status DocIdService::Rep::GetRepresentativeContent(uint64_t doc_seq, std::string* content) const {
  std::string json;
  SIMDEX_RETURN_IF_ERROR(GetRepresentativeJson(doc_seq, &json));
  return service::ContentOf(json, content).WithContext("the representative of doc " + std::to_string(doc_seq));
}

Status DocIdService::Rep::AnswerOf(const ArticleRecord& a, DocIdAnswer* answer) const {
  *answer = DocIdAnswer();
  FillAnswer(a, answer);
  if (answer->duplicate) {
    DocRecord doc;
    bool found = false;
    SIMDEX_RETURN_IF_ERROR(store->GetDoc(a.doc_seq, &doc, &found));
    if (found) answer->matched_id_json = doc.id_json;
  }
  return Status::OK();
}

Status DocIdService::Rep::SyncThrough(uint64_t seq) {
  std::lock_guard<std::mutex> lock(sync_mu);
  if (synced_seq > seq) return Status::OK();  // a sync after our write covered it
  const uint64_t target = published_seq.load(std::memory_order_acquire);
  SIMDEX_RETURN_IF_ERROR(store->SyncWal());
  synced_seq = target;
  return Status::OK();
}

DocIdService::DocIdService(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

DocIdService::~DocIdService() {
  {
    std::lock_guard<std::mutex> lock(rep_->background_mu);
    rep_->background_stop = true;
  }
  rep_->background_cv.notify_all();
  if (rep_->background.joinable()) rep_->background.join();
  // A clean shutdown leaves no log to replay; a failure only costs the next
  // start that replay.
  Status s = rep_->store->Flush();
  (void)s;
}

static_assert(OnlineIndex::kMaxEntries == kMaxLiveEntries && service::OnlineBands::kMaxEntries == kMaxLiveEntries);

Status DocIdService::Open(const ServiceOptions& options, std::unique_ptr<DocIdService>* out) {
  if (options.data_dir.empty()) return Status::InvalidArgument("no data directory");
  if (options.compact_entries < 1) return Status::InvalidArgument("compact_entries must be at least 1");
  if (options.max_live_entries < options.compact_entries || options.max_live_entries > kMaxLiveEntries) {
    return Status::InvalidArgument("max_live_entries " + std::to_string(options.max_live_entries) +
                                   " is not in compact_entries (" + std::to_string(options.compact_entries) + ") to " +
                                   std::to_string(kMaxLiveEntries));
  }
  if (options.window_seconds < 0) return Status::InvalidArgument("the window must not be negative");
  if (options.retain_seconds < 0) return Status::InvalidArgument("the retention must not be negative");
  if (options.retain_seconds > 0 && (options.window_seconds == 0 || options.retain_seconds < options.window_seconds)) {
    return Status::InvalidArgument("the retention (" + std::to_string(options.retain_seconds) +
                                   " s) must be at least the window (" + std::to_string(options.window_seconds) +
                                   " s), and needs a window: docIds in the window keep their records");
  }
  auto rep = std::make_unique<Rep>();
  Rep& r = *rep;
  r.options = options;
  r.index_dir = options.data_dir + "/index";
  std::error_code ec;
  std::filesystem::create_directories(r.index_dir, ec);
  if (ec) return Status::IOError("cannot create " + r.index_dir + ": " + ec.message());
  SIMDEX_RETURN_IF_ERROR(service::Store::Open(options.data_dir + "/db", &r.store));

  bool found = false;
  SIMDEX_RETURN_IF_ERROR(r.store->GetManifest(&r.manifest, &found));
  if (options.short_length < 0) return Status::InvalidArgument("short_length must not be negative");
  // The content method first: it decides what the content index holds.
  if (r.options.content_method == ContentMethod::kAuto) {
    r.options.content_method = found ? static_cast<ContentMethod>(r.manifest.content_method) : ContentMethod::kMinHash;
  }
  if (r.options.content_method == ContentMethod::kMinHash) {
    MinHashOptions recorded;
    const bool recorded_ok = found && ParseMinHashProfile(r.manifest.minhash_profile, &recorded).ok();
    r.options.minhash.shingles.words = r.options.shingle_words.has_value() ? *r.options.shingle_words
                                       : recorded_ok                     ? recorded.shingles.words
                                                                         : ShingleOptions{}.words;
  }
  SIMDEX_RETURN_IF_ERROR(
      SettleContentMethod(r.options, found, "the service state in " + options.data_dir, &r.manifest, &r.band_settings));
  r.minhash = r.options.content_method == ContentMethod::kMinHash;
  // Short contents' two-stage check: under SimHash when `confirm` is given,
  // under MinHash unless it is "off".
  std::string confirm = options.confirm == "off" ? "" : options.confirm;
  if (r.minhash && options.confirm.empty()) confirm = kDefaultShortConfirm;
  const int short_k = options.k_short >= 0 ? options.k_short : r.minhash ? kDefaultShortK : options.k;
  r.k_short = confirm.empty() ? options.k : short_k;
  // A MinHash state's content index holds short contents' fingerprints only.
  const int content_k = r.minhash ? (confirm.empty() ? 0 : r.k_short) : std::max(options.k, r.k_short);
  if (!found) {
    r.manifest.content_scheme = options.content_scheme;
    r.manifest.title_scheme = options.title_scheme;
    if (r.manifest.content_scheme.empty()) {
      if (r.minhash) {
        r.manifest.content_scheme = ShortContentScheme(short_k);
      } else {
        SIMDEX_RETURN_IF_ERROR(DefaultScheme(content_k, &r.manifest.content_scheme));
      }
    }
    if (r.manifest.title_scheme.empty()) SIMDEX_RETURN_IF_ERROR(DefaultScheme(options.k_title, &r.manifest.title_scheme));
  }
  if (r.minhash && options.k_short < 0 && !confirm.empty()) {
    // A MinHash state made before short contents were indexed has t10
    // there: the default k_short is what its scheme covers.
    Scheme stored;
    if (Scheme::Parse(r.manifest.content_scheme, &stored).ok()) r.k_short = std::min(r.k_short, stored.k());
  }
  SIMDEX_RETURN_IF_ERROR(ParseScheme(r.manifest.content_scheme, r.minhash ? std::min(content_k, r.k_short) : content_k,
                                     "content", &r.schemes[kContent]));
  SIMDEX_RETURN_IF_ERROR(ParseScheme(r.manifest.title_scheme, options.k_title, "title", &r.schemes[kTitle]));
  SIMDEX_RETURN_IF_ERROR(SchemeUnchanged(options.content_scheme, r.schemes[kContent], "content"));
  SIMDEX_RETURN_IF_ERROR(SchemeUnchanged(options.title_scheme, r.schemes[kTitle], "title"));
  r.ks[kContent] = options.k;
  r.ks[kTitle] = options.k_title;
  std::unique_ptr<Fingerprinter> fingerprinter;
  SIMDEX_RETURN_IF_ERROR(Fingerprinter::Create(options.fingerprint, &fingerprinter));
  r.profile = fingerprinter->profile();
  r.fingerprinters.Reset(std::move(fingerprinter));
  // The stored fingerprints and the new ones must be comparable; a state
  // made before profiles were recorded (manifest version 2) records none.
  if (!found) r.manifest.profile = r.profile;
  SIMDEX_RETURN_IF_ERROR(CheckSameProfile("the service state in " + options.data_dir, r.manifest.profile,
                                          "the service's fingerprint options", r.profile));
  if (r.minhash) {
    std::unique_ptr<MinHasher> hasher;
    SIMDEX_RETURN_IF_ERROR(MinHasher::Create(r.options.minhash, &hasher));
    r.minhashers.Reset(std::move(hasher));
    r.candidate_min_estimate = options.threshold;
    if (options.exact) {
      // The signatures' own shingles, checked at the threshold.
      char spec[64];
      std::snprintf(spec, sizeof spec, "jaccard-shingles:%.17g", options.threshold);
      ConfirmOptions parsed;
      SIMDEX_RETURN_IF_ERROR(ParseConfirmSpec(spec, &parsed));
      parsed.words = r.options.minhash.shingles.words;
      std::unique_ptr<Confirmer> checker;
      SIMDEX_RETURN_IF_ERROR(Confirmer::Create(parsed, &checker));
      r.exact_confirmers.Reset(std::move(checker));
      r.candidate_min_estimate = ExactEstimateFilter(options.threshold, r.options.minhash.num_perm);
    }
  }
  if (!found) {
    service::Store::Batch batch(*r.store);
    batch.PutManifest(r.manifest);
    SIMDEX_RETURN_IF_ERROR(r.store->Write(&batch, /*sync=*/true));
  }
  if (!confirm.empty()) {
    ConfirmOptions parsed;
    SIMDEX_RETURN_IF_ERROR(ParseConfirmSpec(confirm, &parsed));
    std::unique_ptr<Confirmer> confirmer;
    SIMDEX_RETURN_IF_ERROR(Confirmer::Create(parsed, &confirmer));
    r.confirmers.Reset(std::move(confirmer));
    // A text can be confirmed against one at most 1 / threshold times as
    // long (exactly for edit similarity, about for shingle Jaccard).
    r.short_index_length =
        static_cast<uint64_t>(static_cast<double>(options.short_length) / std::max(parsed.threshold, 0.25));
  }
  SIMDEX_RETURN_IF_ERROR(r.store->NextSeq(&r.next_seq));
  service::Totals totals;
  bool totals_found = false;
  SIMDEX_RETURN_IF_ERROR(r.store->GetTotals(&totals, &totals_found));
  if (totals_found) {
    for (int i = 0; i < 4; ++i) r.total_by_reason[i] = totals.by_reason[i];
    r.total_docs = totals.docs;
  } else if (found) {
    SIMDEX_RETURN_IF_ERROR(r.CountTotals());
  }
  // Everything may have been deleted by the retention: seqs are never reused.
  r.next_seq = std::max(r.next_seq, r.manifest.retained_seq);
  r.retained_seq.store(r.manifest.retained_seq);
  SIMDEX_RETURN_IF_ERROR(r.store->ForEachTime([&](int64_t second, uint64_t seq) {
    r.timeline.Record(second, seq);
    return true;
  }));

  // The manifest's files; anything else in the directory is left over from
  // a compaction that did not finish.
  auto snap = std::make_shared<IndexSnapshot>();
  std::set<std::string> named;
  for (const service::FileRecord& f : r.manifest.files) {
    Status s = service::OpenFile(r.index_dir, f, options, snap.get());
    if (!s.ok()) return s.WithContext("index file " + f.name + " named by the manifest");
    named.insert(f.name);
  }
  for (const auto& entry : std::filesystem::directory_iterator(r.index_dir, ec)) {
    if (named.count(entry.path().filename().string()) == 0) std::filesystem::remove(entry.path(), ec);
  }
  r.NewDeltas(snap.get());
  Status replayed;
  service::BandQuery entry;
  SIMDEX_RETURN_IF_ERROR(r.store->ForEachDoc(r.manifest.compacted_seq, [&](uint64_t seq, const DocRecord& d) {
    if (r.LiveEntries(*snap) == kMaxLiveEntries) {  // max_live_entries bounds new documents; this, the log's
      replayed = Status::NotSupported("the log holds more than " + std::to_string(kMaxLiveEntries) +
                                      " documents since the last compaction, more than a live delta holds");
      return false;
    }
    if (d.has_title) snap->fields[kTitle].live->Add(seq, d.title_fp);
    if (d.has_content) snap->fields[kContent].live->Add(seq, d.content_fp);
    if (d.has_bands) {
      replayed = r.minhash ? entry.Decode(r.band_settings, d.bands)
                           : Status::Corruption("a MinHash entry in a state that matches contents by SimHash");
      if (!replayed.ok()) {
        replayed = replayed.WithContext("doc " + std::to_string(seq));
        return false;
      }
      snap->bands.live->Add(seq, entry.keys.data(), entry.packed.data());
    }
    return true;
  }));
  SIMDEX_RETURN_IF_ERROR(replayed);
  r.Publish(std::move(snap));
  r.published_seq.store(r.next_seq, std::memory_order_release);
  r.synced_seq = r.next_seq;
  if (options.background_compaction) r.background = std::thread([&r] { r.BackgroundLoop(); });
  out->reset(new DocIdService(std::move(rep)));
  return Status::OK();
}

service::Totals DocIdService::Rep::Totals() const {
  service::Totals t;
  for (int i = 0; i < 4; ++i) t.by_reason[i] = total_by_reason[i].load(std::memory_order_relaxed);
  t.docs = total_docs.load(std::memory_order_relaxed);
  return t;
}

Status DocIdService::Rep::CountTotals() {
  uint64_t reasons[4] = {}, stored_docs = 0;
  SIMDEX_RETURN_IF_ERROR(store->ForEachArticle(0, next_seq, [&](uint64_t, const ArticleRecord& a) {
    ++reasons[a.reason & 3];
    return true;
  }));
  SIMDEX_RETURN_IF_ERROR(store->ForEachDoc(0, [&](uint64_t, const DocRecord&) {
    ++stored_docs;
    return true;
  }));
  for (int i = 0; i < 4; ++i) total_by_reason[i] = reasons[i];
  total_docs = stored_docs;
  return Status::OK();
}

void DocIdService::Rep::NewDeltas(IndexSnapshot* snap) const {
  for (int field : {kTitle, kContent}) {
    // Under MinHash the content fingerprint delta holds short contents
    // (none without a confirmer): an eighth of the buckets.
    const uint64_t expected = !minhash || field == kTitle ? options.compact_entries
                              : confirmers.empty()         ? 1
                                                           : std::max<uint64_t>(1, options.compact_entries / 8);
    snap->fields[field].live = std::make_shared<OnlineIndex>(schemes[field], expected);
  }
  if (minhash) {
    snap->bands.live = std::make_shared<service::OnlineBands>(band_settings.bands.bands, band_settings.minhash.num_perm,
                                                              band_settings.signature_bits, options.compact_entries);
  }
}

// What Submit read of the database before the decision lock: the url's
// record, and the record of the docId the decision will likely name (the
// url's, the title's or the content's match then), read from generation
// `seen` of the writes on (service::WriteMarks).
struct EarlyReads {
  uint64_t seen = 0;
  bool id_known = false;
  bool url_known = false;
  UrlRecord url;
  bool doc_read = false;
  bool doc_found = false;
  uint64_t doc_seq = 0;
  DocRecord doc;
};

void DocIdService::Rep::DropChangedChecks(uint64_t seen, Found* found) const {
  std::erase_if(found->checked, [&](const service::BandMatch& m) { return writes.DocWrittenSince(m.seq, seen); });
  std::erase_if(found->verdicts, [&](const Found::Verdict& v) { return writes.DocWrittenSince(v.seq, seen); });
}

Status DocIdService::Submit(const Article& article, DocIdAnswer* answer) {
  SIMDEX_RETURN_IF_ERROR(ValidateArticle(article));
  Rep& r = *rep_;
  *answer = DocIdAnswer();
  using Key = service::WriteMarks::Key;
  // Outside the decision lock: fingerprints, the searches of what is
  // indexed now (the files are most of the work), and the database reads
  // the decision will likely need. Under the lock a read is reused unless
  // its key may have been written since (WriteMarks), so the decision is
  // the one the serial order gives (docs/service.md, "Serialized
  // decisions").
  EarlyReads early;
  early.seen = r.writes.Seen();  // before the first read
  const Prepared p = r.Prepare(article.title, article.content);
  const uint64_t seen = r.published_seq.load(std::memory_order_acquire);
  std::shared_ptr<const IndexSnapshot> snap = r.Snapshot();
  const uint64_t early_cutoff = r.Cutoff(r.Now(), seen);
  Found found;
  SIMDEX_RETURN_IF_ERROR(r.SearchFields(*snap, p, early_cutoff, &found));
  // The exact check of the candidates found so far, outside the lock too.
  SIMDEX_RETURN_IF_ERROR(r.CheckBands(p, early_cutoff, r.candidate_min_estimate, &found));
  if (!article.id_json.empty()) {
    uint64_t earlier = 0;
    SIMDEX_RETURN_IF_ERROR(r.store->GetArticleSeq(article.id_json, &earlier, &early.id_known));
    if (early.id_known) {
      // A retry, answered as the first time without the lock: it writes
      // nothing, and its place in the serial order is this read. (If the
      // retention deleted the article meanwhile, the lock's re-read decides.)
      ArticleRecord a;
      bool stored = false;
      SIMDEX_RETURN_IF_ERROR(r.store->GetArticle(earlier, &a, &stored));
      if (stored) {
        SIMDEX_RETURN_IF_ERROR(r.AnswerOf(a, answer));
        answer->replayed = true;
        r.replays.fetch_add(1, std::memory_order_relaxed);
        return Status::OK();
      }
    }
  }
  if (!article.url.empty()) SIMDEX_RETURN_IF_ERROR(r.store->GetUrl(article.url, &early.url, &early.url_known));
  {
    // The decision as it stands, to read its docId's record now.
    ArticleRecord guess;
    const bool url_live = early.url_known && early.url.doc_seq >= early_cutoff;
    SIMDEX_RETURN_IF_ERROR(r.Decide(p, article.content, &found, early_cutoff, url_live ? &early.url : nullptr, &guess));
    early.doc_seq = guess.doc_seq;
    early.doc_read = guess.reason != static_cast<uint8_t>(FilterReason::kNew);
    if (early.doc_read) SIMDEX_RETURN_IF_ERROR(r.store->GetDoc(early.doc_seq, &early.doc, &early.doc_found));
  }

  uint64_t seq = 0;
  bool made = false;
  {
    std::lock_guard<std::mutex> lock(r.decision_mu);
    LockWatch watch(&r.decision_lock_nanos, &r.decision_lock_reads);
    const int64_t second = r.Second();
    const uint64_t cutoff = r.Cutoff(second, r.next_seq);
    const bool id_to_read = !article.id_json.empty() &&
                            (early.id_known || r.writes.WrittenSince(Key::kArticleId, article.id_json, early.seen));
    if (id_to_read) {
      uint64_t earlier;
      bool known = false;
      ++watch.reads;
      SIMDEX_RETURN_IF_ERROR(r.store->GetArticleSeq(article.id_json, &earlier, &known));
      if (known) {
        ArticleRecord a;
        watch.reads += 2;
        SIMDEX_RETURN_IF_ERROR(r.store->GetArticle(earlier, &a, &known));
        if (!known) return Status::Corruption("article_ids names article " + std::to_string(earlier) + ", not stored");
        SIMDEX_RETURN_IF_ERROR(r.AnswerOf(a, answer));
        answer->replayed = true;
        r.replays.fetch_add(1, std::memory_order_relaxed);
        return Status::OK();
      }
    }
    UrlRecord url = early.url;
    bool url_known = early.url_known;
    if (!article.url.empty() && r.writes.WrittenSince(Key::kUrl, article.url, early.seen)) {
      ++watch.reads;
      SIMDEX_RETURN_IF_ERROR(r.store->GetUrl(article.url, &url, &url_known));
    }
    const bool url_live = url_known && url.doc_seq >= cutoff;
    // What was inserted since the searches: the live delta's newer entries,
    // or everything again if a compaction moved entries meanwhile.
    std::shared_ptr<const IndexSnapshot> now = r.Snapshot();
    if (now == snap) {
      r.SearchLive(*now, p, std::max(seen, cutoff), &found);
    } else {
      found.Clear();
      SIMDEX_RETURN_IF_ERROR(r.SearchFields(*now, p, cutoff, &found));
    }
    // Representatives rewritten since their checks are checked again.
    r.DropChangedChecks(early.seen, &found);
    const uint64_t reads_before = found.reads;

    seq = r.next_seq;
    ArticleRecord rec;
    rec.second = second;
    rec.id_json = article.id_json;
    rec.url = article.url;
    rec.doc_seq = seq;  // unless it matches
    SIMDEX_RETURN_IF_ERROR(r.Decide(p, article.content, &found, cutoff, url_live ? &url : nullptr, &rec));
    watch.reads += found.reads - reads_before;
    made = rec.reason == static_cast<uint8_t>(FilterReason::kNew);

    if (made && r.LiveEntries(*now) >= r.options.max_live_entries) {
      return Status::IOError("the live delta holds " + std::to_string(r.LiveEntries(*now)) +
                             " entries, the most max_live_entries allows: compactions have not emptied it (is the "
                             "disk full?)");
    }
    // Every key written is marked before the write (WriteMarks).
    const uint64_t generation = r.writes.Begin();
    service::Store::Batch batch(*r.store);
    batch.PutArticle(seq, rec);
    if (!article.id_json.empty()) {
      batch.PutArticleId(article.id_json, seq);
      r.writes.Mark(Key::kArticleId, article.id_json, generation);
    }
    if (!article.url.empty() && !url_live) {
      batch.PutUrl(article.url, UrlRecord{seq, rec.doc_seq});
      r.writes.Mark(Key::kUrl, article.url, generation);
    }
    DocRecord doc;
    if (made) {
      doc.second = second;
      doc.has_title = p.has[kTitle];
      doc.has_content = p.index_content_fp;
      doc.title_fp = p.fp[kTitle];
      doc.content_fp = p.fp[kContent];
      doc.has_bands = p.bands.has;
      if (p.bands.has) doc.bands = p.bands.Encode();
      doc.score = article.score;
      doc.rep_seq = seq;
      doc.has_rep = true;
      doc.id_json = article.id_json;
      batch.PutDoc(seq, doc);
      batch.PutRep(seq, article.json);
      r.writes.MarkDoc(seq, generation);
    } else {
      bool doc_found = false;
      if (early.doc_read && early.doc_seq == rec.doc_seq && !r.writes.DocWrittenSince(rec.doc_seq, early.seen)) {
        doc = early.doc;
        doc_found = early.doc_found;
      } else {
        ++watch.reads;
        SIMDEX_RETURN_IF_ERROR(r.store->GetDoc(rec.doc_seq, &doc, &doc_found));
      }
      if (!doc_found) return Status::Corruption("doc " + std::to_string(rec.doc_seq) + " is indexed but not stored");
      answer->matched_id_json = doc.id_json;
      if (!r.options.keep_field.empty() && article.score > doc.score) {
        doc.score = article.score;
        doc.rep_seq = seq;
        doc.has_rep = true;
        batch.PutDoc(rec.doc_seq, doc);
        batch.PutRep(rec.doc_seq, article.json);
        r.writes.MarkDoc(rec.doc_seq, generation);
      }
    }
    const bool new_second = second > r.timeline.last_second();
    if (new_second) batch.PutTime(second, seq);
    service::Totals totals = r.Totals();
    ++totals.by_reason[rec.reason];
    totals.docs += made ? 1 : 0;
    batch.PutTotals(totals);
    SIMDEX_RETURN_IF_ERROR(r.store->Write(&batch, /*sync=*/false));
    r.writes.End(generation);
    r.total_by_reason[rec.reason].fetch_add(1, std::memory_order_relaxed);
    if (made) r.total_docs.fetch_add(1, std::memory_order_relaxed);

    // Durable in the log: now visible.
    r.timeline.Record(second, seq);
    r.next_seq = seq + 1;
    if (made) {
      if (p.has[kTitle]) now->fields[kTitle].live->Add(seq, p.fp[kTitle]);
      if (p.index_content_fp) now->fields[kContent].live->Add(seq, p.fp[kContent]);
      if (p.bands.has) now->bands.live->Add(seq, p.bands.keys.data(), p.bands.packed.data());
    }
    r.published_seq.store(seq + 1, std::memory_order_release);
    FillAnswer(rec, answer);
    r.articles.fetch_add(1, std::memory_order_relaxed);
    r.by_reason[rec.reason].fetch_add(1, std::memory_order_relaxed);
    if (made) r.docs.fetch_add(1, std::memory_order_relaxed);
    if (made && r.LiveEntries(*now) >= r.options.compact_entries) {
      r.WakeBackground();
    }
  }
  if (r.options.sync) SIMDEX_RETURN_IF_ERROR(r.SyncThrough(seq));
  return Status::OK();
}

Status DocIdService::Check(const Article& article, DocIdAnswer* answer) const {
  SIMDEX_RETURN_IF_ERROR(ValidateArticle(article));
  Rep& r = *rep_;
  *answer = DocIdAnswer();
  if (!article.id_json.empty()) {
    Status s = LookupArticle(article.id_json, answer);
    if (s.ok()) {
      answer->replayed = true;
      return s;
    }
    if (!s.IsNotFound()) return s;
  }
  const uint64_t cutoff = r.CurrentCutoff();
  UrlRecord url;
  bool url_known = false;
  if (!article.url.empty()) SIMDEX_RETURN_IF_ERROR(r.store->GetUrl(article.url, &url, &url_known));
  const bool url_live = url_known && url.doc_seq >= cutoff;
  Prepared p;
  Found found;
  if (!url_live) {
    p = r.Prepare(article.title, article.content);
    SIMDEX_RETURN_IF_ERROR(r.SearchFields(*r.Snapshot(), p, cutoff, &found));
  }
  ArticleRecord rec;
  SIMDEX_RETURN_IF_ERROR(r.Decide(p, article.content, &found, cutoff, url_live ? &url : nullptr, &rec));
  if (rec.reason == static_cast<uint8_t>(FilterReason::kNew)) return Status::OK();
  return r.AnswerOf(rec, answer);
}

Status DocIdService::LookupArticle(std::string_view id_json, DocIdAnswer* answer) const {
  uint64_t seq = 0;
  bool found = false;
  SIMDEX_RETURN_IF_ERROR(rep_->store->GetArticleSeq(id_json, &seq, &found));
  if (!found) return Status::NotFound("no article has the id " + std::string(id_json.substr(0, 200)));
  ArticleRecord a;
  SIMDEX_RETURN_IF_ERROR(rep_->store->GetArticle(seq, &a, &found));
  if (!found) return Status::Corruption("article_ids names article " + std::to_string(seq) + ", not stored");
  return rep_->AnswerOf(a, answer);
}

Status DocIdService::GetRepresentative(uint64_t doc_id, std::string* json) const {
  // The store's errors are never NotFound: a missing record is *found false.
  Status s = rep_->GetRepresentativeJson(service::UnmixDocId(doc_id), json);
  return s.IsNotFound() ? Status::NotFound("no representative for docId " + FormatDocId(doc_id)) : s;
}

Status DocIdService::Search(Field field, uint64_t fingerprint, int k, std::vector<ServiceMatch>* out) const {
  const Rep& r = *rep_;
  const int f = static_cast<int>(field);
  if (k < 0 || k > r.schemes[f].k()) {
    return Status::InvalidArgument("k " + std::to_string(k) + " is outside 0.." + std::to_string(r.schemes[f].k()) +
                                   " of the " + (f == kTitle ? "title" : "content") + " scheme");
  }
  const uint64_t cutoff = r.CurrentCutoff();
  std::vector<OnlineMatch> found;
  SIMDEX_RETURN_IF_ERROR(r.Snapshot()->fields[f].Search(fingerprint, k, cutoff, &found));
  std::sort(found.begin(), found.end(), Closer);
  out->clear();
  for (const OnlineMatch& m : found) out->push_back(ServiceMatch{service::MixSeq(m.seq), m.fingerprint, m.distance});
  return Status::OK();
}

Status DocIdService::SearchContent(std::string_view content, const ContentSearchOptions& options,
                                   std::vector<ServiceMatch>* out) const {
  Rep& r = *rep_;
  out->clear();
  if (!r.minhash) {
    return Status::InvalidArgument("this state matches contents by SimHash fingerprints: search them with Search");
  }
  for (double t : options.thresholds) {
    if (!(t > 0 && t <= 1)) return Status::InvalidArgument("the threshold " + FormatDouble(t) + " is not in (0, 1]");
  }
  const double threshold = options.thresholds.empty()
                               ? r.options.threshold
                               : *std::min_element(options.thresholds.begin(), options.thresholds.end());
  const Prepared p = r.Prepare("", content);
  const uint64_t cutoff = r.CurrentCutoff();
  const auto snap = r.Snapshot();
  Found found;
  if (p.has[kContent]) {
    SIMDEX_RETURN_IF_ERROR(snap->fields[kContent].Search(p.fp[kContent], p.k[kContent], cutoff, &found.fields[kContent]));
  }
  // Exact: the candidates within three standard errors below the
  // threshold, each checked on its representative's text.
  const bool exact = !r.exact_confirmers.empty();
  const double min_estimate = exact ? ExactEstimateFilter(threshold, r.options.minhash.num_perm) : threshold;
  if (p.bands.has) {
    service::BandWork work;
    SIMDEX_RETURN_IF_ERROR(snap->bands.Search(p.bands, cutoff, min_estimate, &found.bands, &work));
  }
  if (exact) {
    SIMDEX_RETURN_IF_ERROR(r.CheckBands(p, cutoff, min_estimate, &found));
    found.bands = found.checked;
  }
  std::set<uint64_t> seen;
  // A short content's candidates its text confirms, closest first (the 32
  // closest at most, as the cascade tries).
  std::vector<OnlineMatch>& near = found.fields[kContent];
  std::sort(near.begin(), near.end(), Closer);
  if (near.size() > 32) near.resize(32);
  for (const OnlineMatch& m : near) {
    std::string text;
    Status s = r.GetRepresentativeContent(m.seq, &text);
    if (s.IsNotFound()) continue;
    SIMDEX_RETURN_IF_ERROR(s);
    if (r.confirmers.Acquire()->Confirms(content, text) && seen.insert(m.seq).second) {
      out->push_back(ServiceMatch{service::MixSeq(m.seq), m.fingerprint, m.distance});
    }
  }
  // Then the band candidates at or above the threshold, best first.
  std::erase_if(found.bands, [&](const service::BandMatch& m) { return m.estimate < threshold; });
  std::sort(found.bands.begin(), found.bands.end(), service::Likelier);
  for (const service::BandMatch& m : found.bands) {
    if (!seen.insert(m.seq).second) continue;
    ServiceMatch match{service::MixSeq(m.seq), 0, 0};
    match.similarity = m.estimate;
    for (double t : options.thresholds) {
      if (m.estimate >= t) match.threshold = std::max(match.threshold, t);
    }
    out->push_back(match);
  }
  if (options.top_k > 0 && out->size() > options.top_k) out->resize(static_cast<size_t>(options.top_k));
  return Status::OK();
}

const std::string& DocIdService::profile() const { return rep_->profile; }

FingerprintResult DocIdService::FingerprintText(std::string_view text) const {
  return rep_->fingerprinters.Acquire()->Fingerprint(text);
}

ServiceStats DocIdService::stats() const {
  const Rep& r = *rep_;
  ServiceStats s;
  s.articles = r.articles.load();
  s.replays = r.replays.load();
  s.docs = r.docs.load();
  for (int i = 0; i < 4; ++i) s.by_reason[i] = r.by_reason[i].load();
  const service::Totals totals = r.Totals();
  for (int i = 0; i < 4; ++i) s.total_by_reason[i] = totals.by_reason[i];
  s.total_articles = totals.articles();
  s.total_docs = totals.docs;
  s.compactions = r.compactions.load();
  s.merges = r.merges.load();
  s.expired_files = r.expired_files.load();
  s.confirmations = r.confirmations.load();
  s.rejections = r.rejections.load();
  s.content_candidates = r.content_candidates.load();
  s.content_estimates = r.content_estimates.load();
  s.pruned_articles = r.pruned_articles.load();
  s.retained_first_seq = r.retained_seq.load();
  const auto snap = r.Snapshot();
  auto add = [&s](const auto& part) {
    s.delta_entries += part.delta_entries();
    s.file_entries += part.file_entries();
    s.files += part.files.size();
    s.delta_memory_bytes += part.delta_memory_bytes();
    s.file_bytes += part.file_bytes();
  };
  for (int field : {kTitle, kContent}) {
    add(snap->fields[field]);
    snap->fields[field].AddPreloadStats(&s);
  }
  add(snap->bands);
  s.next_seq = r.published_seq.load();
  s.window_first_seq = r.Cutoff(r.Second(), s.next_seq);
  const service::Store::Counters store = r.store->counters();
  s.store_write_errors = store.write_errors;
  s.store_reopens = store.reopens;
  s.wal_syncs = store.syncs;
  s.decision_lock_microseconds = r.decision_lock_nanos.load(std::memory_order_relaxed) / 1000;
  s.decision_lock_reads = r.decision_lock_reads.load(std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(r.stats_mu);
  s.last_compaction_seconds = r.last_compaction_seconds;
  s.last_error = r.last_error;
  return s;
}

const ServiceOptions& DocIdService::options() const { return rep_->options; }

}  // namespace simdex
