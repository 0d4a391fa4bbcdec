// CombineWeightedHashes and the integer accumulator behind Fingerprinter.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "engine/text/bit_sums.h"
#include "simdex/fingerprint.h"

namespace simdex {
namespace {

// The source documents' worked example: seven features with 6-bit hashes
// (written most significant bit first) and weights 3, 4, 1, 3, 5, 5, 5.
TEST(CombineWeightedHashes, ReproducesTheSourceDocumentsWorkedExample) {
  const std::vector<WeightedHash> features = {
      {0b101001, 3}, {0b101110, 4}, {0b110001, 1}, {0b101000, 3},
      {0b101011, 5}, {0b101100, 5}, {0b111000, 5},
  };
  std::vector<double> sums;
  EXPECT_EQ(CombineWeightedHashes(features, 6, &sums), 0b101000u);
  ASSERT_EQ(sums.size(), 6u);
  // sums[i] is bit i (least significant first); the documents list the
  // positions most significant first: 26 -14 24 -8 -8 -8. They print the
  // second position as -24, but its inputs give -3 -4 +1 -3 -5 -5 +5 = -14
  // (the third and seventh hashes have a 1 there). The sign, and so the
  // fingerprint 101000, is the same either way.
  EXPECT_EQ(sums[5], 26);
  EXPECT_EQ(sums[4], -14);
  EXPECT_EQ(sums[3], 24);
  EXPECT_EQ(sums[2], -8);
  EXPECT_EQ(sums[1], -8);
  EXPECT_EQ(sums[0], -8);
}

TEST(CombineWeightedHashes, BitsAboveTheWidthAreZero) {
  const std::vector<WeightedHash> features = {{~0ULL, 1.0}};
  EXPECT_EQ(CombineWeightedHashes(features, 64), ~0ULL);
  EXPECT_EQ(CombineWeightedHashes(features, 13), (1ULL << 13) - 1);
  EXPECT_EQ(CombineWeightedHashes(features, 1), 1u);
}

TEST(CombineWeightedHashes, ZeroSumGivesZeroBit) {
  const std::vector<WeightedHash> features = {{0b01, 2.0}, {0b10, 2.0}};
  std::vector<double> sums;
  EXPECT_EQ(CombineWeightedHashes(features, 2, &sums), 0u);
  EXPECT_EQ(sums, (std::vector<double>{0.0, 0.0}));
  EXPECT_EQ(CombineWeightedHashes({}, 64), 0u);
}

TEST(CombineWeightedHashes, NegativeWeightsCountAgainstTheirBits) {
  const std::vector<WeightedHash> features = {{0b1, 1.0}, {0b1, -3.0}};
  EXPECT_EQ(CombineWeightedHashes(features, 1), 0u);
}

// The byte-lane integer accumulator must agree with the plain double loop,
// including across lane flushes (weights summing past 255) and weights that
// bypass the lanes (>= 256).
TEST(IntegerBitSums, MatchesRealSumsForIntegralWeights) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 50; ++round) {
    text::IntegerBitSums integer;
    std::vector<WeightedHash> features;
    int n = static_cast<int>(rng() % 2000);
    for (int i = 0; i < n; ++i) {
      uint64_t w = rng() % 8 == 0 ? rng() % 1000 : rng() % 5;
      uint64_t h = rng();
      if (round % 5 == 0) h &= 0xF0F0F0F0F0F0F0F0ULL;  // skewed bits
      integer.Add(h, w);
      features.push_back({h, static_cast<double>(w)});
    }
    EXPECT_EQ(integer.Fingerprint(64), CombineWeightedHashes(features, 64));
  }
}

}  // namespace
}  // namespace simdex
