// Encodes and decodes the records of records.h.
#include "engine/service/records.h"

#include <bit>
#include <cstring>

#include "format/coding.h"

namespace simdex::service {

namespace {

constexpr uint64_t kMin64 = uint64_t{1} << 63;  // second + 2^63 orders signed seconds
constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;

void PutString(std::string* out, std::string_view s) {
  format::PutFixed32(out, static_cast<uint32_t>(s.size()));
  out->append(s);
}

void PutDouble(std::string* out, double v) { format::PutFixed64(out, std::bit_cast<uint64_t>(v)); }

void PutBigEndian(std::string* out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>((v >> shift) & 0xff));
}

// Reads fields from one value and never past its end: the first shortfall
// marks the reader failed, and every later read returns zeros.
class Reader {
 public:
  Reader(std::string_view in, const char* what) : in_(in), what_(what) {}

  uint8_t U8() { return Has(1) ? static_cast<uint8_t>(Take(1)[0]) : 0; }
  uint32_t U32() { return Has(4) ? format::DecodeFixed32(Take(4)) : 0; }
  uint64_t U64() { return Has(8) ? format::DecodeFixed64(Take(8)) : 0; }
  double F64() { return std::bit_cast<double>(U64()); }
  std::string Str() {
    const uint32_t n = U32();
    if (!Has(n)) return {};
    return std::string(Take(n), n);
  }
  bool failed() const { return failed_; }
  bool at_end() const { return in_.empty(); }
  Status Finish() const {
    if (failed_) return Status::Corruption(std::string(what_) + " record is truncated");
    if (!in_.empty()) return Status::Corruption(std::string(what_) + " record has " + std::to_string(in_.size()) +
                                                " bytes past its end");
    return Status::OK();
  }

 private:
  bool Has(size_t n) {
    if (failed_ || in_.size() < n) failed_ = true;
    return !failed_;
  }
  const char* Take(size_t n) {
    const char* p = in_.data();
    in_.remove_prefix(n);
    return p;
  }

  std::string_view in_;
  const char* what_;
  bool failed_ = false;
};

}  // namespace

uint64_t MixSeq(uint64_t x) {
  x += kGolden;  // splitmix64's step: seq 0 does not map to docId 0
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t UnmixDocId(uint64_t x) {
  // Each step of MixSeq undone in reverse order: x ^= x >> s by repeating
  // the shift until it covers 64 bits; a multiplier by its inverse modulo
  // 2^64.
  x = x ^ (x >> 31) ^ (x >> 62);
  x *= 0x319642b2d24d8ec3ull;
  x = x ^ (x >> 27) ^ (x >> 54);
  x *= 0x96de1b173f119089ull;
  x = x ^ (x >> 30) ^ (x >> 60);
  return x - kGolden;
}

std::string SeqKey(uint64_t seq) {
  std::string key;
  PutBigEndian(&key, seq);
  return key;
}

bool DecodeSeqKey(std::string_view key, uint64_t* seq) {
  if (key.size() != 8) return false;
  *seq = format::LoadBigEndian64(key.data());
  return true;
}

std::string SecondKey(int64_t second) { return SeqKey(static_cast<uint64_t>(second) ^ kMin64); }

bool DecodeSecondKey(std::string_view key, int64_t* second) {
  uint64_t v;
  if (!DecodeSeqKey(key, &v)) return false;
  *second = static_cast<int64_t>(v ^ kMin64);
  return true;
}

void ArticleRecord::EncodeTo(std::string* out) const {
  format::PutFixed64(out, doc_seq);
  out->push_back(static_cast<char>(reason));
  out->push_back(static_cast<char>(distance));
  format::PutFixed64(out, static_cast<uint64_t>(second));
  PutString(out, id_json);
  PutString(out, url);
  if (similarity > 0) PutDouble(out, similarity);
}

Status ArticleRecord::DecodeFrom(std::string_view in) {
  Reader r(in, "article");
  doc_seq = r.U64();
  reason = r.U8();
  distance = static_cast<int8_t>(r.U8());
  second = static_cast<int64_t>(r.U64());
  id_json = r.Str();
  url = r.Str();
  similarity = r.at_end() ? 0 : r.F64();
  SIMDEX_RETURN_IF_ERROR(r.Finish());
  if (reason > 3) return Status::Corruption("article record has reason " + std::to_string(reason));
  return Status::OK();
}

void UrlRecord::EncodeTo(std::string* out) const {
  format::PutFixed64(out, article_seq);
  format::PutFixed64(out, doc_seq);
}

Status UrlRecord::DecodeFrom(std::string_view in) {
  Reader r(in, "url");
  article_seq = r.U64();
  doc_seq = r.U64();
  return r.Finish();
}

void DocRecord::EncodeTo(std::string* out) const {
  format::PutFixed64(out, static_cast<uint64_t>(second));
  out->push_back(
      static_cast<char>((has_title ? 1 : 0) | (has_content ? 2 : 0) | (has_rep ? 4 : 0) | (has_bands ? 8 : 0)));
  format::PutFixed64(out, title_fp);
  format::PutFixed64(out, content_fp);
  PutDouble(out, score);
  format::PutFixed64(out, rep_seq);
  PutString(out, id_json);
  if (has_bands) PutString(out, bands);
}

Status DocRecord::DecodeFrom(std::string_view in) {
  Reader r(in, "doc");
  second = static_cast<int64_t>(r.U64());
  const uint8_t flags = r.U8();
  has_title = flags & 1;
  has_content = flags & 2;
  has_rep = flags & 4;
  title_fp = r.U64();
  content_fp = r.U64();
  score = r.F64();
  rep_seq = r.U64();
  id_json = r.Str();
  has_bands = flags & 8;
  bands = has_bands ? r.Str() : std::string();
  SIMDEX_RETURN_IF_ERROR(r.Finish());
  if (flags > 15) return Status::Corruption("doc record has flags " + std::to_string(flags));
  return Status::OK();
}

void Totals::EncodeTo(std::string* out) const {
  out->push_back(1);  // version
  for (uint64_t n : by_reason) format::PutFixed64(out, n);
  format::PutFixed64(out, docs);
}

Status Totals::DecodeFrom(std::string_view in) {
  Reader r(in, "totals");
  const uint8_t version = r.U8();
  if (version != 1) return Status::NotSupported("totals version " + std::to_string(version));
  for (uint64_t& n : by_reason) n = r.U64();
  docs = r.U64();
  return r.Finish();
}

void Manifest::EncodeTo(std::string* out) const {
  out->push_back(4);  // version; 1 had no retained_seq, 2 no profile, 3 no content method
  format::PutFixed64(out, compacted_seq);
  format::PutFixed64(out, url_pruned_seq);
  format::PutFixed64(out, retained_seq);
  format::PutFixed64(out, next_file);
  PutString(out, content_scheme);
  PutString(out, title_scheme);
  format::PutFixed32(out, static_cast<uint32_t>(files.size()));
  for (const FileRecord& f : files) {
    out->push_back(static_cast<char>(f.field));
    PutString(out, f.name);
    format::PutFixed64(out, f.min_seq);
    format::PutFixed64(out, f.max_seq);
    format::PutFixed64(out, f.entries);
  }
  PutString(out, profile);
  out->push_back(static_cast<char>(content_method));
  PutString(out, minhash_profile);
  format::PutFixed32(out, bands);
  format::PutFixed32(out, rows);
  out->push_back(static_cast<char>(signature_bits));
}

Status Manifest::DecodeFrom(std::string_view in) {
  Reader r(in, "manifest");
  const uint8_t version = r.U8();
  if (version < 1 || version > 4) return Status::NotSupported("manifest version " + std::to_string(version));
  compacted_seq = r.U64();
  url_pruned_seq = r.U64();
  retained_seq = version >= 2 ? r.U64() : 0;
  next_file = r.U64();
  content_scheme = r.Str();
  title_scheme = r.Str();
  const uint32_t n = r.U32();
  files.clear();
  for (uint32_t i = 0; i < n; ++i) {
    FileRecord f;
    f.field = r.U8();
    f.name = r.Str();
    f.min_seq = r.U64();
    f.max_seq = r.U64();
    f.entries = r.U64();
    if (r.failed()) break;  // reported below
    files.push_back(std::move(f));
  }
  profile = version >= 3 ? r.Str() : std::string();
  content_method = version >= 4 ? r.U8() : 0;
  minhash_profile = version >= 4 ? r.Str() : std::string();
  bands = version >= 4 ? r.U32() : 0;
  rows = version >= 4 ? r.U32() : 0;
  signature_bits = version >= 4 ? r.U8() : 0;
  SIMDEX_RETURN_IF_ERROR(r.Finish());
  if (content_method > 1) return Status::Corruption("manifest has content method " + std::to_string(content_method));
  for (const FileRecord& f : files) {
    if (f.field > kBandField || f.name.empty() || f.name.find('/') != std::string::npos || f.min_seq > f.max_seq) {
      return Status::Corruption("manifest names a bad file record '" + f.name + "'");
    }
  }
  return Status::OK();
}

}  // namespace simdex::service
