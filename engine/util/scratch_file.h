// ScratchFile: a file that only this process uses (sort runs, spilled
// arrays, a build's scratch tables and id maps), which never has a name in
// any directory: it is made with O_TMPFILE in its directory, or, where the
// file system has no O_TMPFILE, under a unique name ("<dir>/simdex-<tag>-
// XXXXXX", mode 0600) unlinked at once. Nothing is left behind after
// success, an error, a signal or kill -9; its space goes back to the file
// system when its descriptor is closed and its last map unmapped.
//
// Thread safety: Create() may run concurrently; one file's reads and writes
// (pread, pwrite at offsets) may too, on ranges that do not overlap.
#ifndef SIMDEX_ENGINE_UTIL_SCRATCH_FILE_H_
#define SIMDEX_ENGINE_UTIL_SCRATCH_FILE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "simdex/status.h"

namespace simdex::util {

class ScratchFile {
 public:
  // An empty file in dir. IOError naming dir when it cannot be made (a
  // missing directory, no permission, no space).
  static Status Create(const std::string& dir, const std::string& tag, std::unique_ptr<ScratchFile>* out);
  ~ScratchFile();  // closes it: the file is gone once no map holds it
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  // Read and write it at offsets (pread, pwrite); do not close it.
  int fd() const { return fd_; }
  // "<dir>/simdex-<tag>-XXXXXX", the file's kind and place for messages
  // (it has no name).
  const std::string& name() const { return name_; }

  // Gives the disk space of [offset, offset + length) back (a hole is
  // punched, reading zeros) where the file system can; a no-op elsewhere.
  void Discard(uint64_t offset, uint64_t length);

  // Tests: true makes Create() take the fallback (a name unlinked at once)
  // as on a file system without O_TMPFILE; returns the previous setting.
  static bool ForceUnlinkedName(bool force);

 private:
  ScratchFile(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}

  int fd_;
  std::string name_;
};

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_SCRATCH_FILE_H_
