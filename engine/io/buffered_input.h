// A growable window over an InputStream, for decoders that look at many
// bytes at once (line splitting, fixed-size binary records).
//
// The window [data(), data() + size()) holds bytes not yet consumed. At least
// kPadding readable bytes follow the window's end (zero-filled past the
// data), so parsers that read ahead in SIMD-sized steps, such as simdjson,
// can run on the window in place.
#ifndef SIMDEX_ENGINE_IO_BUFFERED_INPUT_H_
#define SIMDEX_ENGINE_IO_BUFFERED_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "engine/io/input_stream.h"
#include "simdex/status.h"

namespace simdex::io {

class BufferedInput {
 public:
  static constexpr size_t kPadding = 64;
  static constexpr size_t kChunk = size_t{1} << 20;  // the size of each read

  // REQUIRES: in is not null.
  explicit BufferedInput(std::unique_ptr<InputStream> in);
  ~BufferedInput();

  BufferedInput(const BufferedInput&) = delete;
  BufferedInput& operator=(const BufferedInput&) = delete;

  // Reads until at least `want` bytes are in the window or the input ends
  // (then eof() is true and size() may be less). Grows the buffer when want
  // exceeds its capacity. Pointers into the window are invalidated.
  Status Fill(size_t want);

  // Reads one more chunk (or until the end) whatever the window holds.
  // Pointers into the window are invalidated.
  Status FillMore();

  const char* data() const { return buf_.get() + begin_; }
  size_t size() const { return end_ - begin_; }
  bool eof() const { return eof_; }

  // REQUIRES: n <= size().
  void Consume(size_t n) { begin_ += n; }

  // Bytes consumed since the start of the input (the offset of data()).
  uint64_t offset() const { return consumed_base_ + begin_; }

 private:
  // Makes room for `room` bytes after the window: moves it to the front and
  // grows the buffer as needed.
  void Reserve(size_t room);

  std::unique_ptr<InputStream> in_;
  std::unique_ptr<char[]> buf_;
  size_t capacity_ = 0;  // excluding the padding
  size_t begin_ = 0;
  size_t end_ = 0;
  uint64_t consumed_base_ = 0;  // input offset of buf_[0]
  bool eof_ = false;
};

// The bytes OpenBatchInput looks at: an index's magic and u32 version.
inline constexpr size_t kBatchHeadBytes = 12;

// Every batch reader's first step: opens path behind a BufferedInput holding
// its first kBatchHeadBytes bytes (or all of a shorter input), sets *name to
// DisplayName(path), and refuses a simdex index given where `expected` ("a
// fingerprint file") is wanted: InvalidArgument "<name>: is a simdex index,
// not <expected>".
Status OpenBatchInput(const std::string& path, std::string_view expected, std::unique_ptr<BufferedInput>* out,
                      std::string* name);

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_BUFFERED_INPUT_H_
