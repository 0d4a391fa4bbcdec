// The destination of one user-visible output file, which appears complete or
// not at all, and which never replaces what the path names unless it is a
// regular file.
//
// What Create() does depends on what the path names (stat(2), following
// symbolic links):
//   - nothing yet, or a regular file: the output is written to a file
//     without a name in its directory (O_TMPFILE), with the permissions a
//     plain create would give (0666 less the umask: an index is read by
//     other services). Commit() fsyncs the data, links the file in under a
//     unique temporary name next to the path, "<path>.tmp-XXXXXX", renames
//     that into place and fsyncs the directory. Until Commit() nothing is in
//     the directory, so that nothing is left behind by an error, a signal or
//     kill -9; the name exists only between the link and the rename (a
//     catchable signal there removes it: temporary_names.h). Where the file
//     system has no O_TMPFILE (or /proc/self/fd, which the link goes
//     through, is missing) the output is written under that unique name
//     from the start, registered so that a catchable signal removes it
//     (kill -9 leaves it). Two writers of one path, or a user's own
//     "<path>.tmp", are never clobbered. A PendingFile destroyed without a
//     successful Commit() leaves nothing.
//   - a symbolic link (a chain of them, relative targets resolved against
//     the directory of the link that holds them): the link is followed and
//     its final target handled by these rules. A regular or missing target
//     is replaced atomically as above and the link stays a link.
//   - a character or block device or a FIFO: opened for writing and written
//     directly (/dev/null, /dev/stdout, a named pipe); nothing is created,
//     renamed or removed. Commit() closes it (and fsyncs a block device).
//   - a socket: connected to (AF_UNIX, stream) and written directly.
//   - a directory: refused ("<path>: is a directory").
//
// Used by every writer of user-visible output: the index builder
// (engine/util/output_file.h), fingerprint files and result files
// (engine/io/output_stream.h). Not thread-safe.
#ifndef SIMDEX_ENGINE_UTIL_PENDING_FILE_H_
#define SIMDEX_ENGINE_UTIL_PENDING_FILE_H_

#include <memory>
#include <string>

#include "simdex/status.h"

namespace simdex::util {

// False when the environment sets SIMDEX_NO_TMPFILE (to anything but "" or
// "0"): every temporary is then made as on a file system without O_TMPFILE
// (outputs named from the start, scratch files named and unlinked at once),
// so that the fallback can be run end to end. Read once.
bool TmpfileAllowed();

// IOError "<message>: <the system's reason (errno)>", util's error style.
Status ErrnoError(const std::string& message);

// Writes data[0, n) to fd, again after EINTR and short writes. False with
// errno set when it cannot (ENOSPC when a write takes nothing).
bool WriteFully(int fd, const void* data, size_t n);

class PendingFile {
 public:
  // Opens the destination for final_path as described above. Returns
  // IOError naming the path when it cannot (a missing directory: the
  // temporary's pattern is named; a directory; a device that refuses to be
  // opened; a link loop).
  static Status Create(const std::string& final_path, std::unique_ptr<PendingFile>* out);
  ~PendingFile();

  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;

  // The open descriptor to write to (-1 after Commit()).
  int fd() const { return fd_; }
  // True when the bytes go straight to a device, FIFO or socket.
  bool direct() const { return mode_ == Mode::kDirect; }
  // True when the output has no name until Commit() (O_TMPFILE).
  bool unnamed() const { return mode_ == Mode::kUnnamed; }
  // The named temporary; empty when direct() or unnamed().
  const std::string& temp_path() const { return temp_path_; }
  // The path given to Create().
  const std::string& final_path() const { return final_path_; }
  // Where the bytes are written, for messages: the named temporary, else
  // the path given.
  const std::string& write_path() const { return mode_ == Mode::kNamed ? temp_path_ : final_path_; }

  // Tests: true makes Create() write under a name from the start, as on a
  // file system without O_TMPFILE; returns the previous setting.
  static bool ForceNamedTemporary(bool force);

  // Atomic: fsync, (unnamed: link in under a unique temporary name),
  // close, rename to the resolved final path, fsync its directory (best
  // effort: some file systems refuse it). On error the temporary is
  // removed and the final path is left as it was.
  // Direct: close (a block device is fsynced first).
  // REQUIRES: called at most once.
  Status Commit();

 private:
  enum class Mode { kDirect, kUnnamed, kNamed };
  PendingFile(int fd, Mode mode, std::string temp_path, std::string final_path, std::string target_path,
              bool block_device);
  // Unnamed: links the output in under a unique temporary name next to
  // the target (linkat(2) cannot replace a name: the rename then moves it
  // over the target), registered first so that a signal in between removes
  // it; named from then on.
  Status LinkIn();

  int fd_;
  Mode mode_;
  int slot_ = -1;            // kNamed: its entry in temporary_names.h
  std::string temp_path_;    // kNamed only
  std::string final_path_;   // as given
  std::string target_path_;  // what the temporary is renamed to: final_path_ with its links resolved
  bool block_device_ = false;
  bool committed_ = false;
};

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_PENDING_FILE_H_
