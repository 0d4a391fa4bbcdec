// Printable and Quoted (include/simdex/front_end_text.h).
#include <string>

#include "engine/util/json_text.h"
#include "simdex/front_end_text.h"

namespace simdex {

std::string Printable(std::string_view s, size_t max_bytes) {
  bool cut = false;
  if (s.size() > max_bytes) {
    size_t end = max_bytes;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;  // not inside a character
    s = s.substr(0, end);
    cut = true;
  }
  std::string out;
  out.reserve(s.size() + (cut ? 3 : 0));
  for (char c : s) {
    const unsigned char b = static_cast<unsigned char>(c);
    if (c == '\t') out.append("\\t");
    else if (c == '\n') out.append("\\n");
    else if (c == '\r') out.append("\\r");
    else if (b < 0x20 || b == 0x7F) util::AppendHex(b, 2, &out.append("\\x"));
    else out.push_back(c);
  }
  if (cut) out.append("...");
  return out;
}

std::string Quoted(std::string_view s) {
  std::string q(1, '\'');
  q.append(Printable(s, 40)).push_back('\'');
  return q;
}

}  // namespace simdex
