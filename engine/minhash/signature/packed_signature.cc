// b-bit signatures (include/simdex/minhash.h): the low b bits of each
// minimum, packed, and the estimate of J from them corrected for the
// chance agreements of unrelated values (Li and König 2010).
//
// Layout: value i occupies bits [i*b, (i+1)*b) of the byte string, bit 0
// being the least significant bit of byte 0 (for b >= 8, each value is b/8
// little-endian bytes). A last partial byte is zero-padded.
#include <algorithm>
#include <cstring>

#include "simdex/minhash.h"

namespace simdex {
namespace {

uint32_t ValueAt(const uint8_t* packed, int i, int bits) {
  const size_t bit = static_cast<size_t>(i) * static_cast<size_t>(bits);
  if (bits >= 8) {
    uint32_t v = 0;
    for (int byte = 0; byte < bits / 8; ++byte) v |= static_cast<uint32_t>(packed[bit / 8 + byte]) << (8 * byte);
    return v;
  }
  return (packed[bit / 8] >> (bit % 8)) & ((1u << bits) - 1);
}

}  // namespace

bool ValidSignatureBits(int bits) {
  return bits == 1 || bits == 2 || bits == 4 || bits == 8 || bits == 16 || bits == 32;
}

size_t PackedSignatureBytes(int num_perm, int bits) {
  return (static_cast<size_t>(num_perm) * static_cast<size_t>(bits) + 7) / 8;
}

void PackSignature(const uint32_t* signature, int num_perm, int bits, uint8_t* out) {
  std::memset(out, 0, PackedSignatureBytes(num_perm, bits));
  const uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
  for (int i = 0; i < num_perm; ++i) {
    const uint32_t v = signature[i] & mask;
    const size_t bit = static_cast<size_t>(i) * static_cast<size_t>(bits);
    if (bits >= 8) {
      for (int byte = 0; byte < bits / 8; ++byte) out[bit / 8 + byte] = static_cast<uint8_t>(v >> (8 * byte));
    } else {
      out[bit / 8] = static_cast<uint8_t>(out[bit / 8] | (v << (bit % 8)));
    }
  }
}

double EstimateJaccardPacked(const uint8_t* x, const uint8_t* y, int num_perm, int bits) {
  if (num_perm < 1) return 0;
  int equal = 0;
  for (int i = 0; i < num_perm; ++i) equal += ValueAt(x, i, bits) == ValueAt(y, i, bits);
  const double p = static_cast<double>(equal) / num_perm;
  const double chance = bits >= 32 ? 0.0 : 1.0 / static_cast<double>(uint64_t{1} << bits);
  return std::clamp((p - chance) / (1 - chance), 0.0, 1.0);
}

}  // namespace simdex
