// FingerprintFileWriter: formats records into a buffer and hands it to an
// OutputStream in large writes.
//
// Text form: "<id>\t<16 lower-case hex digits>\n", or "<id>\t-\t<reason>\n".
// Binary form: the layout in fingerprint_file_format.h.
#include <cassert>
#include <new>
#include <string>

#include <xxhash.h>

#include "engine/io/fingerprint_file_format.h"
#include "engine/io/output_stream.h"
#include "engine/io/text_record.h"
#include "simdex/fingerprint_file.h"
#include "simdex/front_end_text.h"
#include "simdex/profile.h"

namespace simdex {

class FingerprintFileWriter::Encoder {
 public:
  explicit Encoder(std::unique_ptr<io::OutputStream> out) : out_(std::move(out)) { buf_.reserve(kFlushAt + 256); }
  virtual ~Encoder() = default;
  virtual Status Add(uint64_t id, uint64_t fingerprint) = 0;
  virtual Status AddEmpty(uint64_t id, std::string_view reason) = 0;
  // String ids; REQUIRES: simdex::CheckStringId(id) passed.
  virtual Status Add(std::string_view id, uint64_t fingerprint) = 0;
  virtual Status AddEmpty(std::string_view id, std::string_view reason) = 0;
  virtual Status Finish(uint64_t records, uint64_t empty) = 0;

 protected:
  static constexpr size_t kFlushAt = 1 << 20;
  Status MaybeFlush() { return buf_.size() >= kFlushAt ? Flush() : Status::OK(); }
  virtual Status Flush() {
    Status s = out_->Write(buf_.data(), buf_.size());
    buf_.clear();
    return s;
  }
  Status Close() {
    SIMDEX_RETURN_IF_ERROR(Flush());
    return out_->Close();
  }
  std::string buf_;

 private:
  std::unique_ptr<io::OutputStream> out_;
};

namespace {

class TextEncoder : public FingerprintFileWriter::Encoder {
 public:
  TextEncoder(std::unique_ptr<io::OutputStream> out, std::string_view profile) : Encoder(std::move(out)) {
    if (profile.empty()) return;
    buf_.append(io::kTextProfilePrefix).append(profile).push_back('\n');
    first_line_ = false;
  }

  Status Add(uint64_t id, uint64_t fingerprint) override {
    AppendId(id);
    return AppendFingerprint(fingerprint);
  }
  Status Add(std::string_view id, uint64_t fingerprint) override {
    SIMDEX_RETURN_IF_ERROR(AppendStringId(id));
    return AppendFingerprint(fingerprint);
  }

  Status AddEmpty(uint64_t id, std::string_view reason) override {
    AppendId(id);
    return AppendEmpty(reason);
  }
  Status AddEmpty(std::string_view id, std::string_view reason) override {
    SIMDEX_RETURN_IF_ERROR(AppendStringId(id));
    return AppendEmpty(reason);
  }

  Status Finish(uint64_t, uint64_t) override { return Close(); }

 private:
  Status AppendStringId(std::string_view id) {
    SIMDEX_RETURN_IF_ERROR(io::AppendStringIdField(id, first_line_, &buf_));
    first_line_ = false;
    return Status::OK();
  }
  void AppendId(uint64_t id) {
    first_line_ = false;
    io::AppendIdField(id, &buf_);
  }
  Status AppendFingerprint(uint64_t fingerprint) {
    io::AppendHex(fingerprint, 16, &buf_);
    buf_.push_back('\n');
    return MaybeFlush();
  }
  Status AppendEmpty(std::string_view reason) {
    io::AppendEmptyFields(reason, &buf_);
    return MaybeFlush();
  }

  bool first_line_ = true;
};

Status NoStringIds(std::string_view id) {
  return Status::InvalidArgument("binary fingerprint files hold unsigned 64-bit ids only, not '" +
                                 std::string(id.substr(0, 40)) + "'; write the text form");
}

class BinaryEncoder : public FingerprintFileWriter::Encoder {
 public:
  BinaryEncoder(std::unique_ptr<io::OutputStream> out, std::string_view profile)
      : Encoder(std::move(out)), hash_(XXH3_createState()) {
    if (hash_ == nullptr) throw std::bad_alloc();
    XXH3_64bits_reset(hash_);
    io::BinaryHeader h;
    if (!profile.empty()) h.version = io::kBinaryProfileVersion;
    char header[io::BinaryHeader::kEncodedLength];
    h.EncodeTo(header);
    buf_.append(header, sizeof(header));
    if (!profile.empty()) {
      format::PutFixed32(&buf_, static_cast<uint32_t>(profile.size()));
      buf_.append(profile);
    }
  }
  ~BinaryEncoder() override { XXH3_freeState(hash_); }

  Status Add(uint64_t id, uint64_t fingerprint) override {
    char rec[io::kBinaryRecordSize];
    format::EncodeFixed64(rec, id);
    format::EncodeFixed64(rec + 8, fingerprint);
    buf_.append(rec, sizeof(rec));
    return MaybeFlush();
  }

  Status AddEmpty(uint64_t, std::string_view) override { return Status::OK(); }
  Status Add(std::string_view id, uint64_t) override { return NoStringIds(id); }
  Status AddEmpty(std::string_view id, std::string_view) override { return NoStringIds(id); }

  Status Finish(uint64_t records, uint64_t empty) override {
    io::BinaryTrailer trailer;
    trailer.records = records;
    trailer.empty = empty;
    char bytes[io::BinaryTrailer::kEncodedLength];
    trailer.EncodeTo(bytes);
    buf_.append(bytes, io::BinaryTrailer::kChecksumOffset);
    XXH3_64bits_update(hash_, buf_.data(), buf_.size());
    trailer.checksum = XXH3_64bits_digest(hash_);
    trailer.EncodeTo(bytes);
    buf_.append(bytes + io::BinaryTrailer::kChecksumOffset,
                io::BinaryTrailer::kEncodedLength - io::BinaryTrailer::kChecksumOffset);
    // The checksum is complete; Flush must not hash the trailer again.
    finishing_ = true;
    return Close();
  }

 protected:
  Status Flush() override {
    if (!finishing_) XXH3_64bits_update(hash_, buf_.data(), buf_.size());
    return Encoder::Flush();
  }

 private:
  XXH3_state_t* hash_;
  bool finishing_ = false;
};

// One Add or AddEmpty: nothing after a failure (*status keeps the first), a
// string id (when id is not null) checked before encode() runs; counted either way.
template <typename Encode>
Status Record(Status* status, uint64_t* count, const std::string_view* id, Encode encode) {
  if (!status->ok()) return *status;
  if (id != nullptr) *status = simdex::CheckStringId(*id).WithContext("id " + simdex::Quoted(*id));
  if (status->ok()) *status = encode();
  ++*count;
  return *status;
}

}  // namespace

FingerprintFileWriter::FingerprintFileWriter(std::unique_ptr<Encoder> encoder) : encoder_(std::move(encoder)) {}

FingerprintFileWriter::~FingerprintFileWriter() = default;

Status FingerprintFileWriter::Open(const std::string& path, FingerprintFileForm form,
                                   std::unique_ptr<FingerprintFileWriter>* out) {
  return Open(path, form, "", out);
}

Status FingerprintFileWriter::Open(const std::string& path, FingerprintFileForm form, std::string_view profile,
                                   std::unique_ptr<FingerprintFileWriter>* out) {
  SIMDEX_RETURN_IF_ERROR(CheckProfileText(profile));
  std::unique_ptr<io::OutputStream> stream;
  SIMDEX_RETURN_IF_ERROR(io::OutputStream::Open(path, &stream));
  std::unique_ptr<Encoder> encoder;
  if (form == FingerprintFileForm::kBinary) {
    encoder = std::make_unique<BinaryEncoder>(std::move(stream), profile);
  } else {
    encoder = std::make_unique<TextEncoder>(std::move(stream), profile);
  }
  out->reset(new FingerprintFileWriter(std::move(encoder)));
  return Status::OK();
}

Status FingerprintFileWriter::Add(uint64_t id, uint64_t fingerprint) {
  return Record(&status_, &records_, nullptr, [&] { return encoder_->Add(id, fingerprint); });
}

Status FingerprintFileWriter::AddEmpty(uint64_t id, std::string_view reason) {
  assert(!reason.empty() && reason.find_first_of("\t\r\n") == std::string_view::npos);
  return Record(&status_, &empty_, nullptr, [&] { return encoder_->AddEmpty(id, reason); });
}

Status FingerprintFileWriter::Add(std::string_view id, uint64_t fingerprint) {
  return Record(&status_, &records_, &id, [&] { return encoder_->Add(id, fingerprint); });
}

Status FingerprintFileWriter::AddEmpty(std::string_view id, std::string_view reason) {
  assert(!reason.empty() && reason.find_first_of("\t\r\n") == std::string_view::npos);
  return Record(&status_, &empty_, &id, [&] { return encoder_->AddEmpty(id, reason); });
}

Status FingerprintFileWriter::Finish() {
  if (!status_.ok()) return status_;
  status_ = encoder_->Finish(records_, empty_);
  return status_;
}

}  // namespace simdex
