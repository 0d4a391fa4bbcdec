// AppendJsonString and AppendJsonId under the engine's names for them (the
// public include/simdex/front_end_text.h holds them, for front ends too),
// and the engine's own numbers as text: AppendDecimal, ShortestDecimal, hex
// digits.
#ifndef SIMDEX_ENGINE_UTIL_JSON_TEXT_H_
#define SIMDEX_ENGINE_UTIL_JSON_TEXT_H_

#include <array>
#include <charconv>
#include <concepts>
#include <cstdint>
#include <string>

#include "simdex/front_end_text.h"

namespace simdex::util {

using simdex::AppendJsonId;
using simdex::AppendJsonString;

// Appends `value` in decimal, as std::to_string would, without making a
// string of it (the per-document and per-pair outputs write tens of
// millions of numbers).
template <std::integral Int>
void AppendDecimal(std::string* out, Int value) {
  char digits[24];
  out->append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
}

// The shortest text that reads back as `value` ("0.2", not
// "0.20000000000000001").
std::string ShortestDecimal(double value);

// A hex digit's value (0-9, a-f, A-F); 0xff for every other byte.
inline constexpr std::array<uint8_t, 256> kHexValue = [] {
  std::array<uint8_t, 256> t{};
  t.fill(0xff);
  for (int c = 0; c < 10; ++c) t['0' + c] = static_cast<uint8_t>(c);
  for (int c = 0; c < 6; ++c) {
    t['a' + c] = static_cast<uint8_t>(10 + c);
    t['A' + c] = static_cast<uint8_t>(10 + c);
  }
  return t;
}();

// Appends the low 4 * digits bits of value as `digits` lowercase hex digits,
// most significant first. REQUIRES: 1 <= digits <= 16.
void AppendHex(uint64_t value, int digits, std::string* out);

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_JSON_TEXT_H_
