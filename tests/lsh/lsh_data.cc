#include "tests/lsh/lsh_data.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <random>
#include <set>

namespace simdex::testing {

std::vector<LshDocument> ClusteredDocuments(size_t n, int num_perm, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<LshDocument> docs;
  std::vector<uint32_t> base(num_perm);
  while (docs.size() < n) {
    for (auto& v : base) v = static_cast<uint32_t>(rng());
    const size_t copies = 1 + rng() % 8;
    for (size_t c = 0; c < copies && docs.size() < n; ++c) {
      LshDocument d;
      d.id = rng() % 16 == 0 && !docs.empty() ? docs[rng() % docs.size()].id : rng() % 1000000;
      d.string_id = "doc-" + std::to_string(d.id);
      d.signature = base;
      if (rng() % 20 == 0) {
        std::fill(d.signature.begin(), d.signature.end(), kEmptyMinimum);
      } else {
        const int redraw = static_cast<int>(rng() % 61);
        for (auto& v : d.signature) {
          if (static_cast<int>(rng() % 100) < redraw) v = static_cast<uint32_t>(rng());
        }
      }
      docs.push_back(std::move(d));
    }
  }
  return docs;
}

Status BuildLshIndex(const std::string& path, const LshBuildOptions& options, const std::vector<LshDocument>& docs,
                     bool string_ids) {
  std::unique_ptr<LshIndexBuilder> builder;
  SIMDEX_RETURN_IF_ERROR(LshIndexBuilder::Create(path, options, &builder));
  for (const LshDocument& d : docs) {
    SIMDEX_RETURN_IF_ERROR(string_ids ? builder->Add(d.string_id, d.signature.data())
                                      : builder->Add(d.id, d.signature.data()));
  }
  return builder->Finish();
}

BruteForceLsh::BruteForceLsh(const std::vector<LshDocument>& docs, const LshBuildOptions& options, bool string_ids)
    : bands_(options.bands), num_perm_(options.minhash.num_perm), bits_(options.signature_bits) {
  if (bands_.bands == 0) bands_ = DefaultLshBands(options.threshold, num_perm_);
  const int ordinal_bits = docs.empty() ? 0 : std::bit_width(docs.size() - 1);
  keep_ = ordinal_bits == 0 ? ~uint64_t{0} : ~(~uint64_t{0} >> (64 - ordinal_bits));
  std::vector<std::string> strings;
  for (const auto& d : docs) strings.push_back(d.string_id);
  std::sort(strings.begin(), strings.end());
  strings.erase(std::unique(strings.begin(), strings.end()), strings.end());
  for (const auto& d : docs) {
    if (IsEmptySignature(d.signature.data(), num_perm_)) continue;
    Row row;
    row.id = string_ids ? static_cast<uint64_t>(std::lower_bound(strings.begin(), strings.end(), d.string_id) -
                                                strings.begin())
                        : d.id;
    row.packed.resize(PackedSignatureBytes(num_perm_, bits_));
    PackSignature(d.signature.data(), num_perm_, bits_, row.packed.data());
    row.keys.resize(bands_.bands);
    BandKeys(d.signature.data(), bands_, row.keys.data());
    for (auto& k : row.keys) k &= keep_;
    rows_.push_back(std::move(row));
  }
  std::sort(rows_.begin(), rows_.end());
}

std::vector<LshMatch> BruteForceLsh::Query(const uint32_t* query, double min_estimate) const {
  std::vector<LshMatch> out;
  if (IsEmptySignature(query, num_perm_)) return out;
  std::vector<uint8_t> packed(PackedSignatureBytes(num_perm_, bits_));
  PackSignature(query, num_perm_, bits_, packed.data());
  std::vector<uint64_t> keys(bands_.bands);
  BandKeys(query, bands_, keys.data());
  for (const Row& row : rows_) {
    bool shared = false;
    for (int j = 0; j < bands_.bands; ++j) shared |= row.keys[j] == (keys[j] & keep_);
    if (!shared) continue;
    const double estimate = EstimateJaccardPacked(packed.data(), row.packed.data(), num_perm_, bits_);
    if (estimate >= min_estimate) out.push_back({row.id, estimate});
  }
  return out;
}

}  // namespace simdex::testing
