// Store: the docId service's RocksDB database (records.h lists its column
// families and records). Typed reads, a typed write batch, and the
// write-ahead log's sync.
//
// Every write goes through the database's write-ahead log (never
// disabled): once Write() returns, the records survive the process being
// killed; after SyncWal() they also survive a machine crash.
//
// A failed write (the disk full, out of descriptors) puts RocksDB in a
// state where it refuses every write; RocksDB's own Resume() stays "busy"
// while its recovery from a full disk waits for far more room than a small
// disk will ever have. So the store reopens the database instead: the next
// Write() after a failure (at most one attempt a second, and only when the
// file system has room for the logs that the opening replays, plus 1 MiB)
// closes and opens it again, and writes. Until then writes fail with the
// error (IOError); reads go on. A failed write left no complete record in
// the log, so the reopened database holds exactly what was acknowledged.
//
// Thread safety: every method may be called concurrently (RocksDB's own
// guarantee); a Batch is used by one thread.
#ifndef SIMDEX_ENGINE_SERVICE_STORE_H_
#define SIMDEX_ENGINE_SERVICE_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "engine/service/records.h"
#include "simdex/status.h"

namespace simdex::service {

class Store {
 public:
  // Opens or creates the database in `dir`, the state directory's db/.
  // IOError (naming the directory) when RocksDB refuses; when another
  // process (or this one) holds its lock, "another simdex process holds
  // the state directory <parent of dir> (its database lock <dir>/LOCK is
  // taken): ...".
  static Status Open(const std::string& dir, std::unique_ptr<Store>* out);
  ~Store();

  // Reads: OK with *found false when the key is absent; Corruption when a
  // value does not decode.
  Status GetArticleSeq(std::string_view id_json, uint64_t* seq, bool* found) const;
  Status GetArticle(uint64_t seq, ArticleRecord* out, bool* found) const;
  Status GetUrl(std::string_view url, UrlRecord* out, bool* found) const;
  Status GetDoc(uint64_t doc_seq, DocRecord* out, bool* found) const;
  Status GetRep(uint64_t doc_seq, std::string* json, bool* found) const;
  Status GetManifest(Manifest* out, bool* found) const;
  Status GetTotals(Totals* out, bool* found) const;

  // The first seq above every article and doc stored (0 for a new store).
  Status NextSeq(uint64_t* next_seq) const;

  // Scans in key order; fn returns false to stop early.
  Status ForEachDoc(uint64_t from_seq, const std::function<bool(uint64_t seq, const DocRecord&)>& fn) const;
  Status ForEachArticle(uint64_t from_seq, uint64_t to_seq,
                        const std::function<bool(uint64_t seq, const ArticleRecord&)>& fn) const;
  Status ForEachTime(const std::function<bool(int64_t second, uint64_t first_seq)>& fn) const;

  // Writes collected to apply atomically. REQUIRES: the store outlives it.
  class Batch {
   public:
    explicit Batch(const Store& store);
    ~Batch();
    void PutArticle(uint64_t seq, const ArticleRecord& r);
    void PutArticleId(std::string_view id_json, uint64_t seq);
    void PutUrl(std::string_view url, const UrlRecord& r);
    void DeleteUrl(std::string_view url);
    void DeleteArticleId(std::string_view id_json);
    // Deletes the articles, docs and representatives of seqs [from, to).
    void DeleteSeqs(uint64_t from, uint64_t to);
    void PutDoc(uint64_t doc_seq, const DocRecord& r);
    void PutRep(uint64_t doc_seq, std::string_view json);
    void PutTime(int64_t second, uint64_t first_seq);
    void DeleteTimesBefore(int64_t second);
    void PutManifest(const Manifest& m);
    void PutTotals(const Totals& t);
    // As in a state made before totals were kept (tests).
    void DeleteTotals();
    size_t bytes() const;
    void Clear();

   private:
    friend class Store;
    struct Rep;
    std::unique_ptr<Rep> rep_;
  };

  // Applies the batch atomically, through the write-ahead log; with sync,
  // the log is fsync'ed before returning. After a failed write, first
  // reopens the database (see above); IOError while that is not possible.
  Status Write(Batch* batch, bool sync);
  // fsyncs the write-ahead log (everything written before is then durable).
  // IOError after a failed write, until a Write() has reopened the database.
  Status SyncWal();
  // Writes every memtable to table files, so that the next Open has no log
  // to replay (a clean shutdown, the end of an import).
  Status Flush();

  struct Counters {
    uint64_t write_errors = 0;  // failed writes and syncs
    uint64_t reopens = 0;       // reopens after one
    uint64_t syncs = 0;         // SyncWal() calls that synced
  };
  Counters counters() const;

 private:
  // After a failed write: reopens the database when it may (see above).
  Status RecoverIfFailed();

  struct Rep;
  explicit Store(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex::service

#endif  // SIMDEX_ENGINE_SERVICE_STORE_H_
