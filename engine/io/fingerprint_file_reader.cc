// FingerprintFileReader: detects the form from the first bytes and hands the
// input to the matching decoder.
#include <string_view>

#include "engine/io/binary_fingerprint_decoder.h"
#include "engine/io/fingerprint_file_format.h"
#include "engine/io/text_fingerprint_decoder.h"

namespace simdex {

static_assert(io::kBinaryMagic.size() <= io::kBatchHeadBytes, "OpenBatchInput's window holds the binary magic");

FingerprintFileReader::FingerprintFileReader(std::unique_ptr<Decoder> decoder, std::string name)
    : decoder_(std::move(decoder)), name_(std::move(name)) {}

FingerprintFileReader::~FingerprintFileReader() = default;

Status FingerprintFileReader::Open(const std::string& path, const FingerprintFileReaderOptions& options,
                                   std::unique_ptr<FingerprintFileReader>* out) {
  std::unique_ptr<io::BufferedInput> input;
  std::string name;
  SIMDEX_RETURN_IF_ERROR(io::OpenBatchInput(path, "a fingerprint file", &input, &name));
  std::unique_ptr<Decoder> decoder;
  if (std::string_view(input->data(), input->size()).starts_with(io::kBinaryMagic)) {
    decoder = std::make_unique<io::BinaryFingerprintDecoder>(std::move(input), name);
  } else {
    decoder = std::make_unique<io::TextFingerprintDecoder>(std::move(input), name, options);
  }
  SIMDEX_RETURN_IF_ERROR(decoder->Start());
  out->reset(new FingerprintFileReader(std::move(decoder), std::move(name)));
  return Status::OK();
}

Status FingerprintFileReader::Read(FingerprintRecord* out, size_t max, size_t* n) {
  return decoder_->Read(out, max, n);
}

Status FingerprintFileReader::Next(FingerprintEntry* out, bool* eof) { return decoder_->Next(out, eof); }

FingerprintFileForm FingerprintFileReader::form() const { return decoder_->form(); }

const FingerprintFileStats& FingerprintFileReader::stats() const { return decoder_->stats(); }

const std::string& FingerprintFileReader::name() const { return name_; }
const std::string& FingerprintFileReader::profile() const { return decoder_->profile(); }

}  // namespace simdex
