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
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "simdex/front_end_text.h"
#include "simdex/status.h"

namespace simdex::io {

enum class Compression { kNone, kGzip, kZstd, kBzip2 };

// The compression implied by the extension of path.
Compression CompressionOf(std::string_view path);

// path without its compression suffix ("a.jsonl.gz" -> "a.jsonl").
std::string_view StripCompressionSuffix(std::string_view path);

// The name used in messages ("<stdin>" for "-"), and whether path can be
// read again from the start: include/simdex/front_end_text.h.
using simdex::CanReadTwice;
using simdex::DisplayName;

// Reads bytes in order. Not thread-safe; one reader per stream.
class InputStream {
 public:
  virtual ~InputStream() = default;

  // Reads up to n bytes into dst (decompressed, if the file is compressed).
  // Sets *got to the number read; *got == 0 with OK means end of input.
  virtual Status Read(char* dst, size_t n, size_t* got) = 0;

  // Opens path ("-" = standard input). On error *out is untouched and the
  // message names the file ("docs.jsonl: No such file or directory"). A
  // directory is an IOError ("data: is a directory"). An input PeekInput()
  // kept open is that stream, from its start.
  static Status Open(const std::string& path, std::unique_ptr<InputStream>* out);
};

// Reads the first bytes of path (decompressed as Open() does) into *head
// without using them up, until enough(*head) is true, the input ends, or
// max_bytes are read: a regular file is simply opened again later; an
// input that cannot be read twice (standard input, a pipe such as bash's
// <(...), a device) is kept open and handed, the bytes read first, to the
// next InputStream::Open() of the same path (once). Reads in the pieces the
// input gives, so that on a terminal it returns after a line. Not
// thread-safe: call before any reader of that path exists.
Status PeekInput(const std::string& path, size_t max_bytes, const std::function<bool(std::string_view)>& enough,
                 std::string* head);

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_INPUT_STREAM_H_
