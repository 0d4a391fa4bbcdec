// ReloadingIndexFile and ReloadingIndex (include/simdex/reloading_index.h):
// the serving version is a shared_ptr to an IndexFile behind a mutex held only to copy or swap it (a reference count
// increment: a search never waits for a reload's open and checks, which run
// outside it); reloads are serialized among themselves by their own mutex.
// (std::atomic<std::shared_ptr> would do the same, but libstdc++ 12's load
// releases its lock bit with a relaxed store, which ThreadSanitizer reports
// as a race with the next store.) Every version is opened by the first
// one's kind (IndexFileKind::Open), so that ReloadingIndex's versions are
// all IndexReaders.
#include "simdex/reloading_index.h"
#include "simdex/profile.h"

#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

namespace simdex {

namespace {

// What tells one file from another under the same path: a rename puts
// another inode there; a file rewritten in place changes size or mtime.
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  int64_t mtime_ns = 0;

  bool operator==(const FileIdentity&) const = default;
};

Status StatFile(const std::string& path, FileIdentity* out) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Status::IOError(path + ": cannot stat: " + std::strerror(errno));
  out->device = st.st_dev;
  out->inode = st.st_ino;
  out->size = st.st_size;
  out->mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return Status::OK();
}

}  // namespace

struct ReloadingIndexFile::Rep {
  std::string path;
  ReloadOptions options;
  const IndexFileKind* kind = nullptr;  // of every version
  mutable std::mutex current_mu;
  std::shared_ptr<const IndexFile> current;  // guarded by current_mu
  std::atomic<uint64_t> version{1};

  std::mutex reload_mu;  // serializes Reload(); guards the identities
  FileIdentity serving;  // the file of `current`
  FileIdentity refused;  // the last file refused, not tried again
  bool has_refused = false;

  std::mutex stop_mu;
  std::condition_variable stop_cv;
  bool stopping = false;
  std::thread checker;

  std::shared_ptr<const IndexFile> Current() const {
    std::lock_guard<std::mutex> lock(current_mu);
    return current;
  }
  // Puts `next` in place; returns the old version, to be released outside
  // the lock (its unmapping may take a while).
  std::shared_ptr<const IndexFile> Swap(std::shared_ptr<const IndexFile> next) {
    std::lock_guard<std::mutex> lock(current_mu);
    current.swap(next);
    return next;
  }
  Status OpenChecked(std::unique_ptr<IndexFile>* out) const;
  void Notify(bool switched, const Status& status) const;
};

Status ReloadingIndexFile::Rep::OpenChecked(std::unique_ptr<IndexFile>* out) const {
  std::unique_ptr<IndexFile> reader;
  SIMDEX_RETURN_IF_ERROR(kind->Open(path, options.reader, &reader));
  if (options.verify_before_switch) SIMDEX_RETURN_IF_ERROR(reader->Verify().WithContext(path));
  if (options.preload_before_switch) {
    PreloadResult preloaded;
    SIMDEX_RETURN_IF_ERROR(reader->Preload(/*lock=*/false, &preloaded).WithContext(path));
  }
  const std::shared_ptr<const IndexFile> old = Current();
  if (options.require_same_scheme) SIMDEX_RETURN_IF_ERROR(reader->CheckSameLayout(*old).WithContext(path));
  if (options.require_same_profile) {
    SIMDEX_RETURN_IF_ERROR(CheckSameProfile("the serving index", old->profile(), path + " (the new file)",
                                            reader->profile()));
  }
  *out = std::move(reader);
  return Status::OK();
}

void ReloadingIndexFile::Rep::Notify(bool switched, const Status& status) const {
  if (!options.on_event) return;
  ReloadEvent event;
  event.path = path;
  event.switched = switched;
  event.status = status;
  event.version = version.load();
  options.on_event(event);
}

ReloadingIndexFile::ReloadingIndexFile(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

ReloadingIndexFile::~ReloadingIndexFile() {
  if (rep_->checker.joinable()) {
    {
      std::lock_guard<std::mutex> lock(rep_->stop_mu);
      rep_->stopping = true;
    }
    rep_->stop_cv.notify_all();
    rep_->checker.join();
  }
}

Status ReloadingIndexFile::Open(const std::string& path, const ReloadOptions& options,
                                std::unique_ptr<ReloadingIndexFile>* out) {
  IndexKind kind;
  SIMDEX_RETURN_IF_ERROR(ReadIndexKind(path, &kind));
  const IndexFileKind* k = FindIndexKind(kind);
  if (k == nullptr) return Status::NotSupported(path + ": index kind " + std::to_string(static_cast<int>(kind)));
  return Open(path, *k, options, out);
}

Status ReloadingIndexFile::Open(const std::string& path, const IndexFileKind& kind, const ReloadOptions& options,
                                std::unique_ptr<ReloadingIndexFile>* out) {
  if (!(options.check_period_seconds >= 0)) {
    return Status::InvalidArgument("the reload check period must be >= 0 seconds");
  }
  auto rep = std::make_unique<Rep>();
  rep->path = path;
  rep->options = options;
  rep->kind = &kind;
  // The identity first: if the file is replaced between the stat and the
  // open, the first Reload() sees a change and opens the newer file.
  SIMDEX_RETURN_IF_ERROR(StatFile(path, &rep->serving));
  std::unique_ptr<IndexFile> reader;
  SIMDEX_RETURN_IF_ERROR(kind.Open(path, options.reader, &reader));
  rep->current = std::shared_ptr<const IndexFile>(std::move(reader));
  std::unique_ptr<ReloadingIndexFile> index(new ReloadingIndexFile(std::move(rep)));
  if (options.check_period_seconds > 0) {
    Rep* r = index->rep_.get();
    ReloadingIndexFile* self = index.get();
    r->checker = std::thread([r, self] {
      const auto period = std::chrono::duration<double>(r->options.check_period_seconds);
      std::unique_lock<std::mutex> lock(r->stop_mu);
      while (!r->stop_cv.wait_for(lock, period, [r] { return r->stopping; })) {
        lock.unlock();
        (void)self->Reload();  // a refused file is reported through on_event
        lock.lock();
      }
    });
  }
  *out = std::move(index);
  return Status::OK();
}

std::shared_ptr<const IndexFile> ReloadingIndexFile::Current() const { return rep_->Current(); }

const IndexFileKind& ReloadingIndexFile::kind() const { return *rep_->kind; }

uint64_t ReloadingIndexFile::version() const { return rep_->version.load(); }

const std::string& ReloadingIndexFile::path() const { return rep_->path; }

Status ReloadingIndexFile::Reload(bool* switched) {
  if (switched != nullptr) *switched = false;
  std::lock_guard<std::mutex> lock(rep_->reload_mu);
  FileIdentity now;
  SIMDEX_RETURN_IF_ERROR(StatFile(rep_->path, &now));
  if (now == rep_->serving || (rep_->has_refused && now == rep_->refused)) return Status::OK();
  std::unique_ptr<IndexFile> reader;
  Status s = rep_->OpenChecked(&reader);
  if (!s.ok()) {
    rep_->refused = now;
    rep_->has_refused = true;
    rep_->Notify(false, s);
    return s;
  }
  std::shared_ptr<const IndexFile> old = rep_->Swap(std::shared_ptr<const IndexFile>(std::move(reader)));
  rep_->serving = now;
  rep_->has_refused = false;
  rep_->version.fetch_add(1);
  if (switched != nullptr) *switched = true;
  rep_->Notify(true, Status::OK());
  old.reset();  // unmapped here unless a search still holds it
  return Status::OK();
}

ReloadingIndex::ReloadingIndex(std::unique_ptr<ReloadingIndexFile> file) : file_(std::move(file)) {}
ReloadingIndex::~ReloadingIndex() = default;

Status ReloadingIndex::Open(const std::string& path, const ReloadOptions& options,
                            std::unique_ptr<ReloadingIndex>* out) {
  std::unique_ptr<ReloadingIndexFile> file;
  SIMDEX_RETURN_IF_ERROR(ReloadingIndexFile::Open(path, *FindIndexKind(IndexKind::kSimHash), options, &file));
  out->reset(new ReloadingIndex(std::move(file)));
  return Status::OK();
}

// Every version is of the SimHash kind: an IndexReader.
std::shared_ptr<const IndexReader> ReloadingIndex::Current() const {
  return std::static_pointer_cast<const IndexReader>(file_->Current());
}

Status ReloadingIndex::Reload(bool* switched) { return file_->Reload(switched); }
uint64_t ReloadingIndex::version() const { return file_->version(); }
const std::string& ReloadingIndex::path() const { return file_->path(); }

}  // namespace simdex
