#include "engine/io/string_id.h"

#include <cstdint>
#include <cstdio>
#include <string>

namespace simdex::io {

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 if none starts there
// (overlong forms, surrogates and values past U+10FFFF are invalid).
size_t SequenceLength(std::string_view s, size_t i) {
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

}  // namespace

Status CheckStringId(std::string_view id) {
  if (id.empty()) return Status::InvalidArgument("id is empty");
  if (id.size() > kMaxStringIdBytes) {
    return Status::InvalidArgument("id is longer than " + std::to_string(kMaxStringIdBytes) + " bytes");
  }
  for (size_t i = 0; i < id.size();) {
    const unsigned char c = static_cast<unsigned char>(id[i]);
    if (c < 0x20 || c == 0x7F) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", c);
      return Status::InvalidArgument("id holds control character " + std::string(hex) + " at byte " +
                                     std::to_string(i));
    }
    const size_t n = SequenceLength(id, i);
    if (n == 0) return Status::InvalidArgument("id is not valid UTF-8 at byte " + std::to_string(i));
    i += n;
  }
  return Status::OK();
}

}  // namespace simdex::io
