// Decodes the text form of fingerprint files (written by
// fingerprint_file_writer.cc): "<id>\t<16 hex digits>" or "<id>\t-\t<reason>"
// per line. Blank lines are ignored.
#ifndef SIMDEX_ENGINE_IO_TEXT_FINGERPRINT_DECODER_H_
#define SIMDEX_ENGINE_IO_TEXT_FINGERPRINT_DECODER_H_

#include <memory>
#include <string>
#include <string_view>

#include "engine/io/bad_records.h"
#include "engine/io/buffered_input.h"
#include "engine/io/fingerprint_decoder.h"
#include "engine/io/line_reader.h"

namespace simdex::io {

// Parses one line (without its end of line). Sets *empty and leaves
// rec->fingerprint alone for an empty-document line. On a malformed line
// returns InvalidArgument with the reason ("fingerprint is not 16 hex
// digits: 'xyz'"), without file or line.
Status ParseTextFingerprintLine(std::string_view line, FingerprintRecord* rec, bool* empty);

class TextFingerprintDecoder : public FingerprintFileReader::Decoder {
 public:
  TextFingerprintDecoder(std::unique_ptr<BufferedInput> input, std::string name,
                         const FingerprintFileReaderOptions& options);
  Status Read(FingerprintRecord* out, size_t max, size_t* n) override;
  FingerprintFileForm form() const override { return FingerprintFileForm::kText; }

 private:
  static constexpr size_t kMaxLine = 1 << 16;
  std::unique_ptr<BufferedInput> input_;
  std::string name_;
  LineReader lines_;
  BadRecords bad_;
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_TEXT_FINGERPRINT_DECODER_H_
