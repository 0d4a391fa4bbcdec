// Hex text form of fingerprints.
#include "engine/util/json_text.h"
#include "simdex/fingerprint.h"

namespace simdex {

bool ParseHexFingerprint(std::string_view hex, uint64_t* out) {
  if (hex.empty() || hex.size() > 16) return false;
  uint64_t v = 0;
  uint8_t bad = 0;
  for (char c : hex) {
    const uint8_t d = util::kHexValue[static_cast<unsigned char>(c)];
    bad |= d;  // any 0xff leaves the high bits set
    v = (v << 4) | (d & 0xf);
  }
  if (bad & 0xf0) return false;
  *out = v;
  return true;
}

std::string FormatHexFingerprint(uint64_t fingerprint) {
  std::string s;
  util::AppendHex(fingerprint, 16, &s);
  return s;
}

}  // namespace simdex
