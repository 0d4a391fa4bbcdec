// NFKC + case folding (ICU's NFKC_Casefold) with an ASCII fast path.
#ifndef SIMDEX_ENGINE_TEXT_NORMALIZER_H_
#define SIMDEX_ENGINE_TEXT_NORMALIZER_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/util/utf.h"
#include "simdex/status.h"

struct UNormalizer2;

namespace simdex::text {

// Thread safety: a CaseFoldNormalizer only reads the shared ICU singleton
// and may be used from many threads at once.
class CaseFoldNormalizer {
 public:
  // Fetches ICU's NFKC_Casefold instance; fails only if ICU data is missing.
  Status Init();

  // Replaces *out with NFKC_Casefold(text[0, n)).
  //
  // Fast path (plain == false): an ASCII unit followed by another ASCII unit
  // (or the end) is lower-cased directly, since NFKC leaves ASCII alone and
  // every ASCII character starts a normalization segment; each remaining run
  // is checked with spanQuickCheckYes and only its tail after the first
  // "no"/"maybe" goes through ICU. plain == true sends the whole text through
  // ICU; both give identical output (tests compare them).
  // REQUIRES: Init() succeeded; text is not out->data().
  void Normalize(const char16_t* text, size_t n, bool plain, util::U16Buffer* out) const;

  // Convenience for short strings (stop words, idf terms): UTF-8 in, UTF-8 out.
  std::string NormalizeUtf8(std::string_view utf8) const;

 private:
  // Appends NFKC_Casefold(text[0, n)) computed by ICU.
  void AppendIcu(const char16_t* text, size_t n, util::U16Buffer* out) const;

  const UNormalizer2* icu_ = nullptr;
};

}  // namespace simdex::text

#endif  // SIMDEX_ENGINE_TEXT_NORMALIZER_H_
