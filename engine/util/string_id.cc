// CheckStringId (include/simdex/front_end_text.h).
#include <cstdint>
#include <cstdio>
#include <string>

#include "engine/util/utf.h"
#include "simdex/front_end_text.h"

namespace simdex {

Status CheckStringId(std::string_view id) {
  if (id.empty()) return Status::InvalidArgument("id is empty");
  if (id.size() > kMaxStringIdBytes) {
    return Status::InvalidArgument("id is longer than " + std::to_string(kMaxStringIdBytes) + " bytes");
  }
  for (size_t i = 0; i < id.size();) {
    const unsigned char c = static_cast<unsigned char>(id[i]);
    if (c >= 0x20 && c < 0x7F) {  // printable ASCII, most ids' every byte
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7F) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", c);
      return Status::InvalidArgument("id holds control character " + std::string(hex) + " at byte " +
                                     std::to_string(i));
    }
    const size_t n = util::ValidUtf8SequenceLength(id, i);
    if (n == 0) return Status::InvalidArgument("id is not valid UTF-8 at byte " + std::to_string(i));
    i += n;
  }
  return Status::OK();
}

}  // namespace simdex
