// Sequential byte input from a file, standard input, or a compressed file.
//
// The compression is chosen by the file name's extension: ".gz" (gzip),
// ".zst" (zstd), ".bz2" (bzip2); anything else is read as it is. "-" is
// standard input, read as it is. Decompression goes through Boost.Iostreams;
// a damaged or truncated compressed stream is an error naming the file
// ("docs.jsonl.gz: truncated gzip stream"), never a silent short read.
#ifndef SIMDEX_ENGINE_IO_INPUT_STREAM_H_
#define SIMDEX_ENGINE_IO_INPUT_STREAM_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "simdex/status.h"

namespace simdex::io {

enum class Compression { kNone, kGzip, kZstd, kBzip2 };

// The compression implied by the extension of path.
Compression CompressionOf(std::string_view path);

// path without its compression suffix ("a.jsonl.gz" -> "a.jsonl").
std::string_view StripCompressionSuffix(std::string_view path);

// The name used in messages: path, or "<stdin>" for "-".
std::string DisplayName(const std::string& path);

// Reads bytes in order. Not thread-safe; one reader per stream.
class InputStream {
 public:
  virtual ~InputStream() = default;

  // Reads up to n bytes into dst (decompressed, if the file is compressed).
  // Sets *got to the number read; *got == 0 with OK means end of input.
  virtual Status Read(char* dst, size_t n, size_t* got) = 0;

  // Opens path ("-" = standard input). On error *out is untouched and the
  // message names the file ("docs.jsonl: No such file or directory").
  static Status Open(const std::string& path, std::unique_ptr<InputStream>* out);
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_INPUT_STREAM_H_
