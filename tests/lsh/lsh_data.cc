#include "tests/lsh/lsh_data.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <random>
#include <set>
#include <tuple>

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

std::vector<LshMatch> BruteForceLshQuery(const std::vector<LshDocument>& docs, const LshBuildOptions& options,
                                         const uint32_t* query, double min_estimate, bool string_ids) {
  LshBands bands = options.bands;
  const int num_perm = options.minhash.num_perm;
  if (bands.bands == 0) bands = DefaultLshBands(options.threshold, num_perm);
  const int ordinal_bits = docs.empty() ? 0 : std::bit_width(docs.size() - 1);
  const uint64_t keep = ordinal_bits == 0 ? ~uint64_t{0} : ~(~uint64_t{0} >> (64 - ordinal_bits));
  std::vector<std::string> strings;
  for (const auto& d : docs) strings.push_back(d.string_id);
  std::sort(strings.begin(), strings.end());
  strings.erase(std::unique(strings.begin(), strings.end()), strings.end());

  const size_t bytes = PackedSignatureBytes(num_perm, options.signature_bits);
  std::vector<uint8_t> packed_query(bytes);
  PackSignature(query, num_perm, options.signature_bits, packed_query.data());
  std::vector<uint64_t> query_keys(bands.bands), keys(bands.bands);
  BandKeys(query, bands, query_keys.data());
  using Row = std::tuple<uint64_t, std::vector<uint8_t>, std::vector<uint64_t>, double>;
  std::vector<Row> rows;
  if (!IsEmptySignature(query, num_perm)) {
    for (const auto& d : docs) {
      if (IsEmptySignature(d.signature.data(), num_perm)) continue;
      BandKeys(d.signature.data(), bands, keys.data());
      bool shared = false;
      for (int j = 0; j < bands.bands; ++j) shared |= (keys[j] & keep) == (query_keys[j] & keep);
      if (!shared) continue;
      std::vector<uint8_t> packed(bytes);
      PackSignature(d.signature.data(), num_perm, options.signature_bits, packed.data());
      const double estimate = EstimateJaccardPacked(packed_query.data(), packed.data(), num_perm, options.signature_bits);
      if (estimate < min_estimate) continue;
      const uint64_t id = string_ids ? static_cast<uint64_t>(std::lower_bound(strings.begin(), strings.end(),
                                                                              d.string_id) - strings.begin())
                                     : d.id;
      for (auto& k : keys) k &= keep;
      rows.emplace_back(id, packed, keys, estimate);
    }
  }
  std::sort(rows.begin(), rows.end());
  std::vector<LshMatch> out;
  for (const auto& r : rows) out.push_back({std::get<0>(r), std::get<3>(r)});
  return out;
}

}  // namespace simdex::testing
