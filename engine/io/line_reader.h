// Splits a BufferedInput into lines, in place, without copying.
//
// A line ends at '\n'; a '\r' just before it is dropped (CRLF files); the
// last line needs no '\n'. A UTF-8 byte order mark at the very start of the
// input is dropped. Lines longer than max_line bytes are reported as errors
// and skipped, so a caller that tolerates bad records can go on.
#ifndef SIMDEX_ENGINE_IO_LINE_READER_H_
#define SIMDEX_ENGINE_IO_LINE_READER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/io/buffered_input.h"
#include "simdex/status.h"

namespace simdex::io {

// The UTF-8 byte order mark (U+FEFF), which LineReader drops at the start.
inline constexpr std::string_view kUtf8Bom{"\xEF\xBB\xBF"};

// Whether line holds nothing but spaces, tabs and '\r'.
inline bool IsBlank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

class LineReader {
 public:
  // REQUIRES: in outlives the LineReader; max_line > 0.
  LineReader(BufferedInput* in, size_t max_line);

  // Sets *line to the next line and *eof to false, or *eof to true at the
  // end of the input. The line points into the input's window and stays
  // valid until the next call; BufferedInput::kPadding readable bytes follow
  // it. A line longer than max_line is an InvalidArgument ("line is longer
  // than N bytes"); the next call continues after it. I/O and decompression
  // errors are returned as they are.
  Status Next(std::string_view* line, bool* eof);

  // 1-based number of the line last returned (or reported too long).
  uint64_t line_number() const { return line_number_; }

  // s with "<name>:<line_number()>: " in front.
  Status AtLine(const Status& s, const std::string& name) const {
    return s.WithContext(name + ":" + std::to_string(line_number_));
  }

  // Input offset just past the line last returned (and its '\n').
  uint64_t end_offset() const { return in_->offset() + pending_; }

 private:
  // Drops the rest of a too-long line. Sets *eof when the input ends.
  Status Discard(bool* eof);

  BufferedInput* in_;
  size_t max_line_;
  size_t pending_ = 0;  // bytes of the last line (and its '\n') still in the window
  uint64_t line_number_ = 0;
  bool discarding_ = false;
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_LINE_READER_H_
