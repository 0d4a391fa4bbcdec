// Sequential byte output to a file or standard output, optionally compressed
// (".gz", ".zst", ".bz2" by the file name), never leaving a partial file
// under the final name: a file is written under a unique temporary name and
// renamed by Close() (util::PendingFile, which also says how devices, FIFOs,
// sockets, symbolic links and directories are treated); destroying the
// stream unclosed removes the temporary.
#ifndef SIMDEX_ENGINE_IO_OUTPUT_STREAM_H_
#define SIMDEX_ENGINE_IO_OUTPUT_STREAM_H_

#include <cstddef>
#include <memory>
#include <string>

#include "simdex/status.h"

namespace simdex::io {

class OutputStream {
 public:
  virtual ~OutputStream() = default;

  // Writes n bytes (compressing them if the name asks for it).
  virtual Status Write(const char* data, size_t n) = 0;

  // Flushes, closes, and renames the temporary to the final name.
  // REQUIRES: called at most once; no Write() after it.
  virtual Status Close() = 0;

  // Creates the temporary for path (util::PendingFile), or uses standard
  // output for "-". On error *out is untouched and the message names the file.
  static Status Open(const std::string& path, std::unique_ptr<OutputStream>* out);
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_OUTPUT_STREAM_H_
