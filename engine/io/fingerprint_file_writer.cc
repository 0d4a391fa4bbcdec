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

// Either form: the header first, then each record as Add() gives it, the
// trailer (binary: counts and checksum) at Finish().
class FingerprintFileWriter::Encoder {
 public:
  Encoder(std::unique_ptr<io::OutputStream> out, FingerprintFileForm form, std::string_view profile)
      : out_(std::move(out)), binary_(form == FingerprintFileForm::kBinary) {
    buf_.reserve(kFlushAt + 256);
    if (!binary_) {
      if (!profile.empty()) buf_.append(io::kTextProfilePrefix).append(profile).push_back('\n');
      first_line_ = profile.empty();
      return;
    }
    hash_ = XXH3_createState();
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
  ~Encoder() { XXH3_freeState(hash_); }

  // One document: id_string null for a numeric id (a string id has passed
  // simdex::CheckStringId), fingerprint null for one without (the binary
  // form only counts it).
  Status Add(uint64_t id, const std::string_view* id_string, const uint64_t* fingerprint, std::string_view reason) {
    if (binary_ && id_string != nullptr) {
      return Status::InvalidArgument("binary fingerprint files hold unsigned 64-bit ids only, not '" +
                                     std::string(id_string->substr(0, 40)) + "'; write the text form");
    }
    if (binary_ && fingerprint != nullptr) {
      char rec[io::kBinaryRecordSize];
      format::EncodeFixed64(rec, id);
      format::EncodeFixed64(rec + 8, *fingerprint);
      buf_.append(rec, sizeof(rec));
    } else if (!binary_) {
      SIMDEX_RETURN_IF_ERROR(io::AppendIdField(id, id_string, first_line_, &buf_));
      first_line_ = false;
      if (fingerprint == nullptr) {
        io::AppendEmptyFields(reason, &buf_);
      } else {
        util::AppendHex(*fingerprint, 16, &buf_);
        buf_.push_back('\n');
      }
    }
    return buf_.size() >= kFlushAt ? Flush() : Status::OK();
  }

  Status Finish(uint64_t records, uint64_t empty) {
    if (binary_) {
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
      hash_covers_buffer_ = true;  // the checksum is complete: not hashed again
    }
    SIMDEX_RETURN_IF_ERROR(Flush());
    return out_->Close();
  }

 private:
  static constexpr size_t kFlushAt = 1 << 20;

  Status Flush() {
    if (binary_ && !hash_covers_buffer_) XXH3_64bits_update(hash_, buf_.data(), buf_.size());
    Status s = out_->Write(buf_.data(), buf_.size());
    buf_.clear();
    return s;
  }

  std::unique_ptr<io::OutputStream> out_;
  const bool binary_;
  std::string buf_;
  bool first_line_ = false;      // text: nothing precedes the next line
  XXH3_state_t* hash_ = nullptr;  // binary: of every byte flushed
  bool hash_covers_buffer_ = false;
};

namespace {

// One Add or AddEmpty: nothing after a failure (*status keeps the first), a
// string id (when id_string is not null) checked before it is encoded;
// counted either way.
Status Record(FingerprintFileWriter::Encoder* encoder, Status* status, uint64_t* count, uint64_t id,
              const std::string_view* id_string, const uint64_t* fingerprint, std::string_view reason) {
  if (!status->ok()) return *status;
  if (id_string != nullptr) *status = simdex::CheckStringId(*id_string).WithContext("id " + simdex::Quoted(*id_string));
  if (status->ok()) *status = encoder->Add(id, id_string, fingerprint, reason);
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
  out->reset(new FingerprintFileWriter(std::make_unique<Encoder>(std::move(stream), form, profile)));
  return Status::OK();
}

Status FingerprintFileWriter::Add(uint64_t id, uint64_t fingerprint) {
  return Record(encoder_.get(), &status_, &records_, id, nullptr, &fingerprint, {});
}

Status FingerprintFileWriter::AddEmpty(uint64_t id, std::string_view reason) {
  assert(!reason.empty() && reason.find_first_of("\t\r\n") == std::string_view::npos);
  return Record(encoder_.get(), &status_, &empty_, id, nullptr, nullptr, reason);
}

Status FingerprintFileWriter::Add(std::string_view id, uint64_t fingerprint) {
  return Record(encoder_.get(), &status_, &records_, 0, &id, &fingerprint, {});
}

Status FingerprintFileWriter::AddEmpty(std::string_view id, std::string_view reason) {
  assert(!reason.empty() && reason.find_first_of("\t\r\n") == std::string_view::npos);
  return Record(encoder_.get(), &status_, &empty_, 0, &id, nullptr, reason);
}

Status FingerprintFileWriter::Finish() {
  if (!status_.ok()) return status_;
  status_ = encoder_->Finish(records_, empty_);
  return status_;
}

}  // namespace simdex
