#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "format/coding.h"
#include "format/head_search.h"

namespace simdex::format {
namespace {

// Index of the last head < x by std::lower_bound, or kNoHead.
size_t Oracle(const std::vector<uint64_t>& heads, uint64_t x) {
  const size_t count = std::lower_bound(heads.begin(), heads.end(), x) - heads.begin();
  return count == 0 ? kNoHead : count - 1;
}

// Heads stored little-endian at an odd offset, as unaligned as a file may be.
class StoredHeads {
 public:
  explicit StoredHeads(const std::vector<uint64_t>& heads) : bytes_("x") {
    for (uint64_t h : heads) PutFixed64(&bytes_, h);
  }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(bytes_.data()) + 1; }

 private:
  std::string bytes_;
};

std::vector<uint64_t> MakeHeads(const std::string& kind, size_t n, std::mt19937_64& rng) {
  std::vector<uint64_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = rng();
    if (kind == "uniform") v[i] = r;
    if (kind == "constant_prefix") v[i] = (0xfedcbaULL << 40) | (r >> 24);
    if (kind == "all_equal") v[i] = 0x1234;
    if (kind == "duplicates") v[i] = (r % 8) << 61;
    if (kind == "clustered") v[i] = (r % 3 == 0 ? ~uint64_t{0} - (r >> 50) : r >> 40);
    if (kind == "exponential") v[i] = uint64_t{1} << (r % 64);
    if (kind == "extremes") v[i] = r % 2 == 0 ? 0 : ~uint64_t{0};
  }
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<uint64_t> Queries(const std::vector<uint64_t>& heads, std::mt19937_64& rng) {
  std::vector<uint64_t> q = {0, 1, ~uint64_t{0}, ~uint64_t{0} - 1, uint64_t{1} << 63};
  for (int i = 0; i < 200; ++i) {
    q.push_back(rng());
    if (!heads.empty()) {
      const uint64_t h = heads[rng() % heads.size()];
      q.push_back(h);
      q.push_back(h + 1);
      q.push_back(h - 1);
    }
  }
  return q;
}

TEST(HeadSearch, InterpolationEqualsBinaryEqualsLowerBound) {
  std::mt19937_64 rng(9);
  for (const char* kind :
       {"uniform", "constant_prefix", "all_equal", "duplicates", "clustered", "exponential", "extremes"}) {
    for (size_t n : {0, 1, 2, 3, 5, 17, 100, 1000, 100000}) {
      const std::vector<uint64_t> heads = MakeHeads(kind, n, rng);
      const StoredHeads stored(heads);
      HeadSearchStats stats;
      for (uint64_t x : Queries(heads, rng)) {
        const size_t want = Oracle(heads, x);
        ASSERT_EQ(FindLastLess(stored.data(), n, x, &stats), want) << kind << " n " << n << " x " << x;
        ASSERT_EQ(FindLastLessBinary(stored.data(), n, x, nullptr), want) << kind << " n " << n;
      }
      // The worst case stays logarithmic, whatever the spread of the heads.
      const double bound = 3 * std::ceil(std::log2(static_cast<double>(n) + 1)) + 1;
      EXPECT_LE(static_cast<double>(stats.probes) / static_cast<double>(stats.searches), bound) << kind;
    }
  }
}

TEST(HeadSearch, NoHeadBelowTheSmallest) {
  const std::vector<uint64_t> heads = {10, 20, 20, 30};
  const StoredHeads stored(heads);
  EXPECT_EQ(FindLastLess(stored.data(), 4, 10, nullptr), kNoHead);
  EXPECT_EQ(FindLastLess(stored.data(), 4, 11, nullptr), 0u);
  EXPECT_EQ(FindLastLess(stored.data(), 4, 20, nullptr), 0u);
  EXPECT_EQ(FindLastLess(stored.data(), 4, 21, nullptr), 2u);
  EXPECT_EQ(FindLastLess(stored.data(), 4, 31, nullptr), 3u);
  EXPECT_EQ(FindLastLess(stored.data(), 0, 31, nullptr), kNoHead);
}

TEST(HeadSearch, InterpolationNeedsFewProbesOnUniformHeads) {
  std::mt19937_64 rng(10);
  const std::vector<uint64_t> heads = MakeHeads("uniform", 100000, rng);
  const StoredHeads stored(heads);
  HeadSearchStats interpolation, binary;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t x = rng();
    FindLastLess(stored.data(), heads.size(), x, &interpolation);
    FindLastLessBinary(stored.data(), heads.size(), x, &binary);
  }
  EXPECT_LT(interpolation.probes * 2, binary.probes);
}

TEST(HeadSample, WindowThenFinishEqualsLowerBound) {
  std::mt19937_64 rng(11);
  for (const char* kind :
       {"uniform", "constant_prefix", "all_equal", "duplicates", "clustered", "exponential", "extremes"}) {
    for (size_t n : {0, 1, 7, 8, 9, 16, 17, 100, 1000, 100000}) {
      const std::vector<uint64_t> heads = MakeHeads(kind, n, rng);
      const StoredHeads stored(heads);
      HeadSample sample;
      sample.Init(stored.data(), n);
      // The sample, and a directory of at most about two u32 per sampled head.
      const size_t m = (n + HeadSample::kStride - 1) / HeadSample::kStride;
      EXPECT_GE(sample.bytes(), 8 * m) << kind << " n " << n;
      EXPECT_LE(sample.bytes(), 8 * m + (m == 0 ? 0 : 4 * (2 * m + 1))) << kind << " n " << n;
      for (uint64_t x : Queries(heads, rng)) {
        const size_t w = sample.Window(x, nullptr);
        ASSERT_TRUE(w == kNoHead || w % HeadSample::kStride == 0) << kind << " n " << n;
        ASSERT_EQ(HeadSample::FinishInWindow(stored.data(), n, w, x, nullptr), Oracle(heads, x))
            << kind << " n " << n << " x " << x;
      }
    }
  }
}

TEST(HeadSample, SampledHeadHoldsEveryStridethHeadOnly) {
  std::mt19937_64 rng(12);
  const std::vector<uint64_t> heads = MakeHeads("uniform", 20, rng);
  const StoredHeads stored(heads);
  HeadSample sample;
  sample.Init(stored.data(), heads.size());
  for (size_t i = 0; i < 30; ++i) {
    uint64_t h = 0;
    const bool sampled = i % HeadSample::kStride == 0 && i < heads.size();
    ASSERT_EQ(sample.SampledHead(i, &h), sampled) << i;
    if (sampled) {
      EXPECT_EQ(h, heads[i]) << i;
    }
  }
}

}  // namespace
}  // namespace simdex::format
