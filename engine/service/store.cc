#include "engine/service/store.h"

#include <algorithm>
#include <vector>

#include <rocksdb/db.h>
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

rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }

Status FromRocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::OK();
  if (s.IsCorruption()) return Status::Corruption(what + ": " + s.ToString());
  if (s.IsInvalidArgument()) return Status::InvalidArgument(what + ": " + s.ToString());
  return Status::IOError(what + ": " + s.ToString());
}

}  // namespace

struct Store::Rep {
  std::string dir;
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> families;

  ~Rep() {
    for (rocksdb::ColumnFamilyHandle* h : families) {
      if (db != nullptr) db->DestroyColumnFamilyHandle(h);
    }
  }

  // Reads key in family f: OK with found false when absent.
  Status Get(Family f, std::string_view key, std::string* value, bool* found) const {
    rocksdb::PinnableSlice v;
    rocksdb::Status s = db->Get(rocksdb::ReadOptions(), families[f], ToSlice(key), &v);
    *found = s.ok();
    if (s.IsNotFound()) return Status::OK();
    if (!s.ok()) return FromRocks(s, "database read in " + std::string(kFamilyNames[f]));
    value->assign(v.data(), v.size());
    return Status::OK();
  }

  // The last key of family f that decodes as a seq, plus one (0 when none).
  Status NextKey(Family f, uint64_t* next) const {
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
};

struct Store::Batch::Rep {
  rocksdb::WriteBatch batch;
  const std::vector<rocksdb::ColumnFamilyHandle*>* families = nullptr;

  void Put(Family f, std::string_view key, std::string_view value) {
    batch.Put((*families)[f], ToSlice(key), ToSlice(value));
  }
  std::string scratch;  // encoded values, reused
};

Store::Batch::Batch(const Store& store) : rep_(std::make_unique<Rep>()) { rep_->families = &store.rep_->families; }
Store::Batch::~Batch() = default;

void Store::Batch::PutArticle(uint64_t seq, const ArticleRecord& r) {
  rep_->scratch.clear();
  r.EncodeTo(&rep_->scratch);
  rep_->Put(kArticles, SeqKey(seq), rep_->scratch);
}
void Store::Batch::PutArticleId(std::string_view id_json, uint64_t seq) {
  rep_->Put(kArticleIds, id_json, SeqKey(seq));
}
void Store::Batch::PutUrl(std::string_view url, const UrlRecord& r) {
  rep_->scratch.clear();
  r.EncodeTo(&rep_->scratch);
  rep_->Put(kUrls, url, rep_->scratch);
}
void Store::Batch::DeleteUrl(std::string_view url) { rep_->batch.Delete((*rep_->families)[kUrls], ToSlice(url)); }
void Store::Batch::DeleteArticleId(std::string_view id_json) {
  rep_->batch.Delete((*rep_->families)[kArticleIds], ToSlice(id_json));
}
void Store::Batch::DeleteSeqs(uint64_t from, uint64_t to) {
  for (Family f : {kArticles, kDocs, kReps}) rep_->batch.DeleteRange((*rep_->families)[f], SeqKey(from), SeqKey(to));
}
void Store::Batch::PutDoc(uint64_t doc_seq, const DocRecord& r) {
  rep_->scratch.clear();
  r.EncodeTo(&rep_->scratch);
  rep_->Put(kDocs, SeqKey(doc_seq), rep_->scratch);
}
void Store::Batch::PutRep(uint64_t doc_seq, std::string_view json) { rep_->Put(kReps, SeqKey(doc_seq), json); }
void Store::Batch::PutTime(int64_t second, uint64_t first_seq) {
  rep_->Put(kTimes, SecondKey(second), SeqKey(first_seq));
}
void Store::Batch::DeleteTimesBefore(int64_t second) {
  rep_->batch.DeleteRange((*rep_->families)[kTimes], SecondKey(INT64_MIN), SecondKey(second));
}
void Store::Batch::PutManifest(const Manifest& m) {
  rep_->scratch.clear();
  m.EncodeTo(&rep_->scratch);
  rep_->Put(kMeta, kManifestKey, rep_->scratch);
}
size_t Store::Batch::bytes() const { return rep_->batch.GetDataSize(); }
void Store::Batch::Clear() { rep_->batch.Clear(); }

Store::Store(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Store::~Store() = default;

Status Store::Open(const std::string& dir, std::unique_ptr<Store>* out) {
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = true;
  db_options.create_missing_column_families = true;
  db_options.max_background_jobs = 2;
  db_options.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  db_options.keep_log_file_num = 4;
  // Bounds what a restart after kill -9 replays: past this, the column
  // families that hold the oldest log are flushed.
  db_options.max_total_wal_size = 256 << 20;

  rocksdb::BlockBasedTableOptions point;  // families read by key: bloom filters
  point.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
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
  auto rep = std::make_unique<Rep>();
  rep->dir = dir;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, dir, descriptors, &rep->families, &db);
  if (!s.ok()) return FromRocks(s, "cannot open the database in " + dir);
  rep->db.reset(db);
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
  std::string v;
  SIMDEX_RETURN_IF_ERROR(rep_->Get(kArticles, SeqKey(seq), &v, found));
  return *found ? out->DecodeFrom(v).WithContext("article " + std::to_string(seq)) : Status::OK();
}

Status Store::GetUrl(std::string_view url, UrlRecord* out, bool* found) const {
  std::string v;
  SIMDEX_RETURN_IF_ERROR(rep_->Get(kUrls, url, &v, found));
  return *found ? out->DecodeFrom(v) : Status::OK();
}

Status Store::GetDoc(uint64_t doc_seq, DocRecord* out, bool* found) const {
  std::string v;
  SIMDEX_RETURN_IF_ERROR(rep_->Get(kDocs, SeqKey(doc_seq), &v, found));
  return *found ? out->DecodeFrom(v).WithContext("doc " + std::to_string(doc_seq)) : Status::OK();
}

Status Store::GetRep(uint64_t doc_seq, std::string* json, bool* found) const {
  return rep_->Get(kReps, SeqKey(doc_seq), json, found);
}

Status Store::GetManifest(Manifest* out, bool* found) const {
  std::string v;
  SIMDEX_RETURN_IF_ERROR(rep_->Get(kMeta, kManifestKey, &v, found));
  return *found ? out->DecodeFrom(v) : Status::OK();
}

Status Store::NextSeq(uint64_t* next_seq) const {
  uint64_t articles = 0, docs = 0;
  SIMDEX_RETURN_IF_ERROR(rep_->NextKey(kArticles, &articles));
  SIMDEX_RETURN_IF_ERROR(rep_->NextKey(kDocs, &docs));
  *next_seq = std::max(articles, docs);
  return Status::OK();
}

Status Store::ForEachDoc(uint64_t from_seq, const std::function<bool(uint64_t, const DocRecord&)>& fn) const {
  return rep_->Scan(kDocs, SeqKey(from_seq), "", [&](std::string_view key, std::string_view value, bool* more) {
    uint64_t seq;
    if (!DecodeSeqKey(key, &seq)) return Status::Corruption("docs: a key is not 8 bytes");
    DocRecord r;
    SIMDEX_RETURN_IF_ERROR(r.DecodeFrom(value).WithContext("doc " + std::to_string(seq)));
    *more = fn(seq, r);
    return Status::OK();
  });
}

Status Store::ForEachArticle(uint64_t from_seq, uint64_t to_seq,
                             const std::function<bool(uint64_t, const ArticleRecord&)>& fn) const {
  return rep_->Scan(kArticles, SeqKey(from_seq), SeqKey(to_seq),
                    [&](std::string_view key, std::string_view value, bool* more) {
                      uint64_t seq;
                      if (!DecodeSeqKey(key, &seq)) return Status::Corruption("articles: a key is not 8 bytes");
                      ArticleRecord r;
                      SIMDEX_RETURN_IF_ERROR(r.DecodeFrom(value).WithContext("article " + std::to_string(seq)));
                      *more = fn(seq, r);
                      return Status::OK();
                    });
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
  rocksdb::WriteOptions options;
  options.sync = sync;
  return FromRocks(rep_->db->Write(options, &batch->rep_->batch), "database write in " + rep_->dir);
}

Status Store::Flush() {
  rocksdb::FlushOptions options;
  options.wait = true;
  return FromRocks(rep_->db->Flush(options, rep_->families), "database flush in " + rep_->dir);
}

Status Store::SyncWal() { return FromRocks(rep_->db->SyncWAL(), "database log sync in " + rep_->dir); }

uint64_t Store::DiskBytes() const {
  uint64_t total = 0;
  for (rocksdb::ColumnFamilyHandle* h : rep_->families) {
    uint64_t v = 0;
    if (rep_->db->GetIntProperty(h, rocksdb::DB::Properties::kTotalSstFilesSize, &v)) total += v;
    if (rep_->db->GetIntProperty(h, rocksdb::DB::Properties::kCurSizeAllMemTables, &v)) total += v;
  }
  return total;
}

}  // namespace simdex::service
