// DocIdService: opening its state, and the cascade (Submit, Check and the
// lookups). Compaction, expiry and import are in service_maintenance.cc.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <system_error>

#include "engine/service/article_json.h"
#include "engine/service/service_rep.h"
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

// The closest match with seq >= cutoff, the oldest among equals; nullptr
// when none.
const OnlineMatch* Best(const std::vector<OnlineMatch>& found, uint64_t cutoff) {
  const OnlineMatch* best = nullptr;
  for (const OnlineMatch& m : found) {
    if (m.seq < cutoff) continue;
    if (best == nullptr || m.distance < best->distance || (m.distance == best->distance && m.seq < best->seq)) {
      best = &m;
    }
  }
  return best;
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

}  // namespace

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
  if (!confirmers.empty() && CodePointLength(content) < static_cast<uint64_t>(options.short_length)) {
    p.confirm = true;
    p.k[kContent] = std::max(ks[kContent], k_short);
  }
  return p;
}

Status DocIdService::Rep::PickContent(const Prepared& p, std::string_view content, std::vector<OnlineMatch>* found,
                                      uint64_t cutoff, const OnlineMatch** out) {
  *out = nullptr;
  if (!p.confirm) {
    std::erase_if(*found, [&](const OnlineMatch& m) { return m.distance > ks[kContent]; });
    *out = Best(*found, cutoff);
    return Status::OK();
  }
  std::sort(found->begin(), found->end(), [](const OnlineMatch& a, const OnlineMatch& b) {
    return a.distance != b.distance ? a.distance < b.distance : a.seq < b.seq;
  });
  constexpr int kMaxConfirmations = 32;  // the closest candidates; a short text has few
  int tried = 0;
  auto confirmer = confirmers.Acquire();
  for (const OnlineMatch& m : *found) {
    if (m.seq < cutoff) continue;
    if (++tried > kMaxConfirmations) break;
    std::string text;
    Status s = GetRepresentativeContent(m.seq, &text);
    if (s.IsNotFound()) {  // imported: no text to confirm on
      if (m.distance <= ks[kContent]) {
        *out = &m;
        return Status::OK();
      }
      continue;
    }
    SIMDEX_RETURN_IF_ERROR(s);
    confirmations.fetch_add(1, std::memory_order_relaxed);
    if (confirmer->Confirms(content, text)) {
      *out = &m;
      return Status::OK();
    }
    rejections.fetch_add(1, std::memory_order_relaxed);
  }
  return Status::OK();
}

Status DocIdService::Rep::SearchFields(const IndexSnapshot& snap, const Prepared& p, uint64_t min_seq,
                                       std::vector<OnlineMatch> found[2]) const {
  for (int field : {kTitle, kContent}) {
    if (!p.has[field]) continue;
    SIMDEX_RETURN_IF_ERROR(snap.fields[field].Search(p.fp[field], p.k[field], min_seq, &found[field]));
  }
  return Status::OK();
}

Status DocIdService::Rep::GetRepresentativeContent(uint64_t doc_seq, std::string* content) const {
  DocRecord doc;
  bool found = false;
  SIMDEX_RETURN_IF_ERROR(store->GetDoc(doc_seq, &doc, &found));
  std::string json;
  if (found && doc.has_rep) SIMDEX_RETURN_IF_ERROR(store->GetRep(doc_seq, &json, &found));
  if (!found || !doc.has_rep) return Status::NotFound("doc " + std::to_string(doc_seq) + " has no representative");
  return service::ContentOf(json, content).WithContext("the representative of doc " + std::to_string(doc_seq));
}

Status DocIdService::Rep::AnswerOf(const ArticleRecord& a, DocIdAnswer* answer) const {
  *answer = DocIdAnswer();
  answer->doc_id = service::MixSeq(a.doc_seq);
  answer->reason = static_cast<FilterReason>(a.reason);
  answer->duplicate = answer->reason != FilterReason::kNew;
  answer->distance = a.distance;
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

Status DocIdService::Open(const ServiceOptions& options, std::unique_ptr<DocIdService>* out) {
  if (options.data_dir.empty()) return Status::InvalidArgument("no data directory");
  if (options.compact_entries < 1) return Status::InvalidArgument("compact_entries must be at least 1");
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
  r.k_short = options.confirm.empty() ? options.k : (options.k_short < 0 ? options.k : options.k_short);
  const int content_k = std::max(options.k, r.k_short);
  if (!found) {
    r.manifest.content_scheme = options.content_scheme;
    r.manifest.title_scheme = options.title_scheme;
    if (r.manifest.content_scheme.empty()) SIMDEX_RETURN_IF_ERROR(DefaultScheme(content_k, &r.manifest.content_scheme));
    if (r.manifest.title_scheme.empty()) SIMDEX_RETURN_IF_ERROR(DefaultScheme(options.k_title, &r.manifest.title_scheme));
  }
  if (options.short_length < 0) return Status::InvalidArgument("short_length must not be negative");
  SIMDEX_RETURN_IF_ERROR(ParseScheme(r.manifest.content_scheme, content_k, "content", &r.schemes[kContent]));
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
  if (!found) {
    service::Store::Batch batch(*r.store);
    batch.PutManifest(r.manifest);
    SIMDEX_RETURN_IF_ERROR(r.store->Write(&batch, /*sync=*/true));
  }
  if (!options.confirm.empty()) {
    ConfirmOptions confirm;
    SIMDEX_RETURN_IF_ERROR(ParseConfirmSpec(options.confirm, &confirm));
    std::unique_ptr<Confirmer> confirmer;
    SIMDEX_RETURN_IF_ERROR(Confirmer::Create(confirm, &confirmer));
    r.confirmers.Reset(std::move(confirmer));
  }
  SIMDEX_RETURN_IF_ERROR(r.store->NextSeq(&r.next_seq));
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
    std::shared_ptr<service::IndexFile> file;
    Status s = service::OpenIndexFile(r.index_dir, f, options, &file);
    if (!s.ok()) return s.WithContext("index file " + f.name + " named by the manifest");
    snap->fields[f.field].files.push_back(std::move(file));
    named.insert(f.name);
  }
  for (const auto& entry : std::filesystem::directory_iterator(r.index_dir, ec)) {
    if (named.count(entry.path().filename().string()) == 0) std::filesystem::remove(entry.path(), ec);
  }
  for (int field : {kTitle, kContent}) {
    snap->fields[field].live = std::make_shared<OnlineIndex>(r.schemes[field], options.compact_entries);
  }
  uint64_t docs = 0;
  SIMDEX_RETURN_IF_ERROR(r.store->ForEachDoc(r.manifest.compacted_seq, [&](uint64_t seq, const DocRecord& d) {
    if (d.has_title) snap->fields[kTitle].live->Add(seq, d.title_fp);
    if (d.has_content) snap->fields[kContent].live->Add(seq, d.content_fp);
    ++docs;
    return true;
  }));
  r.Publish(std::move(snap));
  r.published_seq.store(r.next_seq, std::memory_order_release);
  r.synced_seq = r.next_seq;
  if (options.background_compaction) r.background = std::thread([&r] { r.BackgroundLoop(); });
  out->reset(new DocIdService(std::move(rep)));
  return Status::OK();
}

Status DocIdService::Submit(const Article& article, DocIdAnswer* answer) {
  SIMDEX_RETURN_IF_ERROR(ValidateArticle(article));
  Rep& r = *rep_;
  *answer = DocIdAnswer();
  // Outside the decision lock: fingerprints, and the searches of what is
  // indexed now (the files are most of the work).
  const Prepared p = r.Prepare(article.title, article.content);
  const uint64_t seen = r.published_seq.load(std::memory_order_acquire);
  std::shared_ptr<const IndexSnapshot> snap = r.Snapshot();
  std::vector<OnlineMatch> found[2];
  SIMDEX_RETURN_IF_ERROR(r.SearchFields(*snap, p, r.Cutoff(r.Now(), seen), found));

  uint64_t seq = 0;
  bool made = false;
  {
    std::lock_guard<std::mutex> lock(r.decision_mu);
    const int64_t second = std::max(r.Now(), r.timeline.last_second());
    const uint64_t cutoff = r.Cutoff(second, r.next_seq);
    bool known = false;
    if (!article.id_json.empty()) {
      uint64_t earlier;
      SIMDEX_RETURN_IF_ERROR(r.store->GetArticleSeq(article.id_json, &earlier, &known));
      if (known) {
        ArticleRecord a;
        SIMDEX_RETURN_IF_ERROR(r.store->GetArticle(earlier, &a, &known));
        if (!known) return Status::Corruption("article_ids names article " + std::to_string(earlier) + ", not stored");
        SIMDEX_RETURN_IF_ERROR(r.AnswerOf(a, answer));
        answer->replayed = true;
        r.replays.fetch_add(1, std::memory_order_relaxed);
        return Status::OK();
      }
    }
    UrlRecord url;
    bool url_live = false;
    if (!article.url.empty()) {
      bool url_known = false;
      SIMDEX_RETURN_IF_ERROR(r.store->GetUrl(article.url, &url, &url_known));
      url_live = url_known && url.doc_seq >= cutoff;
    }
    // What was inserted since the searches: the live delta's newer entries,
    // or everything again if a compaction moved entries meanwhile.
    std::shared_ptr<const IndexSnapshot> now = r.Snapshot();
    if (now == snap) {
      for (int field : {kTitle, kContent}) {
        if (p.has[field]) now->fields[field].live->Search(p.fp[field], p.k[field], std::max(seen, cutoff), &found[field]);
      }
    } else {
      found[kTitle].clear();
      found[kContent].clear();
      SIMDEX_RETURN_IF_ERROR(r.SearchFields(*now, p, cutoff, found));
    }

    seq = r.next_seq;
    ArticleRecord rec;
    rec.second = second;
    rec.id_json = article.id_json;
    rec.url = article.url;
    const OnlineMatch* title = Best(found[kTitle], cutoff);
    const OnlineMatch* content = nullptr;
    if (!url_live && title == nullptr) {
      SIMDEX_RETURN_IF_ERROR(r.PickContent(p, article.content, &found[kContent], cutoff, &content));
    }
    if (url_live) {
      rec.reason = static_cast<uint8_t>(FilterReason::kUrl);
      rec.doc_seq = url.doc_seq;
    } else if (title != nullptr) {
      rec.reason = static_cast<uint8_t>(FilterReason::kTitle);
      rec.doc_seq = title->seq;
      rec.distance = static_cast<int8_t>(title->distance);
    } else if (content != nullptr) {
      rec.reason = static_cast<uint8_t>(FilterReason::kContent);
      rec.doc_seq = content->seq;
      rec.distance = static_cast<int8_t>(content->distance);
    } else {
      rec.doc_seq = seq;
      made = true;
    }

    service::Store::Batch batch(*r.store);
    batch.PutArticle(seq, rec);
    if (!article.id_json.empty()) batch.PutArticleId(article.id_json, seq);
    if (!article.url.empty() && !url_live) batch.PutUrl(article.url, UrlRecord{seq, rec.doc_seq});
    DocRecord doc;
    if (made) {
      doc.second = second;
      doc.has_title = p.has[kTitle];
      doc.has_content = p.has[kContent];
      doc.title_fp = p.fp[kTitle];
      doc.content_fp = p.fp[kContent];
      doc.score = article.score;
      doc.rep_seq = seq;
      doc.has_rep = true;
      doc.id_json = article.id_json;
      batch.PutDoc(seq, doc);
      batch.PutRep(seq, article.json);
    } else {
      bool doc_found = false;
      SIMDEX_RETURN_IF_ERROR(r.store->GetDoc(rec.doc_seq, &doc, &doc_found));
      if (!doc_found) return Status::Corruption("doc " + std::to_string(rec.doc_seq) + " is indexed but not stored");
      answer->matched_id_json = doc.id_json;
      if (!r.options.keep_field.empty() && article.score > doc.score) {
        doc.score = article.score;
        doc.rep_seq = seq;
        doc.has_rep = true;
        batch.PutDoc(rec.doc_seq, doc);
        batch.PutRep(rec.doc_seq, article.json);
      }
    }
    const bool new_second = second > r.timeline.last_second();
    if (new_second) batch.PutTime(second, seq);
    SIMDEX_RETURN_IF_ERROR(r.store->Write(&batch, /*sync=*/false));

    // Durable in the log: now visible.
    r.timeline.Record(second, seq);
    r.next_seq = seq + 1;
    if (made) {
      for (int field : {kTitle, kContent}) {
        if (p.has[field]) now->fields[field].live->Add(seq, p.fp[field]);
      }
    }
    r.published_seq.store(seq + 1, std::memory_order_release);
    answer->doc_id = service::MixSeq(rec.doc_seq);
    answer->reason = static_cast<FilterReason>(rec.reason);
    answer->duplicate = !made;
    answer->distance = rec.distance;
    r.articles.fetch_add(1, std::memory_order_relaxed);
    r.by_reason[rec.reason].fetch_add(1, std::memory_order_relaxed);
    if (made) r.docs.fetch_add(1, std::memory_order_relaxed);
    if (made && std::max(now->fields[kTitle].live->size(), now->fields[kContent].live->size()) >=
                    r.options.compact_entries) {
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
  const uint64_t next = r.published_seq.load(std::memory_order_acquire);
  const uint64_t cutoff = r.Cutoff(std::max(r.Now(), r.timeline.last_second()), next);
  uint64_t doc_seq = 0;
  if (!article.url.empty()) {
    UrlRecord url;
    bool known = false;
    SIMDEX_RETURN_IF_ERROR(r.store->GetUrl(article.url, &url, &known));
    if (known && url.doc_seq >= cutoff) {
      answer->reason = FilterReason::kUrl;
      doc_seq = url.doc_seq;
    }
  }
  if (answer->reason == FilterReason::kNew) {
    const Prepared p = r.Prepare(article.title, article.content);
    std::vector<OnlineMatch> found[2];
    SIMDEX_RETURN_IF_ERROR(r.SearchFields(*r.Snapshot(), p, cutoff, found));
    const OnlineMatch* title = Best(found[kTitle], cutoff);
    const OnlineMatch* content = nullptr;
    if (title == nullptr) SIMDEX_RETURN_IF_ERROR(r.PickContent(p, article.content, &found[kContent], cutoff, &content));
    const OnlineMatch* m = title != nullptr ? title : content;
    if (m != nullptr) {
      answer->reason = title != nullptr ? FilterReason::kTitle : FilterReason::kContent;
      answer->distance = m->distance;
      doc_seq = m->seq;
    }
  }
  if (answer->reason == FilterReason::kNew) return Status::OK();
  answer->duplicate = true;
  answer->doc_id = service::MixSeq(doc_seq);
  DocRecord doc;
  bool found = false;
  SIMDEX_RETURN_IF_ERROR(r.store->GetDoc(doc_seq, &doc, &found));
  if (found) answer->matched_id_json = doc.id_json;
  return Status::OK();
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
  const uint64_t seq = service::UnmixDocId(doc_id);
  DocRecord doc;
  bool found = false;
  SIMDEX_RETURN_IF_ERROR(rep_->store->GetDoc(seq, &doc, &found));
  if (found && doc.has_rep) SIMDEX_RETURN_IF_ERROR(rep_->store->GetRep(seq, json, &found));
  if (!found || !doc.has_rep) return Status::NotFound("no representative for docId " + FormatDocId(doc_id));
  return Status::OK();
}

Status DocIdService::Search(Field field, uint64_t fingerprint, int k, std::vector<ServiceMatch>* out) const {
  const Rep& r = *rep_;
  const int f = static_cast<int>(field);
  if (k < 0 || k > r.schemes[f].k()) {
    return Status::InvalidArgument("k " + std::to_string(k) + " is outside 0.." + std::to_string(r.schemes[f].k()) +
                                   " of the " + (f == kTitle ? "title" : "content") + " scheme");
  }
  const uint64_t next = r.published_seq.load(std::memory_order_acquire);
  const uint64_t cutoff = r.Cutoff(std::max(r.Now(), r.timeline.last_second()), next);
  std::vector<OnlineMatch> found;
  SIMDEX_RETURN_IF_ERROR(r.Snapshot()->fields[f].Search(fingerprint, k, cutoff, &found));
  std::sort(found.begin(), found.end(), [](const OnlineMatch& a, const OnlineMatch& b) {
    return a.distance != b.distance ? a.distance < b.distance : a.seq < b.seq;
  });
  out->clear();
  for (const OnlineMatch& m : found) out->push_back(ServiceMatch{service::MixSeq(m.seq), m.fingerprint, m.distance});
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
  s.compactions = r.compactions.load();
  s.merges = r.merges.load();
  s.expired_files = r.expired_files.load();
  s.confirmations = r.confirmations.load();
  s.rejections = r.rejections.load();
  s.pruned_articles = r.pruned_articles.load();
  s.retained_first_seq = r.retained_seq.load();
  const auto snap = r.Snapshot();
  for (int field : {kTitle, kContent}) {
    s.delta_entries += snap->fields[field].delta_entries();
    s.file_entries += snap->fields[field].file_entries();
    s.files += snap->fields[field].files.size();
    s.delta_memory_bytes += snap->fields[field].delta_memory_bytes();
    s.file_bytes += snap->fields[field].file_bytes();
    snap->fields[field].AddPreloadStats(&s);
  }
  s.next_seq = r.published_seq.load();
  s.window_first_seq = r.Cutoff(std::max(r.Now(), r.timeline.last_second()), s.next_seq);
  const service::Store::Counters store = r.store->counters();
  s.store_write_errors = store.write_errors;
  s.store_reopens = store.reopens;
  s.wal_syncs = store.syncs;
  std::lock_guard<std::mutex> lock(r.stats_mu);
  s.last_compaction_seconds = r.last_compaction_seconds;
  s.last_error = r.last_error;
  return s;
}

const ServiceOptions& DocIdService::options() const { return rep_->options; }

}  // namespace simdex
