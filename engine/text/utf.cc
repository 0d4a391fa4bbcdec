// UTF-8 <-> UTF-16 conversion. Decoding is ICU's (so that replacement counts
// follow ICU's maximal-subpart rule); encoding is a plain loop with an ASCII
// fast path, because features are hashed as UTF-8 and most are short.
#include "engine/text/utf.h"

#include <unicode/ustring.h>
#include <unicode/utf16.h>

#include <algorithm>
#include <cstring>

namespace simdex::text {

void U16Buffer::Reserve(size_t n) {
  if (n <= capacity_) return;
  size_t cap = std::max(n, capacity_ + capacity_ / 2 + 64);
  std::unique_ptr<char16_t[]> grown(new char16_t[cap]);
  if (size_ > 0) std::memcpy(grown.get(), data_.get(), size_ * sizeof(char16_t));
  data_ = std::move(grown);
  capacity_ = cap;
}

void U16Buffer::Append(const char16_t* s, size_t n) {
  Reserve(size_ + n);
  if (n > 0) std::memcpy(data_.get() + size_, s, n * sizeof(char16_t));
  size_ += n;
}

uint32_t DecodeUtf8(std::string_view utf8, U16Buffer* out) {
  out->clear();
  if (utf8.empty()) return 0;
  // Each byte yields at most one UTF-16 unit (a 4-byte sequence yields two).
  out->Reserve(utf8.size());
  int32_t length = 0;
  int32_t substitutions = 0;
  UErrorCode status = U_ZERO_ERROR;
  u_strFromUTF8WithSub(reinterpret_cast<UChar*>(out->data()), static_cast<int32_t>(out->capacity()),
                       &length, utf8.data(), static_cast<int32_t>(utf8.size()), 0xFFFD,
                       &substitutions, &status);
  if (U_FAILURE(status)) {
    // Cannot happen with a large enough buffer and a valid substitution
    // character; treat the whole input as one ill-formed sequence.
    out->clear();
    out->push_back(0xFFFD);
    return 1;
  }
  out->set_size(static_cast<size_t>(length));
  return static_cast<uint32_t>(substitutions);
}

void AppendUtf8(const char16_t* s, size_t n, std::string* out) {
  size_t i = 0;
  while (i < n) {
    // ASCII runs are copied a unit at a time into preallocated space.
    size_t j = i;
    while (j < n && s[j] < 0x80) ++j;
    if (j > i) {
      size_t old = out->size();
      out->resize(old + (j - i));
      char* dst = out->data() + old;
      for (size_t k = i; k < j; ++k) *dst++ = static_cast<char>(s[k]);
      i = j;
      continue;
    }
    uint32_t c = s[i++];
    if (U16_IS_LEAD(c) && i < n && U16_IS_TRAIL(s[i])) {
      c = U16_GET_SUPPLEMENTARY(c, s[i]);
      ++i;
    } else if (U16_IS_SURROGATE(c)) {
      c = 0xFFFD;
    }
    AppendCodePointUtf8(c, out);
  }
}

}  // namespace simdex::text
