// Hex text form of fingerprints.
#include "simdex/fingerprint.h"

namespace simdex {

bool ParseHexFingerprint(std::string_view hex, uint64_t* out) {
  if (hex.empty() || hex.size() > 16) return false;
  uint64_t v = 0;
  for (char c : hex) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return false;
    v = (v << 4) | static_cast<uint64_t>(d);
  }
  *out = v;
  return true;
}

std::string FormatHexFingerprint(uint64_t fingerprint) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i) {
    s[i] = kDigits[fingerprint & 15];
    fingerprint >>= 4;
  }
  return s;
}

}  // namespace simdex
