// ReloadingIndex: a serving process's hold on an index file by its path,
// which switches to a new file put in its place without a restart.
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
// Switching. Reload() compares the file the path names now (device, inode,
// size, modification time) with the current one. When it differs, the new
// file is opened and checked (IndexReader::Open; with verify_before_switch,
// IndexReader::Verify too) with no lock held, then the current version is
// replaced by one pointer swap: a search never waits for a reload. A new
// file that fails its checks (truncated, corrupt, not an index, or another
// scheme while require_same_scheme) is refused: Reload() returns the error,
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
  // Run IndexReader::Verify on a new file before switching to it: every
  // checksum and rule of docs/format.md, which reads the whole file.
  bool verify_before_switch = false;
  // Read every page of a new file into memory (IndexReader::Preload) before
  // switching to it, so that the first searches on it do not fault its pages
  // in one by one (docs/library.md measures the difference).
  bool preload_before_switch = false;
  // Refuse a new file whose scheme (block widths and k) differs from the
  // first file's: its searches would answer for another k.
  bool require_same_scheme = true;
  // Refuse a new file that records another fingerprint profile than the
  // serving index (CheckSameProfile, include/simdex/profile.h): the
  // queries' fingerprints would no longer be comparable with its entries.
  bool require_same_profile = true;
  // When > 0, a background thread calls Reload() every this many seconds
  // until the ReloadingIndex is destroyed.
  double check_period_seconds = 0;
  // Called after every switch and every refused file, on the thread that
  // reloaded (the caller of Reload() or the background thread). Must not
  // call Reload().
  std::function<void(const ReloadEvent&)> on_event;
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
  struct Rep;
  explicit ReloadingIndex(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex

#endif  // SIMDEX_RELOADING_INDEX_H_
