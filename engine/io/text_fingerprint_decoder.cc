#include "engine/io/text_fingerprint_decoder.h"

#include <algorithm>

#include "engine/io/fingerprint_file_format.h"
#include "engine/io/text_record.h"
#include "simdex/front_end_text.h"
#include "simdex/profile.h"

namespace simdex::io {

Status ParseTextFingerprintLine(std::string_view line, FingerprintEntry* entry) {
  TextRecord r;
  SIMDEX_RETURN_IF_ERROR(SplitTextRecord(line, "fingerprint", &r));
  entry->id = r.id;
  entry->id_string.assign(r.id_string);
  entry->empty = r.empty;
  entry->empty_reason.assign(r.reason);
  if (r.empty) return Status::OK();
  std::string_view hex = r.value;  // 1 to 16 hex digits, optionally after "0x" or "0X"
  if (hex.size() > 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex.remove_prefix(2);
  if (!ParseHexFingerprint(hex, &entry->fingerprint)) {
    return Status::InvalidArgument("fingerprint is not 1 to 16 hex digits: " + simdex::Quoted(r.value));
  }
  return Status::OK();
}

TextFingerprintDecoder::TextFingerprintDecoder(std::unique_ptr<BufferedInput> input, std::string name,
                                               const FingerprintFileReaderOptions& options)
    : input_(std::move(input)),
      name_(std::move(name)),
      lines_(input_.get(), kMaxLine),
      bad_(options.skip_bad, options.max_errors_kept) {}

Status TextFingerprintDecoder::Start() {
  SIMDEX_RETURN_IF_ERROR(input_->Fill(kUtf8Bom.size() + std::max(kTextProfilePrefix.size(), kSignatureHeaderPrefix.size())));
  std::string_view head(input_->data(), input_->size());
  if (head.starts_with(kUtf8Bom)) head.remove_prefix(kUtf8Bom.size());
  if (head.starts_with(kSignatureHeaderPrefix)) {
    return Status::InvalidArgument(name_ + ":1: holds MinHash signatures (simdex fingerprint --method minhash), not "
                                   "SimHash fingerprints");
  }
  if (!head.starts_with(kTextProfilePrefix)) return Status::OK();
  std::string_view line;  // the line reader drops the byte order mark
  bool eof = false;
  Status s = lines_.Next(&line, &eof);
  if (s.ok()) s = CheckProfileText(line.substr(kTextProfilePrefix.size()));
  if (s.ok() && line.size() == kTextProfilePrefix.size()) s = Status::InvalidArgument("the profile is empty");
  if (!s.ok()) return Status::InvalidArgument(name_ + ":1: bad profile line: " + s.message());
  profile_.assign(line.substr(kTextProfilePrefix.size()));
  stats_.bytes = lines_.end_offset();
  return Status::OK();
}

Status TextFingerprintDecoder::NextLine(FingerprintEntry* entry, bool* eof) {
  for (;;) {
    std::string_view line;
    Status s = lines_.Next(&line, eof);
    stats_.bytes = lines_.end_offset();
    if (s.ok() && *eof) return Status::OK();
    if (s.ok()) {
      if (line.empty()) continue;
      s = ParseTextFingerprintLine(line, entry);
    } else if (!s.IsInvalidArgument()) {
      return s;  // I/O or decompression: already names the file
    }
    if (s.ok()) {
      entry->line = lines_.line_number();
      return Status::OK();
    }
    SIMDEX_RETURN_IF_ERROR(bad_.Handle(lines_.AtLine(s, name_), &stats_));
  }
}

Status TextFingerprintDecoder::Next(FingerprintEntry* out, bool* eof) {
  SIMDEX_RETURN_IF_ERROR(NextLine(out, eof));
  if (*eof) return Status::OK();
  if (out->empty) ++stats_.empty;
  else ++stats_.records;
  return Status::OK();
}

Status TextFingerprintDecoder::Read(FingerprintRecord* out, size_t max, size_t* n) {
  *n = 0;
  FingerprintEntry entry;
  while (*n < max) {
    bool eof = false;
    SIMDEX_RETURN_IF_ERROR(NextLine(&entry, &eof));
    if (eof) break;
    if (!entry.id_string.empty()) {
      const Status s = Status::InvalidArgument("id " + simdex::Quoted(entry.id_string) +
                                               " is not an unsigned 64-bit integer (this reader needs numeric ids)");
      SIMDEX_RETURN_IF_ERROR(bad_.Handle(lines_.AtLine(s, name_), &stats_));
      continue;
    }
    if (entry.empty) {
      ++stats_.empty;
      continue;
    }
    out[(*n)++] = {entry.id, entry.fingerprint};
  }
  stats_.records += *n;
  return Status::OK();
}

}  // namespace simdex::io
