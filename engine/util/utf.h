// UTF-8 <-> UTF-16 conversion for the text pipeline, with reusable buffers.
#ifndef SIMDEX_ENGINE_UTIL_UTF_H_
#define SIMDEX_ENGINE_UTIL_UTF_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace simdex::util {

// A grow-only UTF-16 buffer: resizing never zero-fills and never shrinks the
// allocation, so one buffer serves every document a Fingerprinter sees.
class U16Buffer {
 public:
  char16_t* data() { return data_.get(); }
  const char16_t* data() const { return data_.get(); }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  // Ensures capacity() >= n, keeping the first size() units.
  void Reserve(size_t n);
  // REQUIRES: n <= capacity().
  void set_size(size_t n) { size_ = n; }
  void clear() { size_ = 0; }
  void push_back(char16_t c) {
    if (size_ == capacity_) Reserve(size_ + 1);
    data_[size_++] = c;
  }
  void Append(const char16_t* s, size_t n);

 private:
  std::unique_ptr<char16_t[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// Length of the valid UTF-8 sequence starting at s[i], or 0 if none does
// (overlong forms, UTF-16 surrogates and values past U+10FFFF are invalid).
// REQUIRES: i < s.size().
size_t ValidUtf8SequenceLength(std::string_view s, size_t i);

// Replaces *out with the UTF-16 form of utf8. Every ill-formed sequence
// (each maximal subpart, as ICU's u_strFromUTF8WithSub counts them) becomes
// U+FFFD. Returns the number of replacements.
// REQUIRES: utf8.size() <= INT32_MAX.
uint32_t DecodeUtf8(std::string_view utf8, U16Buffer* out);

// Appends the UTF-8 form of s[0, n) to *out. An unpaired surrogate (which the
// pipeline never produces) is written as U+FFFD.
void AppendUtf8(const char16_t* s, size_t n, std::string* out);

// ASCII white space: space, tab, line feed, vertical tab, form feed, return.
constexpr bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// Writes the UTF-8 form of one code point (<= 0x10FFFF, not a surrogate) to
// dst, which has room for 4 bytes; returns the number of bytes written.
inline size_t EncodeUtf8(uint32_t c, char* dst) {
  if (c < 0x80) {
    dst[0] = static_cast<char>(c);
    return 1;
  }
  if (c < 0x800) {
    dst[0] = static_cast<char>(0xC0 | (c >> 6));
    dst[1] = static_cast<char>(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    dst[0] = static_cast<char>(0xE0 | (c >> 12));
    dst[1] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    dst[2] = static_cast<char>(0x80 | (c & 0x3F));
    return 3;
  }
  dst[0] = static_cast<char>(0xF0 | (c >> 18));
  dst[1] = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
  dst[2] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
  dst[3] = static_cast<char>(0x80 | (c & 0x3F));
  return 4;
}

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_UTF_H_
