// LshNewDocumentFilter (include/simdex/lsh_index.h): a batch document is
// new unless the old index or an earlier batch document matches it. The
// earlier documents are held as one hash map of band key to ordinals per
// band and their b-bit signatures, the form the old index's file keeps, and,
// for those given with their shingles where the old index stores sketches,
// their bottom-k sketches.
#include <algorithm>
#include <span>
#include <unordered_map>
#include <vector>

#include "simdex/lsh_index.h"
#include "simdex/minhash.h"

namespace simdex {

struct LshNewDocumentFilter::Rep {
  const LshIndexReader* old = nullptr;
  int num_perm = 0;
  int bits = 0;
  LshBands bands;
  size_t packed_bytes = 0;
  double filter = 0;  // the default estimate filter of the old index's threshold
  int sketch_k = 0;   // the old index's sketches (0: none, the b-bit rule alone)
  std::vector<std::unordered_map<uint64_t, std::vector<uint32_t>>> tables;  // per band: key -> ordinals
  std::vector<uint8_t> packed;                                              // ordinal x packed_bytes
  // Ordinal o's sketch: sketch_hashes[sketch_start[o], sketch_start[o + 1]),
  // whole when sketch_whole[o]; has_sketch[o] is 0 for a document given
  // without its shingles.
  std::vector<uint32_t> sketch_hashes;
  std::vector<uint64_t> sketch_start{0};
  std::vector<uint8_t> sketch_whole, has_sketch;
  uint64_t left_out = 0;
  // Scratch, reused across calls.
  std::vector<uint64_t> keys;
  std::vector<uint8_t> query;
  BottomKSketch query_sketch;
  bool query_sketched = false;
  std::vector<uint32_t> candidates;
  std::vector<LshMatch> found;

  // Whether earlier document c passes: by the two sketches where both have
  // one, else by the b-bit estimate.
  bool Passes(uint32_t c) const {
    if (query_sketched && has_sketch[c] != 0) {
      const std::span<const uint32_t> theirs(sketch_hashes.data() + sketch_start[c],
                                             sketch_hashes.data() + sketch_start[c + 1]);
      return EstimateJaccardSketches(query_sketch.hashes, query_sketch.whole, theirs, sketch_whole[c] != 0,
                                     sketch_k) >= old->threshold();
    }
    return EstimateJaccardPacked(query.data(), packed.data() + c * packed_bytes, num_perm, bits) >= filter;
  }

  bool MatchesEarlier() {
    candidates.clear();
    for (int j = 0; j < bands.bands; ++j) {
      const auto it = tables[static_cast<size_t>(j)].find(keys[static_cast<size_t>(j)]);
      if (it != tables[static_cast<size_t>(j)].end()) candidates.insert(candidates.end(), it->second.begin(), it->second.end());
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    return std::any_of(candidates.begin(), candidates.end(), [this](uint32_t c) { return Passes(c); });
  }

  void Remember() {
    const auto ordinal = static_cast<uint32_t>(packed.size() / packed_bytes);
    packed.insert(packed.end(), query.begin(), query.end());
    if (query_sketched) sketch_hashes.insert(sketch_hashes.end(), query_sketch.hashes.begin(), query_sketch.hashes.end());
    sketch_start.push_back(sketch_hashes.size());
    sketch_whole.push_back(query_sketched && query_sketch.whole ? 1 : 0);
    has_sketch.push_back(query_sketched ? 1 : 0);
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
  r.sketch_k = old->sketch_k();
  r.tables.resize(static_cast<size_t>(r.bands.bands));
  r.keys.resize(static_cast<size_t>(r.bands.bands));
  r.query.resize(r.packed_bytes);
}

LshNewDocumentFilter::~LshNewDocumentFilter() = default;

uint64_t LshNewDocumentFilter::left_out() const { return rep_->left_out; }

Status LshNewDocumentFilter::Check(const uint32_t* signature, bool* is_new) {
  return Check(signature, {}, is_new);
}

Status LshNewDocumentFilter::Check(const uint32_t* signature, std::span<const uint64_t> shingles, bool* is_new) {
  Rep& r = *rep_;
  *is_new = true;
  if (IsEmptySignature(signature, r.num_perm)) return Status::OK();
  r.query_sketched = r.sketch_k > 0 && !shingles.empty();
  if (r.query_sketched) {
    MakeBottomKSketch(shingles, r.sketch_k, &r.query_sketch);
    SIMDEX_RETURN_IF_ERROR(r.old->Query(signature, shingles, LshQueryOptions(), &r.found));
  } else {
    SIMDEX_RETURN_IF_ERROR(r.old->Query(signature, LshQueryOptions(), &r.found));
  }
  BandKeys(signature, r.bands, r.keys.data());
  PackSignature(signature, r.num_perm, r.bits, r.query.data());
  *is_new = r.found.empty() && !r.MatchesEarlier();
  r.Remember();
  if (!*is_new) ++r.left_out;
  return Status::OK();
}

}  // namespace simdex
