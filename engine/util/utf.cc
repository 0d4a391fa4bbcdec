// UTF-8 <-> UTF-16 conversion. Decoding is ICU's (so that replacement counts
// follow ICU's maximal-subpart rule); encoding is a plain loop with an ASCII
// fast path, because features are hashed as UTF-8 and most are short.
#include "engine/util/utf.h"

#include <unicode/ustring.h>
#include <unicode/utf16.h>

#include <algorithm>
#include <cstring>

namespace simdex::util {

size_t ValidUtf8SequenceLength(std::string_view s, size_t i) {
  const auto byte = [&](size_t j) { return static_cast<unsigned char>(s[j]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if ((c & 0xE0) == 0xC0) n = 2, cp = c & 0x1F;
  else if ((c & 0xF0) == 0xE0) n = 3, cp = c & 0x0F;
  else if ((c & 0xF8) == 0xF0) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t j = 1; j < n; ++j) {
    if ((byte(i + j) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + j) & 0x3F);
  }
  static constexpr uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0;
  return n;
}


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

namespace {

// Decodes utf8 with ICU, appending to *out (which has room for utf8.size()
// more units); returns the number of replacements.
uint32_t AppendIcuDecoded(std::string_view utf8, U16Buffer* out) {
  int32_t length = 0;
  int32_t substitutions = 0;
  UErrorCode status = U_ZERO_ERROR;
  u_strFromUTF8WithSub(reinterpret_cast<UChar*>(out->data() + out->size()),
                       static_cast<int32_t>(out->capacity() - out->size()), &length, utf8.data(),
                       static_cast<int32_t>(utf8.size()), 0xFFFD, &substitutions, &status);
  if (U_FAILURE(status)) {
    // Cannot happen with a large enough buffer and a valid substitution
    // character; treat the piece as one ill-formed sequence.
    out->push_back(0xFFFD);
    return 1;
  }
  out->set_size(out->size() + static_cast<size_t>(length));
  return static_cast<uint32_t>(substitutions);
}

}  // namespace

// ASCII runs are widened here; the stretches between them go to ICU. A cut
// before an ASCII byte never splits a sequence or a maximal ill-formed
// subpart, so the result and the count are ICU's for the whole text. Short
// ASCII runs stay inside the ICU stretch to save calls.
uint32_t DecodeUtf8(std::string_view utf8, U16Buffer* out) {
  constexpr size_t kMinAsciiRun = 16;
  out->clear();
  // Each byte yields at most one UTF-16 unit (a 4-byte sequence yields two).
  out->Reserve(utf8.size());
  const unsigned char* s = reinterpret_cast<const unsigned char*>(utf8.data());
  const size_t n = utf8.size();
  uint32_t substitutions = 0;
  size_t i = 0;
  while (i < n) {
    size_t j = i;
    while (j < n && s[j] < 0x80) ++j;
    char16_t* dst = out->data() + out->size();
    for (size_t k = i; k < j; ++k) *dst++ = s[k];
    out->set_size(out->size() + (j - i));
    if (j == n) break;
    // The ICU stretch ends where a long ASCII run starts.
    size_t end = j + 1, run = 0;
    for (; end < n; ++end) {
      if (s[end] >= 0x80) {
        run = 0;
      } else if (++run == kMinAsciiRun) {
        end -= kMinAsciiRun - 1;
        break;
      }
    }
    substitutions += AppendIcuDecoded(utf8.substr(j, end - j), out);
    i = end;
  }
  return substitutions;
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
    char bytes[4];
    out->append(bytes, EncodeUtf8(c, bytes));
  }
}

}  // namespace simdex::util
