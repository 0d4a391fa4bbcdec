// SignatureFileWriter (include/simdex/signature_file.h): writes
//   #simdex-signatures\t<profile>\n
//   <id>\t<num_perm x 8 lowercase hex digits>\n   or   <id>\t-\t<reason>\n
// through an OutputWriter, which buffers, compresses by the name and renames
// the finished file into place.
#include <cassert>

#include "engine/io/text_record.h"
#include "simdex/front_end_text.h"
#include "simdex/output_writer.h"
#include "simdex/signature_file.h"

namespace simdex {

SignatureFileWriter::SignatureFileWriter(std::unique_ptr<OutputWriter> out, int num_perm)
    : out_(std::move(out)), num_perm_(num_perm) {}

SignatureFileWriter::~SignatureFileWriter() = default;

Status SignatureFileWriter::Open(const std::string& path, const MinHashOptions& options,
                                 std::unique_ptr<SignatureFileWriter>* out) {
  std::unique_ptr<MinHasher> check;  // the options a signature can be made with
  SIMDEX_RETURN_IF_ERROR(MinHasher::Create(options, &check));
  std::unique_ptr<OutputWriter> file;
  SIMDEX_RETURN_IF_ERROR(OutputWriter::Open(path, &file));
  std::string header(io::kSignatureHeaderPrefix);
  header.append(MinHashProfile(options)).push_back('\n');
  SIMDEX_RETURN_IF_ERROR(file->Append(header));
  out->reset(new SignatureFileWriter(std::move(file), options.num_perm));
  return Status::OK();
}

Status SignatureFileWriter::AddLine(uint64_t id, const std::string_view* id_string, const uint32_t* signature,
                                    std::string_view reason) {
  if (!status_.ok()) return status_;
  line_.clear();
  if (id_string != nullptr) status_ = simdex::CheckStringId(*id_string).WithContext("id " + simdex::Quoted(*id_string));
  // The header is the first line: no id can be taken for one.
  if (status_.ok()) status_ = io::AppendIdField(id, id_string, /*first_line=*/false, &line_);
  if (!status_.ok()) return status_;
  if (signature == nullptr) {
    assert(!reason.empty() && reason.find_first_of("\t\r\n") == std::string_view::npos);
    io::AppendEmptyFields(reason, &line_);
    ++empty_;
  } else {
    for (int i = 0; i < num_perm_; ++i) util::AppendHex(signature[i], 8, &line_);
    line_.push_back('\n');
    ++records_;
  }
  status_ = out_->Append(line_);
  return status_;
}

Status SignatureFileWriter::Add(uint64_t id, const uint32_t* signature) {
  return AddLine(id, nullptr, signature, {});
}

Status SignatureFileWriter::Add(std::string_view id, const uint32_t* signature) {
  return AddLine(0, &id, signature, {});
}

Status SignatureFileWriter::AddEmpty(uint64_t id, std::string_view reason) {
  return AddLine(id, nullptr, nullptr, reason);
}

Status SignatureFileWriter::AddEmpty(std::string_view id, std::string_view reason) {
  return AddLine(0, &id, nullptr, reason);
}

Status SignatureFileWriter::Finish() {
  if (!status_.ok()) return status_;
  status_ = out_->Close();
  return status_;
}

}  // namespace simdex
