// ReloadingIndexFile: a serving process's hold on an index file of any kind
// (include/simdex/index_file.h) by its path, which switches to a new file
// put in its place without a restart; ReloadingIndex is the same for a
// SimHash index, with its typed searches.
// `simdex build` and `simdex merge` write a temporary file and rename it over
// the old one, so the path always names a complete index.
//
//   std::unique_ptr<ReloadingIndex> index;
//   Status s = ReloadingIndex::Open("corpus.sdx", ReloadOptions(), &index);
//   std::shared_ptr<const IndexReader> snapshot = index->Current();
//   snapshot->Search(query, 3, &matches);   // on the version it started with
//   ...
//   bool switched;
//   s = index->Reload(&switched);           // or ReloadOptions::check_period_seconds
//
// Versions. Each search runs on a snapshot (Current()): a search in flight
// finishes on the mapping it started with, searches that take their
// snapshot after a switch use the new file, and an old mapping is unmapped
// when its last snapshot is released. Every answer comes from one version.
//
//   std::unique_ptr<ReloadingIndexFile> lsh;   // a MinHash-LSH index alike
//   s = ReloadingIndexFile::Open("docs.sdx", ReloadOptions(), &lsh);
//   lsh->CurrentAs<LshIndexReader>()->Query(signature, LshQueryOptions(), &found);
//
// Switching. Reload() compares the file the path names now (device, inode,
// size, modification time) with the current one. When it differs, the new
// file is opened and checked (by the first file's kind, IndexFileKind::Open;
// with verify_before_switch, IndexFile::Verify too) with no lock held, then
// the current version is replaced by one pointer swap: a search never waits
// for a reload. A new file that fails its checks (truncated, corrupt, not an
// index, another kind, or another layout while require_same_scheme) is
// refused: Reload() returns the error,
// the old index keeps serving, and the same file is not tried again until it
// changes. If the path names another file again between the check and the
// open, the next Reload() sees it.
//
// Thread safety: every method may be called from any thread concurrently.
#ifndef SIMDEX_RELOADING_INDEX_H_
#define SIMDEX_RELOADING_INDEX_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "simdex/index.h"
#include "simdex/index_file.h"
#include "simdex/status.h"

namespace simdex {

// What a reload did, for logs and metrics (ReloadOptions::on_event).
struct ReloadEvent {
  std::string path;
  // True: the index switched to a new file (status OK). False: a new file
  // was refused, and status says why.
  bool switched = false;
  Status status;
  uint64_t version = 0;  // the version serving after the event
};

struct ReloadOptions {
  // How every version is opened (ReaderOptions, as IndexReader::Open).
  ReaderOptions reader;
  // Run IndexFile::Verify on a new file before switching to it: every
  // checksum and rule of docs/format.md, which reads the whole file.
  bool verify_before_switch = false;
  // Read every page of a new file into memory (IndexFile::Preload) before
  // switching to it, so that the first searches on it do not fault its pages
  // in one by one (docs/library.md measures the difference).
  bool preload_before_switch = false;
  // Refuse a new file whose layout differs from the serving one's
  // (IndexFile::CheckSameLayout): for SimHash its scheme (block widths and
  // k), whose searches would answer for another k; for MinHash-LSH its
  // bands and threshold, whose queries would find other candidates.
  bool require_same_scheme = true;
  // Refuse a new file that records another profile than the serving index
  // (CheckSameProfile, include/simdex/profile.h): the queries'
  // fingerprints or signatures would no longer be comparable with its own.
  bool require_same_profile = true;
  // When > 0, a background thread calls Reload() every this many seconds
  // until the ReloadingIndex is destroyed.
  double check_period_seconds = 0;
  // Called after every switch and every refused file, on the thread that
  // reloaded (the caller of Reload() or the background thread). Must not
  // call Reload().
  std::function<void(const ReloadEvent&)> on_event;
};

class ReloadingIndexFile {
 public:
  // Opens the file at path as version 1, with the reader of the kind its
  // header records (OpenIndexFile); every later version must be of that
  // kind. Fails as OpenIndexFile.
  static Status Open(const std::string& path, const ReloadOptions& options,
                     std::unique_ptr<ReloadingIndexFile>* out);
  // The same for a file of `kind` alone: a file of another kind fails as
  // that kind's reader refuses it (IndexFileKind::Open).
  static Status Open(const std::string& path, const IndexFileKind& kind, const ReloadOptions& options,
                     std::unique_ptr<ReloadingIndexFile>* out);
  // Stops the background check, if any. Snapshots handed out stay valid.
  ~ReloadingIndexFile();

  ReloadingIndexFile(const ReloadingIndexFile&) = delete;
  ReloadingIndexFile& operator=(const ReloadingIndexFile&) = delete;

  // The version serving now. Never null.
  std::shared_ptr<const IndexFile> Current() const;
  // The same as its reader class (IndexReader, LshIndexReader): null when
  // the files are of another kind.
  template <class Reader>
  std::shared_ptr<const Reader> CurrentAs() const {
    return std::dynamic_pointer_cast<const Reader>(Current());
  }
  // The kind of every version.
  const IndexFileKind& kind() const;

  // As ReloadingIndex::Reload.
  Status Reload(bool* switched = nullptr);

  // 1 for the file opened by Open(), one more for each switch.
  uint64_t version() const;
  const std::string& path() const;

 private:
  struct Rep;
  explicit ReloadingIndexFile(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

class ReloadingIndex {
 public:
  // Opens the file at path as version 1. Fails as IndexReader::Open.
  static Status Open(const std::string& path, const ReloadOptions& options, std::unique_ptr<ReloadingIndex>* out);
  // Stops the background check, if any. Snapshots handed out stay valid.
  ~ReloadingIndex();

  ReloadingIndex(const ReloadingIndex&) = delete;
  ReloadingIndex& operator=(const ReloadingIndex&) = delete;

  // The version serving now. Never null.
  std::shared_ptr<const IndexReader> Current() const;

  // Switches to the file the path names now if it is another file than the
  // current one and passes its checks (above). Sets *switched (if not null)
  // to whether it switched. Returns OK when it switched or when nothing
  // changed; the error of a refused file (IOError when the path cannot be
  // read, Corruption, NotSupported, InvalidArgument for another scheme).
  Status Reload(bool* switched = nullptr);

  // 1 for the file opened by Open(), one more for each switch.
  uint64_t version() const;
  const std::string& path() const;

 private:
  explicit ReloadingIndex(std::unique_ptr<ReloadingIndexFile> file);
  std::unique_ptr<ReloadingIndexFile> file_;
};

}  // namespace simdex

#endif  // SIMDEX_RELOADING_INDEX_H_
