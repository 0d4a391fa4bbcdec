// LshNewDocumentFilter (include/simdex/lsh_index.h): a batch document is
// new unless the old index or an earlier batch document matches it. The
// earlier documents are held as one hash map of band key to ordinals per
// band and their b-bit signatures, the form the old index's file keeps.
#include <algorithm>
#include <unordered_map>
#include <vector>

#include "simdex/lsh_index.h"

namespace simdex {

struct LshNewDocumentFilter::Rep {
  const LshIndexReader* old = nullptr;
  int num_perm = 0;
  int bits = 0;
  LshBands bands;
  size_t packed_bytes = 0;
  double filter = 0;  // the default estimate filter of the old index's threshold
  std::vector<std::unordered_map<uint64_t, std::vector<uint32_t>>> tables;  // per band: key -> ordinals
  std::vector<uint8_t> packed;                                              // ordinal x packed_bytes
  uint64_t left_out = 0;
  // Scratch, reused across calls.
  std::vector<uint64_t> keys;
  std::vector<uint8_t> query;
  std::vector<uint32_t> candidates;
  std::vector<LshMatch> found;

  bool MatchesEarlier() {
    candidates.clear();
    for (int j = 0; j < bands.bands; ++j) {
      const auto it = tables[static_cast<size_t>(j)].find(keys[static_cast<size_t>(j)]);
      if (it != tables[static_cast<size_t>(j)].end()) candidates.insert(candidates.end(), it->second.begin(), it->second.end());
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    for (uint32_t c : candidates) {
      if (EstimateJaccardPacked(query.data(), packed.data() + c * packed_bytes, num_perm, bits) >= filter) return true;
    }
    return false;
  }

  void Remember() {
    const auto ordinal = static_cast<uint32_t>(packed.size() / packed_bytes);
    packed.insert(packed.end(), query.begin(), query.end());
    for (int j = 0; j < bands.bands; ++j) tables[static_cast<size_t>(j)][keys[static_cast<size_t>(j)]].push_back(ordinal);
  }
};

LshNewDocumentFilter::LshNewDocumentFilter(const LshIndexReader* old) : rep_(std::make_unique<Rep>()) {
  Rep& r = *rep_;
  r.old = old;
  r.num_perm = old->minhash_options().num_perm;
  r.bits = old->signature_bits();
  r.bands = old->bands();
  r.packed_bytes = PackedSignatureBytes(r.num_perm, r.bits);
  r.filter = DefaultEstimateFilter(old->threshold(), r.num_perm);
  r.tables.resize(static_cast<size_t>(r.bands.bands));
  r.keys.resize(static_cast<size_t>(r.bands.bands));
  r.query.resize(r.packed_bytes);
}

LshNewDocumentFilter::~LshNewDocumentFilter() = default;

uint64_t LshNewDocumentFilter::left_out() const { return rep_->left_out; }

Status LshNewDocumentFilter::Check(const uint32_t* signature, bool* is_new) {
  Rep& r = *rep_;
  *is_new = true;
  if (IsEmptySignature(signature, r.num_perm)) return Status::OK();
  SIMDEX_RETURN_IF_ERROR(r.old->Query(signature, LshQueryOptions(), &r.found));
  BandKeys(signature, r.bands, r.keys.data());
  PackSignature(signature, r.num_perm, r.bits, r.query.data());
  *is_new = r.found.empty() && !r.MatchesEarlier();
  r.Remember();
  if (!*is_new) ++r.left_out;
  return Status::OK();
}

}  // namespace simdex
