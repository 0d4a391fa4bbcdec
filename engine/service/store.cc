#include "engine/service/store.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include <rocksdb/comparator.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/slice.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

namespace simdex::service {

namespace {

enum Family { kMeta, kArticles, kArticleIds, kUrls, kDocs, kReps, kTimes, kFamilies };
const char* const kFamilyNames[kFamilies] = {"default",  // rocksdb::kDefaultColumnFamilyName
                                             "articles", "article_ids", "urls", "docs", "reps", "times"};
const char kManifestKey[] = "manifest";
const char kTotalsKey[] = "totals";

rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }

Status FromRocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::OK();
  if (s.IsCorruption()) return Status::Corruption(what + ": " + s.ToString());
  if (s.IsInvalidArgument()) return Status::InvalidArgument(what + ": " + s.ToString());
  return Status::IOError(what + ": " + s.ToString());
}

// RocksDB's info log, WARN and above, appended to DIR/LOG with plain
// write(2) calls whose errors are ignored. RocksDB's own file logger
// asserts when it writes again after a failed write (a full disk), and
// Debian's librocksdb keeps its assertions: the process aborted.
class LogFile : public rocksdb::Logger {
 public:
  explicit LogFile(const std::string& path)
      : rocksdb::Logger(rocksdb::InfoLogLevel::WARN_LEVEL),
        fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) {}
  ~LogFile() override {
    if (fd_ >= 0) ::close(fd_);
  }

  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    if (fd_ < 0) return;
    char line[1024];
    const std::time_t now = std::time(nullptr);
    std::tm tm;
    gmtime_r(&now, &tm);
    size_t n = std::strftime(line, sizeof line, "%Y-%m-%dT%H:%M:%SZ ", &tm);
    const int m = std::vsnprintf(line + n, sizeof line - n - 1, format, ap);
    n = std::min(sizeof line - 2, n + static_cast<size_t>(std::max(m, 0)));
    line[n++] = '\n';
    const ssize_t written = ::write(fd_, line, n);
    (void)written;  // a full disk loses log lines, nothing else
  }

 private:
  int fd_;
};

// A column family by name and id, for write batches. A batch records only
// the id (plus the comparator's timestamp size), so a batch built with
// these stays valid across a reopen of the database, which replaces the
// database's own handles.
class FamilyRef : public rocksdb::ColumnFamilyHandle {
 public:
  FamilyRef(std::string name, uint32_t id) : name_(std::move(name)), id_(id) {}
  const std::string& GetName() const override { return name_; }
  uint32_t GetID() const override { return id_; }
  rocksdb::Status GetDescriptor(rocksdb::ColumnFamilyDescriptor*) override {
    return rocksdb::Status::NotSupported("a write batch's family reference");
  }
  const rocksdb::Comparator* GetComparator() const override { return rocksdb::BytewiseComparator(); }

 private:
  std::string name_;
  uint32_t id_;
};

// Bytes free for this user on the file system of `dir` (all of them when
// unknown: then a reopen is tried and may fail).
uint64_t FreeBytes(const std::string& dir) {
  struct statvfs v;
  if (statvfs(dir.c_str(), &v) != 0) return UINT64_MAX;
  return static_cast<uint64_t>(v.f_bavail) * v.f_frsize;
}

// Bytes of the write-ahead logs (*.log) in dir: what a reopen replays and
// writes into table files.
uint64_t LogBytes(const std::string& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".log") total += entry.file_size(ec);
  }
  return total;
}

constexpr auto kReopenInterval = std::chrono::seconds(1);
constexpr uint64_t kReopenMargin = uint64_t{1} << 20;

}  // namespace

// Locks: db_mu (shared by every use of the database, exclusive to reopen
// it), then wal_mu (serializes writes with log syncs, so that no sync runs
// after or during a write that failed: Debian's librocksdb aborts on an
// assertion when a log it failed to append to is synced).
struct Store::Rep {
  std::string dir;
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  std::vector<std::unique_ptr<FamilyRef>> refs;  // for batches; stable

  mutable std::shared_mutex db_mu;
  std::unique_ptr<rocksdb::DB> db;                     // null after a failed reopen
  std::vector<rocksdb::ColumnFamilyHandle*> families;  // db's handles

  std::mutex wal_mu;
  // Set when a write or sync failed: RocksDB then refuses every write (a
  // background error) until the database is opened again. Guarded by
  // wal_mu under a shared db_mu, or by an exclusive db_mu.
  bool failed = false;
  Status failure;
  std::chrono::steady_clock::time_point last_reopen;

  std::atomic<uint64_t> write_errors{0}, reopens{0}, syncs{0};

  ~Rep() { CloseDb(); }

  Status OpenDb() {
    rocksdb::DB* raw = nullptr;
    families.clear();
    rocksdb::Status s = rocksdb::DB::Open(db_options, dir, descriptors, &families, &raw);
    if (!s.ok()) return IsLockHeld(s) ? LockHeld(s) : FromRocks(s, "cannot open the database in " + dir);
    db.reset(raw);
    return Status::OK();
  }

  // RocksDB's lock on DIR/LOCK (fcntl) is taken: by another process
  // ("While lock file: DIR/LOCK: Resource temporarily unavailable"), or by
  // this one ("lock hold by current process").
  static bool IsLockHeld(const rocksdb::Status& s) {
    const std::string m = s.ToString();
    return s.IsIOError() && (m.find("While lock file") != std::string::npos ||
                             m.find("lock hold by current process") != std::string::npos);
  }
  // Named by the state directory, the database's parent (Store::Open).
  Status LockHeld(const rocksdb::Status& s) const {
    const bool here = s.ToString().find("by current process") != std::string::npos;
    return Status::IOError(std::string(here ? "this process" : "another simdex process") +
                           " holds the state directory " + std::filesystem::path(dir).parent_path().string() +
                           " (its database lock " + dir + "/LOCK is taken): one service at a time per state "
                           "directory");
  }

  void CloseDb() {
    if (db == nullptr) return;
    for (rocksdb::ColumnFamilyHandle* h : families) db->DestroyColumnFamilyHandle(h);
    families.clear();
    db.reset();
  }

  // Records a failed write or sync. REQUIRES: wal_mu held.
  Status Fail(const rocksdb::Status& s, const std::string& what) {
    failed = true;
    failure = FromRocks(s, what + " (writes are refused until the database is reopened)");
    write_errors.fetch_add(1, std::memory_order_relaxed);
    return failure;
  }

  // REQUIRES: db_mu held (shared or exclusive).
  Status Unavailable() const {
    return Status::IOError("the database in " + dir + " is closed: " + failure.message());
  }

  // Reads key in family f: OK with found false when absent.
  Status Get(Family f, std::string_view key, std::string* value, bool* found) const {
    std::shared_lock<std::shared_mutex> lock(db_mu);
    if (db == nullptr) return Unavailable();
    rocksdb::PinnableSlice v;
    rocksdb::Status s = db->Get(rocksdb::ReadOptions(), families[f], ToSlice(key), &v);
    *found = s.ok();
    if (s.IsNotFound()) return Status::OK();
    if (!s.ok()) return FromRocks(s, "database read in " + std::string(kFamilyNames[f]));
    value->assign(v.data(), v.size());
    return Status::OK();
  }

  // Reads and decodes the record under key in family f; `context` (if
  // any) prefixes a decoding error.
  template <typename Record>
  Status GetRecord(Family f, std::string_view key, Record* out, bool* found, std::string_view context = {}) const {
    std::string v;
    SIMDEX_RETURN_IF_ERROR(Get(f, key, &v, found));
    if (!*found) return Status::OK();
    Status s = out->DecodeFrom(v);
    return context.empty() ? s : s.WithContext(context);
  }

  // The last key of family f that decodes as a seq, plus one (0 when none).
  Status NextKey(Family f, uint64_t* next) const {
    std::shared_lock<std::shared_mutex> lock(db_mu);
    if (db == nullptr) return Unavailable();
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), families[f]));
    it->SeekToLast();
    *next = 0;
    if (it->Valid()) {
      uint64_t seq;
      if (!DecodeSeqKey(std::string_view(it->key().data(), it->key().size()), &seq)) {
        return Status::Corruption(std::string(kFamilyNames[f]) + ": a key is not 8 bytes");
      }
      *next = seq + 1;
    }
    return FromRocks(it->status(), "database scan of " + std::string(kFamilyNames[f]));
  }

  // Calls fn(key, value) from `from` (inclusive) to `to` (exclusive, "" = end).
  Status Scan(Family f, const std::string& from, const std::string& to,
              const std::function<Status(std::string_view, std::string_view, bool*)>& fn) const {
    std::shared_lock<std::shared_mutex> lock(db_mu);
    if (db == nullptr) return Unavailable();
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), families[f]));
    for (it->Seek(from); it->Valid(); it->Next()) {
      const std::string_view key(it->key().data(), it->key().size());
      if (!to.empty() && key >= to) break;
      bool more = true;
      SIMDEX_RETURN_IF_ERROR(fn(key, std::string_view(it->value().data(), it->value().size()), &more));
      if (!more) break;
    }
    return FromRocks(it->status(), "database scan of " + std::string(kFamilyNames[f]));
  }

  // Calls fn(seq, record) for the records of family f keyed by seqs from
  // `from` to `to` ("" = end); `what` and the seq prefix a decoding error.
  template <typename Record>
  Status ScanRecords(Family f, uint64_t from, const std::string& to, const char* what,
                     const std::function<bool(uint64_t, const Record&)>& fn) const {
    return Scan(f, SeqKey(from), to, [&](std::string_view key, std::string_view value, bool* more) {
      uint64_t seq;
      if (!DecodeSeqKey(key, &seq)) return Status::Corruption(std::string(kFamilyNames[f]) + ": a key is not 8 bytes");
      Record r;
      SIMDEX_RETURN_IF_ERROR(r.DecodeFrom(value).WithContext(what + std::to_string(seq)));
      *more = fn(seq, r);
      return Status::OK();
    });
  }
};

struct Store::Batch::Rep {
  rocksdb::WriteBatch batch;
  const std::vector<std::unique_ptr<FamilyRef>>* families = nullptr;

  rocksdb::ColumnFamilyHandle* family(Family f) const { return (*families)[f].get(); }
  void Put(Family f, std::string_view key, std::string_view value) {
    batch.Put(family(f), ToSlice(key), ToSlice(value));
  }
  template <typename Record>
  void PutRecord(Family f, std::string_view key, const Record& r) {
    scratch.clear();
    r.EncodeTo(&scratch);
    Put(f, key, scratch);
  }
  std::string scratch;  // encoded values, reused
};

Store::Batch::Batch(const Store& store) : rep_(std::make_unique<Rep>()) { rep_->families = &store.rep_->refs; }
Store::Batch::~Batch() = default;

void Store::Batch::PutArticle(uint64_t seq, const ArticleRecord& r) { rep_->PutRecord(kArticles, SeqKey(seq), r); }
void Store::Batch::PutArticleId(std::string_view id_json, uint64_t seq) {
  rep_->Put(kArticleIds, id_json, SeqKey(seq));
}
void Store::Batch::PutUrl(std::string_view url, const UrlRecord& r) { rep_->PutRecord(kUrls, url, r); }
void Store::Batch::DeleteUrl(std::string_view url) { rep_->batch.Delete(rep_->family(kUrls), ToSlice(url)); }
void Store::Batch::DeleteArticleId(std::string_view id_json) {
  rep_->batch.Delete(rep_->family(kArticleIds), ToSlice(id_json));
}
void Store::Batch::DeleteSeqs(uint64_t from, uint64_t to) {
  for (Family f : {kArticles, kDocs, kReps}) rep_->batch.DeleteRange(rep_->family(f), SeqKey(from), SeqKey(to));
}
void Store::Batch::PutDoc(uint64_t doc_seq, const DocRecord& r) { rep_->PutRecord(kDocs, SeqKey(doc_seq), r); }
void Store::Batch::PutRep(uint64_t doc_seq, std::string_view json) { rep_->Put(kReps, SeqKey(doc_seq), json); }
void Store::Batch::PutTime(int64_t second, uint64_t first_seq) {
  rep_->Put(kTimes, SecondKey(second), SeqKey(first_seq));
}
void Store::Batch::DeleteTimesBefore(int64_t second) {
  rep_->batch.DeleteRange(rep_->family(kTimes), SecondKey(INT64_MIN), SecondKey(second));
}
void Store::Batch::PutManifest(const Manifest& m) { rep_->PutRecord(kMeta, kManifestKey, m); }
void Store::Batch::PutTotals(const Totals& t) { rep_->PutRecord(kMeta, kTotalsKey, t); }
void Store::Batch::DeleteTotals() { rep_->batch.Delete(rep_->family(kMeta), kTotalsKey); }
size_t Store::Batch::bytes() const { return rep_->batch.GetDataSize(); }
void Store::Batch::Clear() { rep_->batch.Clear(); }

Store::Store(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Store::~Store() = default;

Status Store::Open(const std::string& dir, std::unique_ptr<Store>* out) {
  auto rep = std::make_unique<Rep>();
  rep->dir = dir;
  rocksdb::DBOptions& db_options = rep->db_options;
  db_options.create_if_missing = true;
  db_options.create_missing_column_families = true;
  db_options.max_background_jobs = 2;
  db_options.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IOError("cannot create " + dir + ": " + ec.message());
  db_options.info_log = std::make_shared<LogFile>(dir + "/LOG");
  db_options.keep_log_file_num = 4;
  // Bounds what a restart after kill -9 replays: past this, the column
  // families that hold the oldest log are flushed.
  db_options.max_total_wal_size = 256 << 20;

  rocksdb::BlockBasedTableOptions point;  // families read by key: bloom filters
  point.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  std::vector<rocksdb::ColumnFamilyDescriptor>& descriptors = rep->descriptors;
  for (int f = 0; f < kFamilies; ++f) {
    rocksdb::ColumnFamilyOptions cf;
    cf.write_buffer_size = f == kReps ? 64 << 20 : 32 << 20;
    if (f == kArticleIds || f == kUrls || f == kDocs || f == kArticles) {
      cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(point));
    }
    // Article JSON compresses well. LZ4 rather than zstd: under wrk, zstd's
    // flushes took 6% of the two cores, and LZ4 served 1.07-1.38x (median
    // 1.11x) the requests/s in four alternating pairs (docs/benchmarks.md).
    if (f == kReps) cf.compression = rocksdb::kLZ4Compression;
    descriptors.emplace_back(kFamilyNames[f], cf);
  }
  SIMDEX_RETURN_IF_ERROR(rep->OpenDb());
  for (int f = 0; f < kFamilies; ++f) {
    rep->refs.push_back(std::make_unique<FamilyRef>(kFamilyNames[f], rep->families[f]->GetID()));
  }
  out->reset(new Store(std::move(rep)));
  return Status::OK();
}

Status Store::GetArticleSeq(std::string_view id_json, uint64_t* seq, bool* found) const {
  std::string v;
  SIMDEX_RETURN_IF_ERROR(rep_->Get(kArticleIds, id_json, &v, found));
  if (*found && !DecodeSeqKey(v, seq)) return Status::Corruption("article_ids: a value is not 8 bytes");
  return Status::OK();
}

Status Store::GetArticle(uint64_t seq, ArticleRecord* out, bool* found) const {
  return rep_->GetRecord(kArticles, SeqKey(seq), out, found, "article " + std::to_string(seq));
}

Status Store::GetUrl(std::string_view url, UrlRecord* out, bool* found) const {
  return rep_->GetRecord(kUrls, url, out, found);
}

Status Store::GetDoc(uint64_t doc_seq, DocRecord* out, bool* found) const {
  return rep_->GetRecord(kDocs, SeqKey(doc_seq), out, found, "doc " + std::to_string(doc_seq));
}

Status Store::GetRep(uint64_t doc_seq, std::string* json, bool* found) const {
  return rep_->Get(kReps, SeqKey(doc_seq), json, found);
}

Status Store::GetManifest(Manifest* out, bool* found) const {
  return rep_->GetRecord(kMeta, kManifestKey, out, found);
}

Status Store::GetTotals(Totals* out, bool* found) const { return rep_->GetRecord(kMeta, kTotalsKey, out, found); }

Status Store::NextSeq(uint64_t* next_seq) const {
  uint64_t articles = 0, docs = 0;
  SIMDEX_RETURN_IF_ERROR(rep_->NextKey(kArticles, &articles));
  SIMDEX_RETURN_IF_ERROR(rep_->NextKey(kDocs, &docs));
  *next_seq = std::max(articles, docs);
  return Status::OK();
}

Status Store::ForEachDoc(uint64_t from_seq, const std::function<bool(uint64_t, const DocRecord&)>& fn) const {
  return rep_->ScanRecords(kDocs, from_seq, "", "doc ", fn);
}

Status Store::ForEachArticle(uint64_t from_seq, uint64_t to_seq,
                             const std::function<bool(uint64_t, const ArticleRecord&)>& fn) const {
  return rep_->ScanRecords(kArticles, from_seq, SeqKey(to_seq), "article ", fn);
}

Status Store::ForEachTime(const std::function<bool(int64_t, uint64_t)>& fn) const {
  return rep_->Scan(kTimes, "", "", [&](std::string_view key, std::string_view value, bool* more) {
    int64_t second;
    uint64_t seq;
    if (!DecodeSecondKey(key, &second) || !DecodeSeqKey(value, &seq)) {
      return Status::Corruption("times: a key or value is not 8 bytes");
    }
    *more = fn(second, seq);
    return Status::OK();
  });
}

Status Store::Write(Batch* batch, bool sync) {
  SIMDEX_RETURN_IF_ERROR(RecoverIfFailed());
  std::shared_lock<std::shared_mutex> db(rep_->db_mu);
  std::lock_guard<std::mutex> wal(rep_->wal_mu);
  if (rep_->failed) return rep_->failure;
  rocksdb::WriteOptions options;
  options.sync = sync;
  const rocksdb::Status s = rep_->db->Write(options, &batch->rep_->batch);
  return s.ok() ? Status::OK() : rep_->Fail(s, "database write in " + rep_->dir);
}

Status Store::RecoverIfFailed() {
  Rep& r = *rep_;
  {
    std::shared_lock<std::shared_mutex> db(r.db_mu);
    std::lock_guard<std::mutex> wal(r.wal_mu);
    if (!r.failed) return Status::OK();
  }
  std::unique_lock<std::shared_mutex> db(r.db_mu);
  if (!r.failed) return Status::OK();  // reopened by another thread meanwhile
  const auto now = std::chrono::steady_clock::now();
  if (now - r.last_reopen < kReopenInterval) return r.failure;
  r.last_reopen = now;
  // Opening replays the logs into table files: wait for room for them.
  const uint64_t need = LogBytes(r.dir) + kReopenMargin, free = FreeBytes(r.dir);
  if (free < need) return r.failure;
  r.CloseDb();
  Status s = r.OpenDb();
  if (!s.ok()) {
    r.failure = s;
    return r.Unavailable();
  }
  r.failed = false;
  r.failure = Status::OK();
  r.reopens.fetch_add(1, std::memory_order_relaxed);
  return Status::OK();
}

Status Store::Flush() {
  std::shared_lock<std::shared_mutex> db(rep_->db_mu);
  std::lock_guard<std::mutex> wal(rep_->wal_mu);
  if (rep_->failed) return rep_->failure;
  rocksdb::FlushOptions options;
  options.wait = true;
  return FromRocks(rep_->db->Flush(options, rep_->families), "database flush in " + rep_->dir);
}

Status Store::SyncWal() {
  std::shared_lock<std::shared_mutex> db(rep_->db_mu);
  std::lock_guard<std::mutex> wal(rep_->wal_mu);
  if (rep_->failed) return rep_->failure;
  const rocksdb::Status s = rep_->db->SyncWAL();
  if (!s.ok()) return rep_->Fail(s, "database log sync in " + rep_->dir);
  rep_->syncs.fetch_add(1, std::memory_order_relaxed);
  return Status::OK();
}

Store::Counters Store::counters() const {
  return Counters{rep_->write_errors.load(std::memory_order_relaxed), rep_->reopens.load(std::memory_order_relaxed),
                  rep_->syncs.load(std::memory_order_relaxed)};
}

}  // namespace simdex::service
