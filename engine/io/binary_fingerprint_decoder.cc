#include "engine/io/binary_fingerprint_decoder.h"

#include <algorithm>
#include <new>

#include "engine/io/fingerprint_file_format.h"
#include "simdex/profile.h"

namespace simdex::io {

namespace {
// Records decoded per refill of the window.
constexpr size_t kRecordsPerFill = 1 << 16;
}  // namespace

BinaryFingerprintDecoder::BinaryFingerprintDecoder(std::unique_ptr<BufferedInput> input, std::string name)
    : input_(std::move(input)), name_(std::move(name)), hash_(XXH3_createState()) {
  if (hash_ == nullptr) throw std::bad_alloc();
  XXH3_64bits_reset(hash_);
}

BinaryFingerprintDecoder::~BinaryFingerprintDecoder() { XXH3_freeState(hash_); }

Status BinaryFingerprintDecoder::Corrupt(uint64_t offset, const std::string& what) const {
  return Status::Corruption(name_ + ": byte " + std::to_string(offset) + ": " + what);
}

Status BinaryFingerprintDecoder::Start() {
  SIMDEX_RETURN_IF_ERROR(input_->Fill(BinaryHeader::kEncodedLength));
  if (input_->size() < BinaryHeader::kEncodedLength) {
    return Corrupt(input_->size(), "truncated: the file ends inside the 16-byte header");
  }
  BinaryHeader header;
  header.DecodeFrom(input_->data());
  if (header.version != kBinaryVersion && header.version != kBinaryProfileVersion) {
    return Corrupt(8, "unsupported version " + std::to_string(header.version) + " (this reader knows " +
                          std::to_string(kBinaryVersion) + " and " + std::to_string(kBinaryProfileVersion) + ")");
  }
  if (header.flags != 0) return Corrupt(12, "unknown flags " + std::to_string(header.flags));
  XXH3_64bits_update(hash_, input_->data(), BinaryHeader::kEncodedLength);
  input_->Consume(BinaryHeader::kEncodedLength);
  if (header.version == kBinaryProfileVersion) SIMDEX_RETURN_IF_ERROR(ReadProfile());
  stats_.bytes = input_->offset();
  return Status::OK();
}

Status BinaryFingerprintDecoder::ReadProfile() {
  const uint64_t at = input_->offset();
  SIMDEX_RETURN_IF_ERROR(input_->Fill(4));
  if (input_->size() < 4) return Corrupt(at, "truncated: the file ends inside the profile length");
  const uint32_t length = format::DecodeFixed32(input_->data());
  if (length == 0 || length > kMaxProfileLength) {
    return Corrupt(at, "profile length " + std::to_string(length) + " is not 1.." +
                           std::to_string(kMaxProfileLength));
  }
  SIMDEX_RETURN_IF_ERROR(input_->Fill(4 + length));
  if (input_->size() < 4 + length) return Corrupt(at + 4, "truncated: the file ends inside the profile");
  std::string_view profile(input_->data() + 4, length);
  Status s = CheckProfileText(profile);
  if (!s.ok()) return Corrupt(at + 4, s.message());
  profile_.assign(profile);
  XXH3_64bits_update(hash_, input_->data(), 4 + length);
  input_->Consume(4 + length);
  return Status::OK();
}

Status BinaryFingerprintDecoder::Read(FingerprintRecord* out, size_t max, size_t* n) {
  *n = 0;
  if (done_) return Status::OK();
  const size_t want = std::min(max, kRecordsPerFill) * kBinaryRecordSize + BinaryTrailer::kEncodedLength;
  SIMDEX_RETURN_IF_ERROR(input_->Fill(want));
  // Everything but the last trailer-sized piece of the window is records.
  size_t avail = input_->size();
  size_t count = avail > BinaryTrailer::kEncodedLength
                     ? std::min((avail - BinaryTrailer::kEncodedLength) / kBinaryRecordSize, max)
                     : 0;
  const char* p = input_->data();
  for (size_t i = 0; i < count; ++i, p += kBinaryRecordSize) {
    out[i].id = format::DecodeFixed64(p);
    out[i].fingerprint = format::DecodeFixed64(p + 8);
  }
  size_t bytes = count * kBinaryRecordSize;
  XXH3_64bits_update(hash_, input_->data(), bytes);
  input_->Consume(bytes);
  stats_.records += count;
  stats_.bytes = input_->offset();
  *n = count;
  if (count == 0) return Finish();
  return Status::OK();
}

Status BinaryFingerprintDecoder::Next(FingerprintEntry* out, bool* eof) {
  if (ahead_pos_ == ahead_.size()) {
    ahead_.resize(256);
    size_t n = 0;
    SIMDEX_RETURN_IF_ERROR(Read(ahead_.data(), ahead_.size(), &n));
    ahead_.resize(n);
    ahead_pos_ = 0;
    if (n == 0) {
      *eof = true;
      return Status::OK();
    }
  }
  const FingerprintRecord& r = ahead_[ahead_pos_++];
  out->id = r.id;
  out->id_string.clear();
  out->fingerprint = r.fingerprint;
  out->empty = false;
  out->empty_reason.clear();
  out->line = ++returned_;
  *eof = false;
  return Status::OK();
}

Status BinaryFingerprintDecoder::Finish() {
  // Read() found fewer than one record before the last 32 bytes, and it asked
  // for more than that, so the window holds the whole rest of the input.
  const uint64_t at = input_->offset();
  const size_t rest = input_->size();
  if (rest < BinaryTrailer::kEncodedLength) {
    return Corrupt(at, "truncated: " + std::to_string(rest) + " bytes where the 32-byte trailer should be");
  }
  if (rest > BinaryTrailer::kEncodedLength) {
    return Corrupt(at, "truncated: " + std::to_string(rest - BinaryTrailer::kEncodedLength) +
                           " bytes of a partial record before the trailer");
  }
  BinaryTrailer trailer;
  trailer.DecodeFrom(input_->data());
  if (!trailer.end_magic_ok) {
    return Corrupt(at + 24, "bad end magic (the file is truncated or not a simdex fingerprint file)");
  }
  if (trailer.records != stats_.records) {
    return Corrupt(at, "trailer says " + std::to_string(trailer.records) + " records, the file holds " +
                           std::to_string(stats_.records));
  }
  XXH3_64bits_update(hash_, input_->data(), BinaryTrailer::kChecksumOffset);
  if (XXH3_64bits_digest(hash_) != trailer.checksum) return Corrupt(at + 16, "checksum mismatch");
  input_->Consume(rest);
  stats_.empty = trailer.empty;
  stats_.bytes = input_->offset();
  done_ = true;
  return Status::OK();
}

}  // namespace simdex::io
