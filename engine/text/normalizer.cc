// NFKC_Casefold with an ASCII fast path; see normalizer.h for why the fast
// path gives ICU's result exactly.
#include "engine/text/normalizer.h"

#include <unicode/unorm2.h>

namespace simdex::text {

Status CaseFoldNormalizer::Init() {
  UErrorCode status = U_ZERO_ERROR;
  icu_ = unorm2_getNFKCCasefoldInstance(&status);
  if (U_FAILURE(status) || icu_ == nullptr) {
    return Status::NotSupported(std::string("ICU NFKC_Casefold normalizer unavailable: ") +
                                u_errorName(status));
  }
  return Status::OK();
}

void CaseFoldNormalizer::AppendIcu(const char16_t* text, size_t n, util::U16Buffer* out) const {
  if (n == 0) return;
  const UChar* src = reinterpret_cast<const UChar*>(text);
  // The quick check finds the longest prefix that is already normalized and
  // ends on a normalization boundary; it is copied, not recomputed.
  UErrorCode status = U_ZERO_ERROR;
  int32_t yes = unorm2_spanQuickCheckYes(icu_, src, static_cast<int32_t>(n), &status);
  if (U_FAILURE(status)) yes = 0;
  out->Append(text, static_cast<size_t>(yes));
  src += yes;
  n -= static_cast<size_t>(yes);
  if (n == 0) return;

  size_t base = out->size();
  size_t room = 2 * n + 16;
  for (int attempt = 0; attempt < 2; ++attempt) {
    out->Reserve(base + room);
    status = U_ZERO_ERROR;
    int32_t len = unorm2_normalize(icu_, src, static_cast<int32_t>(n),
                                   reinterpret_cast<UChar*>(out->data() + base),
                                   static_cast<int32_t>(room), &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) {
      room = static_cast<size_t>(len);
      continue;
    }
    if (U_SUCCESS(status)) {
      out->set_size(base + static_cast<size_t>(len));
      return;
    }
    break;
  }
  // Only an allocation failure inside ICU gets here: keep the text as it is
  // rather than lose it.
  out->set_size(base);
  out->Append(reinterpret_cast<const char16_t*>(src), n);
}

void CaseFoldNormalizer::Normalize(const char16_t* text, size_t n, bool plain,
                                   util::U16Buffer* out) const {
  out->clear();
  if (plain) {
    AppendIcu(text, n, out);
    return;
  }
  out->Reserve(n);
  size_t i = 0;
  while (i < n) {
    // An ASCII run; its last unit stays behind when non-ASCII follows, as it
    // may combine with what follows. Inside the run NFKC_Casefold is tolower.
    size_t j = i;
    while (j < n && text[j] < 0x80) ++j;
    size_t fast_end = j < n && j > i ? j - 1 : j;
    out->Reserve(out->size() + (fast_end - i));
    char16_t* dst = out->data() + out->size();
    for (size_t k = i; k < fast_end; ++k) {
      char16_t c = text[k];
      dst[k - i] = static_cast<char16_t>(c + (static_cast<unsigned>(c - 'A') < 26u ? 32 : 0));
    }
    out->set_size(out->size() + (fast_end - i));
    i = fast_end;
    if (i == n) break;
    // A segment that runs up to the next ASCII unit (every ASCII character
    // has a normalization boundary before it).
    j = i + 1;
    while (j < n && text[j] >= 0x80) ++j;
    AppendIcu(text + i, j - i, out);
    i = j;
  }
}

std::string CaseFoldNormalizer::NormalizeUtf8(std::string_view utf8) const {
  util::U16Buffer decoded, normalized;
  util::DecodeUtf8(utf8, &decoded);
  Normalize(decoded.data(), decoded.size(), /*plain=*/true, &normalized);
  std::string out;
  util::AppendUtf8(normalized.data(), normalized.size(), &out);
  return out;
}

}  // namespace simdex::text
