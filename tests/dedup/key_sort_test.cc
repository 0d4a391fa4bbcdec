#include "engine/util/key_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace simdex::util {
namespace {

// The reference: std::stable_sort on the top key_bits bits.
std::vector<uint64_t> Reference(std::vector<uint64_t> v, int key_bits) {
  const int low = 64 - key_bits;
  std::stable_sort(v.begin(), v.end(), [low](uint64_t a, uint64_t b) { return (a >> low) < (b >> low); });
  return v;
}

TEST(KeySortTest, SortsStablyByTheLeadingBitsOnlyAtEverySizeKeyWidthAndThreadCount) {
  std::mt19937_64 rng(3);
  for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{31}, size_t{33}, size_t{1000}, kBucketRecords + 1,
                   size_t{300000}}) {
    for (int key_bits : {1, 7, 12, 13, 24, 28, 40, 64}) {
      std::vector<uint64_t> v(n);
      // Few distinct keys at small widths, so that stability is tested.
      for (uint64_t& x : v) x = rng();
      for (int threads : {1, 2, 3}) {
        std::vector<uint64_t> got = v, scratch(n);
        SortByLeadingBits(got.data(), scratch.data(), n, key_bits, threads);
        ASSERT_EQ(got, Reference(v, key_bits)) << "n=" << n << " key_bits=" << key_bits << " threads=" << threads;
      }
    }
  }
}

TEST(KeySortTest, MakesEveryRecordOnceAndSortsThem) {
  const size_t n = 200000;
  std::vector<uint64_t> got(n), scratch(n);
  MakeAndSortByLeadingBits([](size_t i) { return ((uint64_t{0x9E3779B97F4A7C15} * (i / 3)) & ~uint64_t{0xFFFFF}) | i; },
                           got.data(), scratch.data(), n, 28, 2);
  std::vector<uint64_t> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = ((uint64_t{0x9E3779B97F4A7C15} * (i / 3)) & ~uint64_t{0xFFFFF}) | i;
  EXPECT_EQ(got, Reference(want, 28));
}

}  // namespace
}  // namespace simdex::util
