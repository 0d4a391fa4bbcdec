// Decodes the binary form of fingerprint files (written by
// fingerprint_file_writer.cc; layout in fingerprint_file_format.h). Reads
// sequentially, so it works on pipes and compressed input: the last 32 bytes
// seen are held back as the possible trailer until the input ends.
#ifndef SIMDEX_ENGINE_IO_BINARY_FINGERPRINT_DECODER_H_
#define SIMDEX_ENGINE_IO_BINARY_FINGERPRINT_DECODER_H_

#include <memory>
#include <string>
#include <vector>

#include <xxhash.h>

#include "engine/io/buffered_input.h"
#include "engine/io/fingerprint_decoder.h"

namespace simdex::io {

class BinaryFingerprintDecoder : public FingerprintFileReader::Decoder {
 public:
  // REQUIRES: input's window starts with the binary magic.
  BinaryFingerprintDecoder(std::unique_ptr<BufferedInput> input, std::string name);
  ~BinaryFingerprintDecoder() override;

  // Checks the header.
  Status Start() override;
  Status Read(FingerprintRecord* out, size_t max, size_t* n) override;
  Status Next(FingerprintEntry* out, bool* eof) override;
  FingerprintFileForm form() const override { return FingerprintFileForm::kBinary; }

 private:
  // Version 2: the profile length and bytes after the header.
  Status ReadProfile();
  // "<name>: byte <offset>: <what>" as a Corruption.
  Status Corrupt(uint64_t offset, const std::string& what) const;
  // Checks the trailer at the start of the window, the whole remaining input.
  Status Finish();

  std::unique_ptr<BufferedInput> input_;
  std::string name_;
  XXH3_state_t* hash_;
  bool done_ = false;
  // Next(): records read ahead, and the next of them to hand out.
  std::vector<FingerprintRecord> ahead_;
  size_t ahead_pos_ = 0;
  uint64_t returned_ = 0;
};

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_IO_BINARY_FINGERPRINT_DECODER_H_
