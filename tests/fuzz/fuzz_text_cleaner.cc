// Fuzz target for the cleaning step of the fingerprint pipeline
// (engine/text/text_cleaner.cc, docs/fingerprint.md step 0) and, through the
// default Fingerprinter, the rest of the pipeline on what it leaves.
//
// A bug is: a crash or sanitizer report; a cleaned text longer than the
// input; TextCleaner::Clean disagreeing with the four passes applied one
// after the other; a fingerprint that changes when the same text is given
// again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "engine/text/text_cleaner.h"
#include "simdex/fingerprint.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static simdex::text::TextCleaner* cleaner = new simdex::text::TextCleaner;
  static simdex::Fingerprinter* fingerprinter = [] {
    std::unique_ptr<simdex::Fingerprinter> fp;
    if (!simdex::Fingerprinter::Create(simdex::FingerprintOptions(), &fp).ok()) std::abort();
    return fp.release();
  }();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string cleaned(cleaner->Clean(text));
  if (cleaned.size() > text.size()) std::abort();
  // The passes one at a time, in order, give what Clean() gives.
  std::string passed(text), next;
  for (int pass = 0; pass < 4; ++pass) {
    simdex::text::ApplyPass(static_cast<simdex::text::CleanerPass>(pass), passed, &next);
    passed.swap(next);
  }
  if (passed != cleaned) std::abort();
  const simdex::FingerprintResult first = fingerprinter->Fingerprint(text);
  const simdex::FingerprintResult again = fingerprinter->Fingerprint(text);
  if (first.reason != again.reason || first.fingerprint != again.fingerprint) std::abort();
  return 0;
}
