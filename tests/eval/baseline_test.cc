// The MinHash-LSH baseline of include/simdex/eval.h: the bands chosen for a
// threshold, the min-hash family, and the band candidates against a
// brute-force oracle.
#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/eval.h"

namespace simdex {
namespace {

TEST(OptimalLshBands, MinimisesTheWeightedFalseAreasAsDatasketchDoes) {
  // The values datasketch's documentation gives for its optimisation.
  LshBands b = OptimalLshBands(0.75, 256);
  EXPECT_EQ(b.bands, 21);
  EXPECT_EQ(b.rows, 12);
  b = OptimalLshBands(0.75, 256, 0.1, 0.9);
  EXPECT_EQ(b.bands, 28);
  EXPECT_EQ(b.rows, 9);
  b = OptimalLshBands(0.8, 128);
  EXPECT_LE(b.bands * b.rows, 128);
  EXPECT_GE(b.bands, 2);
}

TEST(BaselineMinHash, EqualSetsGetEqualSignaturesAndEstimatesTrackJaccard) {
  std::unique_ptr<BaselineMinHash> m, again;
  ASSERT_TRUE(BaselineMinHash::Create(128, 7, &m).ok());
  ASSERT_TRUE(BaselineMinHash::Create(128, 7, &again).ok());
  std::mt19937_64 rng(3);
  std::vector<uint64_t> a, b;
  for (int i = 0; i < 3000; ++i) {
    const uint64_t x = rng();
    if (i < 1000) a.push_back(x);                 // only in a
    else if (i < 2000) a.push_back(x), b.push_back(x);  // shared
    else b.push_back(x);                          // only in b: J = 1000 / 3000
  }
  std::vector<uint64_t> sa(128), sb(128), sa2(128);
  m->Sign(a, sa.data());
  m->Sign(b, sb.data());
  again->Sign(a, sa2.data());
  EXPECT_EQ(sa, sa2);
  EXPECT_DOUBLE_EQ(BaselineMinHash::Estimate(sa.data(), sa2.data(), 128), 1.0);
  const double est = BaselineMinHash::Estimate(sa.data(), sb.data(), 128);
  EXPECT_NEAR(est, 1.0 / 3.0, 0.15);  // binomial sd 0.042
  for (uint64_t v : sa) EXPECT_LT(v, (uint64_t{1} << 61) - 1);
  m->Sign({}, sa.data());
  for (uint64_t v : sa) EXPECT_EQ(v, std::numeric_limits<uint64_t>::max());
}

TEST(BaselineMinHash, RejectsABadNumberOfPermutations) {
  std::unique_ptr<BaselineMinHash> m;
  EXPECT_TRUE(BaselineMinHash::Create(0, 1, &m).IsInvalidArgument());
  EXPECT_TRUE(BaselineMinHash::Create(2000, 1, &m).IsInvalidArgument());
}

TEST(LshCandidatePairs, EqualsABruteForceBandComparison) {
  std::mt19937_64 rng(4);
  const int num_perm = 12;
  const LshBands bands{3, 4};
  for (int round = 0; round < 5; ++round) {
    const uint32_t n = 200;
    std::vector<uint64_t> sig(static_cast<size_t>(n) * num_perm);
    for (uint32_t d = 0; d < n; ++d) {
      for (int i = 0; i < num_perm; ++i) sig[d * num_perm + i] = rng() % 3;  // few values: many equal bands
      if (rng() % 20 == 0) std::fill_n(sig.begin() + d * num_perm, num_perm, std::numeric_limits<uint64_t>::max());
    }
    std::vector<uint64_t> got;
    ASSERT_TRUE(LshCandidatePairs(sig, num_perm, bands, &got).ok());
    std::vector<uint64_t> want;
    for (uint32_t a = 0; a < n; ++a) {
      for (uint32_t b = a + 1; b < n; ++b) {
        if (sig[a * num_perm] == std::numeric_limits<uint64_t>::max() ||
            sig[b * num_perm] == std::numeric_limits<uint64_t>::max()) {
          continue;
        }
        for (int band = 0; band < bands.bands; ++band) {
          const auto x = sig.begin() + a * num_perm + band * bands.rows;
          if (std::equal(x, x + bands.rows, sig.begin() + b * num_perm + band * bands.rows)) {
            want.push_back(PackPair(a, b));
            break;
          }
        }
      }
    }
    EXPECT_EQ(got, want) << "round " << round;
  }
}

TEST(LshCandidatePairs, RejectsBandsThatDoNotFit) {
  std::vector<uint64_t> sig(24), out;
  EXPECT_TRUE(LshCandidatePairs(sig, 12, {5, 3}, &out).IsInvalidArgument());
  EXPECT_TRUE(LshCandidatePairs(sig, 7, {1, 1}, &out).IsInvalidArgument());  // 24 is not rows of 7
}

}  // namespace
}  // namespace simdex
