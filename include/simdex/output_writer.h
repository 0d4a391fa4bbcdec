// OutputWriter: writes a result file that appears under its final name only
// when complete, for the commands' outputs (dedup results, pairs, keep
// lists). "-" is standard output; a name ending in ".gz", ".zst" or ".bz2"
// is compressed. The file is written without a name in the final one's
// directory (O_TMPFILE), fsynced, linked in under a unique temporary name
// next to the final one and renamed by Close(); a writer destroyed before
// Close() succeeds leaves nothing, and neither does a process killed
// before it (where the file system has no O_TMPFILE, the temporary has its
// name throughout: see RemoveNamedTemporaries). A symbolic link is followed and its target replaced (the
// link stays a link); a character or block device, a FIFO or a socket
// (/dev/null, /dev/stdout, a named pipe) is written directly, never replaced;
// a directory is refused. The first error is kept and returned by every
// later call.
//
// Thread safety: not safe for concurrent use.
#ifndef SIMDEX_OUTPUT_WRITER_H_
#define SIMDEX_OUTPUT_WRITER_H_

#include <memory>
#include <string>
#include <string_view>

#include "simdex/status.h"

namespace simdex {

class OutputWriter {
 public:
  // On error (a missing directory, no permission) *out is untouched and
  // the message names the file.
  static Status Open(const std::string& path, std::unique_ptr<OutputWriter>* out);
  ~OutputWriter();
  OutputWriter(const OutputWriter&) = delete;
  OutputWriter& operator=(const OutputWriter&) = delete;

  // Appends bytes; they are written out in large pieces.
  Status Append(std::string_view bytes);
  // Writes what is buffered, closes and renames. REQUIRES: at most once.
  Status Close();

 private:
  struct Rep;
  explicit OutputWriter(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// Removes every temporary output of this process that has a name at the
// moment: the outputs of OutputWriter, IndexBuilder, IndexMerger,
// FingerprintFileWriter and the MinHash-LSH builders are unnamed until
// they are complete, except for a moment while they are renamed into
// place, or throughout where the file system has no O_TMPFILE (scratch
// files never have a name). For a handler of SIGINT, SIGTERM or SIGHUP
// that then ends the process (as `simdex` does): async-signal-safe.
// Nothing is removed that is not simdex's own temporary.
void RemoveNamedTemporaries() noexcept;

}  // namespace simdex

#endif  // SIMDEX_OUTPUT_WRITER_H_
