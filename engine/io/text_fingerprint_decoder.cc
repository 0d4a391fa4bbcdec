#include "engine/io/text_fingerprint_decoder.h"

#include <array>

#include "engine/io/decimal.h"

namespace simdex::io {

namespace {

// Hex digit values; 0xff for anything else.
constexpr std::array<uint8_t, 256> kHexValue = [] {
  std::array<uint8_t, 256> t{};
  t.fill(0xff);
  for (int c = 0; c < 10; ++c) t['0' + c] = static_cast<uint8_t>(c);
  for (int c = 0; c < 6; ++c) {
    t['a' + c] = static_cast<uint8_t>(10 + c);
    t['A' + c] = static_cast<uint8_t>(10 + c);
  }
  return t;
}();

bool ParseHex16(std::string_view s, uint64_t* out) {
  if (s.size() != 16) return false;
  uint64_t v = 0;
  uint8_t bad = 0;
  for (char c : s) {
    uint8_t d = kHexValue[static_cast<unsigned char>(c)];
    bad |= d;  // any 0xff leaves the high bits set
    v = (v << 4) | (d & 0xf);
  }
  if (bad & 0xf0) return false;
  *out = v;
  return true;
}

std::string Quoted(std::string_view s) {
  constexpr size_t kMax = 40;
  std::string q = "'";
  q += s.substr(0, kMax);
  if (s.size() > kMax) q += "...";
  return q + "'";
}

}  // namespace

Status ParseTextFingerprintLine(std::string_view line, FingerprintRecord* rec, bool* empty) {
  size_t tab = line.find('\t');
  if (tab == std::string_view::npos) {
    return Status::InvalidArgument("expected '<id><TAB><16 hex digits>' or '<id><TAB>-<TAB><reason>', got " +
                                   Quoted(line));
  }
  if (!ParseDecimalUint64(line.substr(0, tab), &rec->id)) {
    return Status::InvalidArgument("id is not an unsigned 64-bit integer: " + Quoted(line.substr(0, tab)));
  }
  std::string_view rest = line.substr(tab + 1);
  if (rest.starts_with("-")) {
    if (rest.size() < 3 || rest[1] != '\t') {
      return Status::InvalidArgument("empty-document line without '<TAB><reason>': " + Quoted(line));
    }
    *empty = true;
    return Status::OK();
  }
  if (!ParseHex16(rest, &rec->fingerprint)) {
    return Status::InvalidArgument("fingerprint is not 16 hex digits: " + Quoted(rest));
  }
  *empty = false;
  return Status::OK();
}

TextFingerprintDecoder::TextFingerprintDecoder(std::unique_ptr<BufferedInput> input, std::string name,
                                               const FingerprintFileReaderOptions& options)
    : input_(std::move(input)),
      name_(std::move(name)),
      lines_(input_.get(), kMaxLine),
      bad_(options.skip_bad, options.max_errors_kept) {}

Status TextFingerprintDecoder::Read(FingerprintRecord* out, size_t max, size_t* n) {
  *n = 0;
  while (*n < max) {
    std::string_view line;
    bool eof = false;
    Status s = lines_.Next(&line, &eof);
    if (s.ok() && eof) break;
    bool empty = false;
    if (s.ok()) {
      if (line.empty()) continue;
      s = ParseTextFingerprintLine(line, &out[*n], &empty);
    } else if (!s.IsInvalidArgument()) {
      return s;  // I/O or decompression: already names the file
    }
    if (!s.ok()) {
      SIMDEX_RETURN_IF_ERROR(bad_.Handle(s.WithContext(name_ + ":" + std::to_string(lines_.line_number()))));
      stats_.skipped = bad_.skipped();
      stats_.first_errors = bad_.first_errors();
      continue;
    }
    if (empty) {
      ++stats_.empty;
    } else {
      ++*n;
    }
  }
  stats_.records += *n;
  stats_.bytes = lines_.end_offset();
  return Status::OK();
}

}  // namespace simdex::io
