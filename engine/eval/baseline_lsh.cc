// LshCandidatePairs (include/simdex/eval.h): the banding of the MinHash-LSH
// baseline. BASELINE, not a product feature: its bands and rows come from
// the product's OptimalLshBands (include/simdex/minhash.h).
#include <algorithm>
#include <limits>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "simdex/eval.h"

namespace simdex {

Status LshCandidatePairs(std::span<const uint64_t> signatures, int num_perm, LshBands bands,
                         std::vector<uint64_t>* out) {
  if (num_perm < 1 || bands.bands < 1 || bands.rows < 1 || bands.bands * bands.rows > num_perm) {
    return Status::InvalidArgument("lsh: bands x rows must be at least 1 and at most num_perm");
  }
  if (signatures.size() % static_cast<size_t>(num_perm) != 0) {
    return Status::InvalidArgument("lsh: signatures are not a whole number of rows");
  }
  const size_t n = signatures.size() / static_cast<size_t>(num_perm);
  if (n >= std::numeric_limits<uint32_t>::max()) return Status::InvalidArgument("lsh: too many documents");
  out->clear();
  struct Bucketed {
    uint64_t key;
    uint32_t doc;
  };
  std::vector<Bucketed> keyed;
  keyed.reserve(n);
  for (int band = 0; band < bands.bands; ++band) {
    keyed.clear();
    for (size_t d = 0; d < n; ++d) {
      const uint64_t* rows = signatures.data() + d * num_perm + static_cast<size_t>(band) * bands.rows;
      if (rows[0] == std::numeric_limits<uint64_t>::max()) continue;  // an empty set's signature
      keyed.push_back({XXH3_64bits_withSeed(rows, sizeof(uint64_t) * bands.rows, static_cast<uint64_t>(band)),
                       static_cast<uint32_t>(d)});
    }
    std::sort(keyed.begin(), keyed.end(),
              [](const Bucketed& x, const Bucketed& y) { return x.key != y.key ? x.key < y.key : x.doc < y.doc; });
    for (size_t i = 0; i < keyed.size();) {
      size_t j = i + 1;
      while (j < keyed.size() && keyed[j].key == keyed[i].key) ++j;
      for (size_t x = i; x < j; ++x) {
        for (size_t y = x + 1; y < j; ++y) out->push_back(PackPair(keyed[x].doc, keyed[y].doc));
      }
      i = j;
    }
  }
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
  return Status::OK();
}

}  // namespace simdex
