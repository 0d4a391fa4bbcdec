#include "engine/service/online_bands.h"

#include <algorithm>
#include <cstring>

#include "simdex/minhash.h"

namespace simdex::service {

OnlineBands::OnlineBands(int bands, int num_perm, int bits, uint64_t expected_entries)
    : Chains(8 + 8 * static_cast<size_t>(bands) + (PackedSignatureBytes(num_perm, bits) + 7) / 8 * 8, bands,
             expected_entries),
      bands_(bands),
      num_perm_(num_perm),
      bits_(bits),
      signature_bytes_(PackedSignatureBytes(num_perm, bits)) {}

void OnlineBands::Add(uint64_t seq, const uint64_t* keys, const uint8_t* packed) {
  const auto write = [&](uint8_t* p) {
    std::memcpy(p, keys, 8 * static_cast<size_t>(bands_));
    std::memcpy(p + 8 * static_cast<size_t>(bands_), packed, signature_bytes_);
  };
  Append(seq, write, [keys](int j) { return keys[j]; });
}

void OnlineBands::Search(const uint64_t* keys, const uint8_t* packed, uint64_t min_seq,
                         std::vector<BandMatch>* out) const {
  std::vector<uint64_t> found;  // entry numbers
  for (int j = 0; j < bands_; ++j) {
    Walk(j, keys[j], min_seq, [&](uint64_t i, const uint8_t* e) {
      if (Keys(e)[j] == keys[j]) found.push_back(i);
    });
  }
  // An entry may share several bands' keys with the query; entry numbers
  // follow seqs.
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  for (uint64_t i : found) {
    const uint8_t* e = Record(i);
    out->push_back(BandMatch{Seq(e), EstimateJaccardPacked(packed, Packed(e), num_perm_, bits_)});
  }
}

}  // namespace simdex::service
