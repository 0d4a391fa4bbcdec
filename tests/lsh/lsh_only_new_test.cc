// LshNewDocumentFilter (`simdex merge --only-new` for a MinHash-LSH index)
// against a brute-force oracle: a batch document is new unless the old
// index's answer at its threshold has a match (BruteForceLsh) or an earlier
// batch document shares a band key with it and passes the same estimate
// filter; empty signatures are always new.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "tests/index/test_data.h"
#include "tests/lsh/lsh_data.h"

namespace simdex {
namespace {

using testing::LshDocument;

// What the filter must say of batch[i].
bool OracleIsNew(const testing::BruteForceLsh& old, const std::vector<LshDocument>& batch, size_t i,
                 const LshBuildOptions& options, double filter) {
  const int num_perm = options.minhash.num_perm;
  const uint32_t* signature = batch[i].signature.data();
  if (IsEmptySignature(signature, num_perm)) return true;
  if (!old.Query(signature, filter).empty()) return false;
  const size_t bytes = PackedSignatureBytes(num_perm, options.signature_bits);
  std::vector<uint8_t> packed(bytes), other(bytes);
  std::vector<uint64_t> keys(options.bands.bands), other_keys(options.bands.bands);
  PackSignature(signature, num_perm, options.signature_bits, packed.data());
  BandKeys(signature, options.bands, keys.data());
  for (size_t j = 0; j < i; ++j) {
    if (IsEmptySignature(batch[j].signature.data(), num_perm)) continue;
    BandKeys(batch[j].signature.data(), options.bands, other_keys.data());
    bool shares = false;
    for (size_t b = 0; b < keys.size(); ++b) shares = shares || keys[b] == other_keys[b];
    PackSignature(batch[j].signature.data(), num_perm, options.signature_bits, other.data());
    if (shares && EstimateJaccardPacked(packed.data(), other.data(), num_perm, options.signature_bits) >= filter) {
      return false;
    }
  }
  return true;
}

TEST(LshOnlyNewTest, LeavesOutWhatTheOldIndexOrAnEarlierBatchDocumentMatches) {
  testing::ScopedTempDir dir;
  for (uint64_t seed : {5u, 6u}) {
    for (int bits : {4, 8}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " bits " + std::to_string(bits));
      std::vector<LshDocument> all = testing::ClusteredDocuments(700, 64, seed);
      // Shuffled, so that clusters straddle the old index and the batch.
      std::shuffle(all.begin(), all.end(), std::mt19937_64(seed));
      for (size_t i = 0; i < all.size(); ++i) all[i].id = i;
      const std::vector<LshDocument> old_docs(all.begin(), all.begin() + 400);
      const std::vector<LshDocument> batch(all.begin() + 400, all.end());
      LshBuildOptions options;
      options.minhash.num_perm = 64;
      options.bands = {8, 8};
      options.signature_bits = bits;
      options.block_size = 256;
      ASSERT_TRUE(testing::BuildLshIndex(dir.File("old.sdx"), options, old_docs).ok());
      std::unique_ptr<LshIndexReader> old;
      ASSERT_TRUE(LshIndexReader::Open(dir.File("old.sdx"), ReaderOptions(), &old).ok());

      const double filter = DefaultEstimateFilter(options.threshold, 64);
      const testing::BruteForceLsh oracle(old_docs, options, /*string_ids=*/false);
      LshNewDocumentFilter only_new(old.get());
      uint64_t expected_left_out = 0, left_out_by_old = 0;
      for (size_t i = 0; i < batch.size(); ++i) {
        bool is_new = false;
        ASSERT_TRUE(only_new.Check(batch[i].signature.data(), &is_new).ok());
        const bool expected = OracleIsNew(oracle, batch, i, options, filter);
        EXPECT_EQ(is_new, expected) << "batch document " << i;
        expected_left_out += expected ? 0 : 1;
        left_out_by_old += oracle.Query(batch[i].signature.data(), filter).empty() ? 0 : 1;
      }
      EXPECT_EQ(only_new.left_out(), expected_left_out);
      // Both reasons occur, and most documents are new.
      EXPECT_GT(left_out_by_old, 10u);
      EXPECT_GT(expected_left_out, left_out_by_old);
      EXPECT_LT(expected_left_out, batch.size() / 2);
    }
  }
}

}  // namespace
}  // namespace simdex
