// DetectBatchFormat (include/simdex/document_reader.h): the first non-blank
// line of an input decides what it holds, or refuses it (signatures without
// their header line).
#include <algorithm>
#include <string>
#include <string_view>

#include "engine/io/fingerprint_file_format.h"
#include "engine/io/input_stream.h"
#include "engine/io/line_reader.h"
#include "engine/io/text_fingerprint_decoder.h"
#include "engine/io/text_record.h"
#include "simdex/document_reader.h"
#include "simdex/minhash.h"

namespace simdex {

namespace {

constexpr size_t kMaxPeek = size_t{1} << 16;

// The first line of head that is not blank, without its '\r'; *complete
// tells whether its '\n' (or the input's end, for eof) was seen.
std::string_view FirstLine(std::string_view head, bool eof, bool* complete) {
  if (head.starts_with(io::kUtf8Bom)) head.remove_prefix(io::kUtf8Bom.size());
  for (;;) {
    const size_t end = head.find('\n');
    std::string_view line = head.substr(0, end);
    *complete = end != std::string_view::npos || eof;
    if (end == std::string_view::npos || !io::IsBlank(line)) {
      if (line.ends_with('\r')) line.remove_suffix(1);
      return io::IsBlank(line) ? std::string_view() : line;
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

// A line of a MinHash signature file: "<id>\t" and num_perm values of 8
// hex digits. Fewer than 3 values are not judged by (8 digits are too
// likely in a text, 16 are a fingerprint).
bool IsSignatureLine(std::string_view line) {
  io::TextRecord record;
  if (!io::SplitTextRecord(line, "signature", &record).ok() || record.empty) return false;
  const size_t digits = record.value.size();
  if (digits % 8 != 0 || digits < 24 || digits > 8 * static_cast<size_t>(kMaxNumPerm)) return false;
  return std::all_of(record.value.begin(), record.value.end(),
                     [](char c) { return util::kHexValue[static_cast<unsigned char>(c)] <= 0xf; });
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
  if (IsSignatureLine(line)) {
    // Without its header the signatures' options (num_perm, seed,
    // shingles) are unknown: refused rather than read as text.
    const size_t number = 1 + static_cast<size_t>(std::count(static_cast<const char*>(head.data()), line.data(), '\n'));
    return Status::InvalidArgument(io::DisplayName(path) + ":" + std::to_string(number) +
                                   ": a MinHash signature without the '#simdex-signatures<TAB><profile>' line that "
                                   "opens a signature file (simdex fingerprint --method minhash writes it first); "
                                   "--format lines reads the file as text");
  }
  if (line.starts_with(io::kSignatureHeaderPrefix)) *out = BatchFormat::kSignatures;
  else if (line.starts_with(io::kTextProfilePrefix) || IsFingerprintLine(line)) *out = BatchFormat::kFingerprints;
  else if (first != std::string_view::npos && line[first] == '{') *out = BatchFormat::kJsonl;
  else *out = BatchFormat::kLines;
  return Status::OK();
}

}  // namespace simdex
