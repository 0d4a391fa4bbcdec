// Decodes the text form of fingerprint files (written by
// fingerprint_file_writer.cc, or by other tools): "<id>\t<fingerprint>" or
// "<id>\t-\t<reason>" per line; the id a decimal u64 or a string id, the
// fingerprint 1 to 16 hex digits, "0x" allowed. Blank lines are ignored.
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

// Parses one line (without its end of line) into *entry (all but its line
// number). On a malformed line returns InvalidArgument with the reason
// ("fingerprint is not 1 to 16 hex digits: 'xyz'"), without file or line.
Status ParseTextFingerprintLine(std::string_view line, FingerprintEntry* entry);

class TextFingerprintDecoder : public FingerprintFileReader::Decoder {
 public:
  TextFingerprintDecoder(std::unique_ptr<BufferedInput> input, std::string name,
                         const FingerprintFileReaderOptions& options);
  // Reads the profile line ("#simdex-profile\t<profile>") if the file
  // starts with one. A malformed one is an error naming line 1.
  Status Start() override;
  Status Read(FingerprintRecord* out, size_t max, size_t* n) override;
  Status Next(FingerprintEntry* out, bool* eof) override;
  FingerprintFileForm form() const override { return FingerprintFileForm::kText; }

 private:
  // The next well-formed line into *entry (bad lines skipped or returned as
  // the error, as options say); *eof at the end.
  Status NextLine(FingerprintEntry* entry, bool* eof);

  static constexpr size_t kMaxLine = 1 << 16;
  std::unique_ptr<BufferedInput> input_;
  std::string name_;
  LineReader lines_;
  BadRecords bad_;
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_TEXT_FINGERPRINT_DECODER_H_
