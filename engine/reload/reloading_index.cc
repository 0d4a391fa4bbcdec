// ReloadingIndex (include/simdex/reloading_index.h): the serving version is a
// shared_ptr behind a mutex held only to copy or swap it (a reference count
// increment: a search never waits for a reload's open and checks, which run
// outside it); reloads are serialized among themselves by their own mutex.
// (std::atomic<std::shared_ptr> would do the same, but libstdc++ 12's load
// releases its lock bit with a relaxed store, which ThreadSanitizer reports
// as a race with the next store.)
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

struct ReloadingIndex::Rep {
  std::string path;
  ReloadOptions options;
  mutable std::mutex current_mu;
  std::shared_ptr<const IndexReader> current;  // guarded by current_mu
  std::atomic<uint64_t> version{1};

  std::mutex reload_mu;  // serializes Reload(); guards the identities
  FileIdentity serving;  // the file of `current`
  FileIdentity refused;  // the last file refused, not tried again
  bool has_refused = false;

  std::mutex stop_mu;
  std::condition_variable stop_cv;
  bool stopping = false;
  std::thread checker;

  std::shared_ptr<const IndexReader> Current() const {
    std::lock_guard<std::mutex> lock(current_mu);
    return current;
  }
  // Puts `next` in place; returns the old version, to be released outside
  // the lock (its unmapping may take a while).
  std::shared_ptr<const IndexReader> Swap(std::shared_ptr<const IndexReader> next) {
    std::lock_guard<std::mutex> lock(current_mu);
    current.swap(next);
    return next;
  }
  Status OpenChecked(std::unique_ptr<IndexReader>* out) const;
  void Notify(bool switched, const Status& status) const;
};

Status ReloadingIndex::Rep::OpenChecked(std::unique_ptr<IndexReader>* out) const {
  std::unique_ptr<IndexReader> reader;
  SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path, options.reader, &reader));
  if (options.verify_before_switch) SIMDEX_RETURN_IF_ERROR(reader->Verify().WithContext(path));
  if (options.preload_before_switch) {
    PreloadResult preloaded;
    SIMDEX_RETURN_IF_ERROR(reader->Preload(/*lock=*/false, &preloaded).WithContext(path));
  }
  const std::shared_ptr<const IndexReader> old = Current();
  const Scheme& now = old->scheme();
  if (options.require_same_scheme &&
      (reader->scheme().widths() != now.widths() || reader->scheme().k() != now.k())) {
    return Status::InvalidArgument(path + ": the new file's scheme " + reader->scheme().Name() +
                                   " is not the serving index's " + now.Name());
  }
  if (options.require_same_profile) {
    SIMDEX_RETURN_IF_ERROR(CheckSameProfile("the serving index", old->profile(), path + " (the new file)",
                                            reader->profile()));
  }
  *out = std::move(reader);
  return Status::OK();
}

void ReloadingIndex::Rep::Notify(bool switched, const Status& status) const {
  if (!options.on_event) return;
  ReloadEvent event;
  event.path = path;
  event.switched = switched;
  event.status = status;
  event.version = version.load();
  options.on_event(event);
}

ReloadingIndex::ReloadingIndex(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

ReloadingIndex::~ReloadingIndex() {
  if (rep_->checker.joinable()) {
    {
      std::lock_guard<std::mutex> lock(rep_->stop_mu);
      rep_->stopping = true;
    }
    rep_->stop_cv.notify_all();
    rep_->checker.join();
  }
}

Status ReloadingIndex::Open(const std::string& path, const ReloadOptions& options,
                            std::unique_ptr<ReloadingIndex>* out) {
  if (!(options.check_period_seconds >= 0)) {
    return Status::InvalidArgument("the reload check period must be >= 0 seconds");
  }
  auto rep = std::make_unique<Rep>();
  rep->path = path;
  rep->options = options;
  // The identity first: if the file is replaced between the stat and the
  // open, the first Reload() sees a change and opens the newer file.
  SIMDEX_RETURN_IF_ERROR(StatFile(path, &rep->serving));
  std::unique_ptr<IndexReader> reader;
  SIMDEX_RETURN_IF_ERROR(IndexReader::Open(path, options.reader, &reader));
  rep->current = std::shared_ptr<const IndexReader>(std::move(reader));
  std::unique_ptr<ReloadingIndex> index(new ReloadingIndex(std::move(rep)));
  if (options.check_period_seconds > 0) {
    Rep* r = index->rep_.get();
    ReloadingIndex* self = index.get();
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

std::shared_ptr<const IndexReader> ReloadingIndex::Current() const { return rep_->Current(); }

uint64_t ReloadingIndex::version() const { return rep_->version.load(); }

const std::string& ReloadingIndex::path() const { return rep_->path; }

Status ReloadingIndex::Reload(bool* switched) {
  if (switched != nullptr) *switched = false;
  std::lock_guard<std::mutex> lock(rep_->reload_mu);
  FileIdentity now;
  SIMDEX_RETURN_IF_ERROR(StatFile(rep_->path, &now));
  if (now == rep_->serving || (rep_->has_refused && now == rep_->refused)) return Status::OK();
  std::unique_ptr<IndexReader> reader;
  Status s = rep_->OpenChecked(&reader);
  if (!s.ok()) {
    rep_->refused = now;
    rep_->has_refused = true;
    rep_->Notify(false, s);
    return s;
  }
  std::shared_ptr<const IndexReader> old = rep_->Swap(std::shared_ptr<const IndexReader>(std::move(reader)));
  rep_->serving = now;
  rep_->has_refused = false;
  rep_->version.fetch_add(1);
  if (switched != nullptr) *switched = true;
  rep_->Notify(true, Status::OK());
  old.reset();  // unmapped here unless a search still holds it
  return Status::OK();
}

}  // namespace simdex
