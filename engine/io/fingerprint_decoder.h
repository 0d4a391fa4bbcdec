// The interface the two fingerprint-file decoders (text, binary) implement
// behind FingerprintFileReader.
#ifndef SIMDEX_ENGINE_IO_FINGERPRINT_DECODER_H_
#define SIMDEX_ENGINE_IO_FINGERPRINT_DECODER_H_

#include <string>

#include "simdex/fingerprint_file.h"

namespace simdex {

class FingerprintFileReader::Decoder {
 public:
  virtual ~Decoder() = default;
  // Reads and checks what comes before the records. Called once, first.
  virtual Status Start() = 0;
  // As FingerprintFileReader::Read.
  virtual Status Read(FingerprintRecord* out, size_t max, size_t* n) = 0;
  // As FingerprintFileReader::Next.
  virtual Status Next(FingerprintEntry* out, bool* eof) = 0;
  virtual FingerprintFileForm form() const = 0;
  const FingerprintFileStats& stats() const { return stats_; }
  // The profile the file records ("" for none); known once the decoder started.
  const std::string& profile() const { return profile_; }

 protected:
  FingerprintFileStats stats_;
  std::string profile_;
};

}  // namespace simdex

#endif  // SIMDEX_ENGINE_IO_FINGERPRINT_DECODER_H_
