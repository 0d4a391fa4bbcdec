// DetectBatchFormat (include/simdex/document_reader.h): the first non-blank
// line of an input decides what it holds.
#include <string>
#include <string_view>

#include "engine/io/fingerprint_file_format.h"
#include "engine/io/input_stream.h"
#include "engine/io/line_reader.h"
#include "engine/io/text_fingerprint_decoder.h"
#include "engine/io/text_record.h"
#include "simdex/document_reader.h"

namespace simdex {

namespace {

constexpr size_t kMaxPeek = size_t{1} << 16;

bool IsBlank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

// The first line of head that is not blank, without its '\r'; *complete
// tells whether its '\n' (or the input's end, for eof) was seen.
std::string_view FirstLine(std::string_view head, bool eof, bool* complete) {
  if (head.starts_with(io::kUtf8Bom)) head.remove_prefix(io::kUtf8Bom.size());
  for (;;) {
    const size_t end = head.find('\n');
    std::string_view line = head.substr(0, end);
    *complete = end != std::string_view::npos || eof;
    if (end == std::string_view::npos || !IsBlank(line)) {
      if (line.ends_with('\r')) line.remove_suffix(1);
      return IsBlank(line) ? std::string_view() : line;
    }
    head.remove_prefix(end + 1);
  }
}

// A line as `simdex fingerprint` writes it: the fingerprint as 16 hex
// digits, or a document without one. (Shorter hex is read in fingerprint
// files, but too likely in a text to decide by.)
bool IsFingerprintLine(std::string_view line) {
  FingerprintEntry entry;
  if (!io::ParseTextFingerprintLine(line, &entry).ok()) return false;
  return entry.empty || line.size() - line.find('\t') - 1 == 16;
}

}  // namespace

Status DetectBatchFormat(const std::string& path, BatchFormat* out) {
  auto decided = [](std::string_view head) {
    if (head.size() < io::kBinaryMagic.size() && io::kBinaryMagic.starts_with(head)) return false;
    bool complete = false;
    FirstLine(head, /*eof=*/false, &complete);
    return complete;
  };
  std::string head;
  SIMDEX_RETURN_IF_ERROR(io::PeekInput(path, kMaxPeek, decided, &head));
  if (std::string_view(head).starts_with(io::kBinaryMagic)) {
    *out = BatchFormat::kFingerprints;
    return Status::OK();
  }
  bool complete = false;
  const std::string_view line = FirstLine(head, /*eof=*/true, &complete);
  const size_t first = line.find_first_not_of(" \t");
  if (line.starts_with(io::kSignatureHeaderPrefix)) *out = BatchFormat::kSignatures;
  else if (line.starts_with(io::kTextProfilePrefix) || IsFingerprintLine(line)) *out = BatchFormat::kFingerprints;
  else if (first != std::string_view::npos && line[first] == '{') *out = BatchFormat::kJsonl;
  else *out = BatchFormat::kLines;
  return Status::OK();
}

}  // namespace simdex
