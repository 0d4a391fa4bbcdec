// AppendJsonString and AppendJsonId (include/simdex/front_end_text.h), and
// the engine's numbers as text (engine/util/json_text.h).
#include <charconv>
#include <string>

#include "engine/util/json_text.h"
#include "engine/util/utf.h"
#include "simdex/front_end_text.h"

namespace simdex {

void AppendJsonString(std::string* out, std::string_view text) {
  out->push_back('"');
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      out->push_back(static_cast<char>(c));
      ++i;
      continue;
    }
    switch (c) {
      case '"': out->append("\\\""); ++i; continue;
      case '\\': out->append("\\\\"); ++i; continue;
      case '\n': out->append("\\n"); ++i; continue;
      case '\t': out->append("\\t"); ++i; continue;
      case '\r': out->append("\\r"); ++i; continue;
      case '\b': out->append("\\b"); ++i; continue;
      case '\f': out->append("\\f"); ++i; continue;
      default: break;
    }
    if (c < 0x20) {
      out->append("\\u00");
      util::AppendHex(c, 2, out);
      ++i;
      continue;
    }
    const size_t n = util::ValidUtf8SequenceLength(text, i);
    if (n == 0) {
      out->append("\xEF\xBF\xBD");  // U+FFFD
      ++i;
    } else {
      out->append(text.substr(i, n));
      i += n;
    }
  }
  out->push_back('"');
}

void AppendJsonId(std::string* out, uint64_t id, std::string_view id_string) {
  if (id_string.empty()) util::AppendDecimal(out, id);
  else AppendJsonString(out, id_string);
}

namespace util {

std::string ShortestDecimal(double value) {
  char digits[32];
  const std::to_chars_result end = std::to_chars(digits, digits + sizeof digits, value);
  return std::string(digits, end.ptr);
}

void AppendHex(uint64_t value, int digits, std::string* out) {
  static constexpr char kDigits[] = "0123456789abcdef";
  char hex[16];
  for (int i = digits - 1; i >= 0; --i, value >>= 4) hex[i] = kDigits[value & 15];
  out->append(hex, static_cast<size_t>(digits));
}

}  // namespace util
}  // namespace simdex
