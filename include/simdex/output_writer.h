// OutputWriter: writes a result file that appears under its final name only
// when complete, for the commands' outputs (dedup results, pairs, keep
// lists). "-" is standard output; a name ending in ".gz", ".zst" or ".bz2"
// is compressed. The file is written under a unique temporary name next to
// the final one, fsynced and renamed by Close(); a writer destroyed before
// Close() succeeds removes its temporary, so a failed run leaves nothing
// half-written. A symbolic link is followed and its target replaced (the
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

}  // namespace simdex

#endif  // SIMDEX_OUTPUT_WRITER_H_
