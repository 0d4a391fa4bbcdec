// A file that appears under its final name only when it is complete.
//
// It is written under a unique temporary name next to the final path,
// "<path>.tmp-XXXXXX" (so two writers of one path, or a user's own
// "<path>.tmp", are never clobbered), with the permissions a plain create
// would give (0666 less the umask: an index is read by other services).
// Commit() fsyncs the data, renames the file into place and fsyncs the
// directory; a PendingFile destroyed without a successful Commit() removes
// its temporary. Used by every writer of user-visible output: the index
// builder (engine/index/output_file.h) and fingerprint files
// (engine/io/output_stream.h). Not thread-safe.
#ifndef SIMDEX_ENGINE_IO_PENDING_FILE_H_
#define SIMDEX_ENGINE_IO_PENDING_FILE_H_

#include <memory>
#include <string>

#include "simdex/status.h"

namespace simdex::io {

// mkostemp(3) with O_CLOEXEC, retried on EINTR: replaces the trailing
// "XXXXXX" of *path with a unique name and returns the descriptor of the new
// file (mode 0600), or -1 with errno set. Every temporary simdex creates
// (pending output, the builder's scratch files, sort runs) is made here.
int CreateUniqueFile(std::string* path);

class PendingFile {
 public:
  // Creates the temporary for final_path. Returns IOError naming the
  // temporary's pattern when it cannot be created (e.g. a missing directory).
  static Status Create(const std::string& final_path, std::unique_ptr<PendingFile>* out);
  ~PendingFile();

  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;

  // The open descriptor of the temporary (-1 after Commit()).
  int fd() const { return fd_; }
  const std::string& temp_path() const { return temp_path_; }
  const std::string& final_path() const { return final_path_; }

  // fsync, close, rename to the final path, fsync its directory (best
  // effort: some file systems refuse it). On error the temporary is removed
  // and the final path is left as it was. REQUIRES: called at most once.
  Status Commit();

 private:
  PendingFile(int fd, std::string temp_path, std::string final_path);

  int fd_;
  std::string temp_path_;
  std::string final_path_;
  bool committed_ = false;
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_PENDING_FILE_H_
