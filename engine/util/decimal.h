// Strict decimal parsing of unsigned 64-bit integers.
#ifndef SIMDEX_ENGINE_UTIL_DECIMAL_H_
#define SIMDEX_ENGINE_UTIL_DECIMAL_H_

#include <cstdint>
#include <string_view>

namespace simdex::io {

// Parses 1 to 20 ASCII digits (leading zeros allowed; no sign, space or
// other character) into *out. Returns false, leaving *out untouched, when s
// is not such a number or exceeds 2^64 - 1.
inline bool ParseDecimalUint64(std::string_view s, uint64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

}  // namespace simdex::io

#endif  // SIMDEX_ENGINE_UTIL_DECIMAL_H_
