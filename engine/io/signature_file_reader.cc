// SignatureFileReader (include/simdex/signature_file.h): decodes the files
// signature_file_writer.cc writes. Every check is made on the line in hand:
// the header on line 1, then per line the id and the empty-document form
// (engine/io/text_record.h, shared with text fingerprint files) and exactly
// num_perm x 8 hex digits.
#include <cstdio>

#include "engine/io/buffered_input.h"
#include "engine/io/fingerprint_file_format.h"
#include "engine/io/line_reader.h"
#include "engine/io/text_fingerprint_decoder.h"
#include "engine/io/text_record.h"
#include "simdex/signature_file.h"

namespace simdex {

namespace {

// The longest line read: a 4096-byte string id, a tab and 1024 values.
constexpr size_t kMaxLine = size_t{1} << 16;

// Exactly num_perm x 8 hex digits into signature[0, num_perm).
Status ParseSignature(std::string_view hex, int num_perm, std::vector<uint32_t>* signature) {
  const size_t digits = static_cast<size_t>(num_perm) * 8;
  if (hex.size() != digits) {
    return Status::InvalidArgument("signature has " + std::to_string(hex.size()) + " hex digits, not " +
                                   std::to_string(digits) + " (" + std::to_string(num_perm) + " values of 8)");
  }
  signature->resize(static_cast<size_t>(num_perm));
  for (size_t i = 0; i < static_cast<size_t>(num_perm); ++i) {
    uint32_t v = 0;
    for (size_t j = i * 8; j < i * 8 + 8; ++j) {
      const unsigned char c = static_cast<unsigned char>(hex[j]);
      const uint8_t d = util::kHexValue[c];
      if (d > 0xf) {
        char what[16];
        if (c > ' ' && c < 0x7f) std::snprintf(what, sizeof(what), "'%c'", c);
        else std::snprintf(what, sizeof(what), "byte 0x%02x", c);
        return Status::InvalidArgument("signature digit " + std::to_string(j + 1) + " is " + what +
                                       ", not a hex digit");
      }
      v = (v << 4) | d;
    }
    (*signature)[i] = v;
  }
  return Status::OK();
}

// What a first line that is not the header holds, for the refusal.
Status NotASignatureFile(std::string_view line, const std::string& name) {
  FingerprintEntry fingerprint;
  if (line.starts_with(io::kTextProfilePrefix) || io::ParseTextFingerprintLine(line, &fingerprint).ok()) {
    return Status::InvalidArgument(name + ":1: holds SimHash fingerprints, not MinHash signatures (simdex "
                                          "fingerprint --method minhash makes them)");
  }
  return Status::InvalidArgument(name + ":1: not a MinHash signature file: the first line is not '" +
                                 std::string(io::kSignatureHeaderPrefix.substr(0, io::kSignatureHeaderPrefix.size() - 1)) +
                                 "<TAB><profile>'");
}

}  // namespace

struct SignatureFileReader::Rep {
  Rep(std::unique_ptr<io::BufferedInput> in, std::string n)
      : input(std::move(in)), lines(input.get(), kMaxLine), name(std::move(n)) {}

  // Reads and checks line 1.
  Status ReadHeader() {
    std::string_view line;
    bool eof = false;
    Status s = lines.Next(&line, &eof);
    if (!s.ok()) return s.IsInvalidArgument() ? lines.AtLine(s, name) : s;
    if (eof) {
      return Status::InvalidArgument(name + ":1: empty, not a MinHash signature file (no '#simdex-signatures' "
                                            "line)");
    }
    if (!line.starts_with(io::kSignatureHeaderPrefix)) return NotASignatureFile(line, name);
    profile.assign(line.substr(io::kSignatureHeaderPrefix.size()));
    s = ParseMinHashProfile(profile, &options);
    std::unique_ptr<MinHasher> check;  // num_perm and the shingles in range
    if (s.ok()) s = MinHasher::Create(options, &check);
    if (!s.ok()) return Status::InvalidArgument(name + ":1: bad signature header: " + s.message());
    stats.bytes = lines.end_offset();
    return Status::OK();
  }

  std::unique_ptr<io::BufferedInput> input;
  io::LineReader lines;
  std::string name;
  std::string profile;
  MinHashOptions options;
  SignatureFileStats stats;
};

SignatureFileReader::SignatureFileReader(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

SignatureFileReader::~SignatureFileReader() = default;

Status SignatureFileReader::Open(const std::string& path, std::unique_ptr<SignatureFileReader>* out) {
  std::unique_ptr<io::BufferedInput> input;
  std::string name;
  SIMDEX_RETURN_IF_ERROR(io::OpenBatchInput(path, "a MinHash signature file", &input, &name));
  if (std::string_view(input->data(), input->size()).starts_with(io::kBinaryMagic)) {
    return Status::InvalidArgument(name + ": holds SimHash fingerprints (the binary form), not MinHash signatures");
  }
  auto rep = std::make_unique<Rep>(std::move(input), std::move(name));
  SIMDEX_RETURN_IF_ERROR(rep->ReadHeader());
  out->reset(new SignatureFileReader(std::move(rep)));
  return Status::OK();
}

Status SignatureFileReader::Next(SignatureEntry* out, bool* eof) {
  Rep& r = *rep_;
  for (;;) {
    std::string_view line;
    Status s = r.lines.Next(&line, eof);
    r.stats.bytes = r.lines.end_offset();
    if (!s.ok()) return s.IsInvalidArgument() ? r.lines.AtLine(s, r.name) : s;  // else I/O: already names the file
    if (*eof) return Status::OK();
    if (line.empty()) continue;
    io::TextRecord record;
    s = io::SplitTextRecord(line, "signature", &record);
    if (s.ok() && !record.empty) s = ParseSignature(record.value, r.options.num_perm, &out->signature);
    if (!s.ok()) return r.lines.AtLine(s, r.name);
    out->id = record.id;
    out->id_string.assign(record.id_string);
    out->empty = record.empty;
    out->empty_reason.assign(record.reason);
    if (record.empty) out->signature.clear();
    out->line = r.lines.line_number();
    ++(record.empty ? r.stats.empty : r.stats.records);
    return Status::OK();
  }
}

const std::string& SignatureFileReader::profile() const { return rep_->profile; }
const MinHashOptions& SignatureFileReader::options() const { return rep_->options; }
const SignatureFileStats& SignatureFileReader::stats() const { return rep_->stats; }
const std::string& SignatureFileReader::name() const { return rep_->name; }

}  // namespace simdex
