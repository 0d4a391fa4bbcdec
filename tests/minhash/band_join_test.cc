// FindBandPairs (include/simdex/minhash_join.h) against a brute-force
// all-pairs check by band, on random and adversarial keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "simdex/minhash.h"
#include "simdex/minhash_join.h"
#include "tests/index/virtual_zeros.h"

namespace simdex {
namespace {

// Every pair (a < b) of banded items that agree on some band's key.
std::vector<uint64_t> BruteForce(const std::vector<uint64_t>& keys, int bands, const std::vector<uint8_t>& banded) {
  std::vector<uint64_t> out;
  const size_t n = banded.size();
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = a + 1; b < n; ++b) {
      if (!banded[a] || !banded[b]) continue;
      for (int j = 0; j < bands; ++j) {
        if (keys[a * bands + j] == keys[b * bands + j]) {
          out.push_back((uint64_t{a} << 32) | b);
          break;
        }
      }
    }
  }
  return out;
}

// FindBandPairs' layout (band after band) of keys given item after item.
std::vector<uint64_t> BandMajor(const std::vector<uint64_t>& keys, int bands) {
  const size_t n = keys.size() / bands;
  std::vector<uint64_t> out(keys.size());
  for (size_t i = 0; i < n; ++i) {
    for (int j = 0; j < bands; ++j) out[j * n + i] = keys[i * bands + j];
  }
  return out;
}

void ExpectJoinMatchesOracle(const std::vector<uint64_t>& keys, int bands, const std::vector<uint8_t>& banded,
                             int threads) {
  std::vector<uint64_t> pairs;
  BandJoinStats stats;
  ASSERT_TRUE(FindBandPairs(BandMajor(keys, bands), bands, banded, threads, &pairs, &stats).ok());
  EXPECT_EQ(pairs, BruteForce(keys, bands, banded));
  EXPECT_EQ(stats.pairs, pairs.size());
}

// Keys drawn from a small alphabet per band, so that many pairs collide.
TEST(BandJoin, MatchesBruteForceOnRandomKeys) {
  std::mt19937_64 rng(5);
  for (const size_t n : {0, 1, 2, 3, 17, 300, 2000}) {
    for (const int bands : {1, 3, 9}) {
      for (const uint64_t alphabet : {2ull, 50ull, 1ull << 40}) {
        std::vector<uint64_t> keys(n * bands);
        for (uint64_t& k : keys) k = (rng() % alphabet) * 0x9e3779b97f4a7c15ull;
        std::vector<uint8_t> banded(n);
        for (uint8_t& b : banded) b = rng() % 10 != 0;
        ExpectJoinMatchesOracle(keys, bands, banded, n % 2 ? 1 : 2);
      }
    }
  }
}

// Every pair (a < b) of banded items that agree on some band's key, from a
// plain sort of each band: the oracle for batches too large for BruteForce.
std::vector<uint64_t> SortOracle(const std::vector<uint64_t>& keys, int bands, const std::vector<uint8_t>& banded) {
  const size_t n = banded.size();
  std::vector<uint64_t> out;
  std::vector<std::pair<uint64_t, uint32_t>> band;
  for (int j = 0; j < bands; ++j) {
    band.clear();
    for (size_t i = 0; i < n; ++i) {
      if (banded[i]) band.push_back({keys[i * bands + j], static_cast<uint32_t>(i)});
    }
    std::sort(band.begin(), band.end());
    for (size_t x = 0; x < band.size(); ++x) {
      for (size_t y = x + 1; y < band.size() && band[y].first == band[x].first; ++y) {
        out.push_back((uint64_t{band[x].second} << 32) | band[y].second);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Batches large enough that the join cuts each band into parts of fixed
// room (2^17 items and more): hashed keys with planted shared ones, and a
// band whose keys all have a leading 0 bit, which overflows its first part
// and is cut by counting instead; one and two threads.
TEST(BandJoin, LargeBatchesCutIntoPartsMatchASortOfEveryBand) {
  std::mt19937_64 rng(21);
  for (const size_t n : {size_t{140000}, size_t{600000}}) {
    const int bands = 4;
    std::vector<uint64_t> keys(n * bands);
    for (uint64_t& k : keys) k = rng();
    for (size_t i = 0; i < n; ++i) keys[i * bands + 3] >>= 1;  // band 3: every key in the lower half
    for (size_t p = 0; p < n / 50; ++p) {  // planted: item b takes item a's key of one band
      const size_t a = rng() % n, b = rng() % n;
      const int j = static_cast<int>(rng() % bands);
      keys[b * bands + j] = keys[a * bands + j];
    }
    std::vector<uint8_t> banded(n);
    for (uint8_t& b : banded) b = rng() % 20 != 0;
    const std::vector<uint64_t> oracle = SortOracle(keys, bands, banded);
    ASSERT_GT(oracle.size(), n / 100);
    for (const int threads : {1, 2}) {
      std::vector<uint64_t> pairs;
      BandJoinStats stats;
      ASSERT_TRUE(FindBandPairs(BandMajor(keys, bands), bands, banded, threads, &pairs, &stats).ok());
      EXPECT_EQ(pairs, oracle) << n << " items, " << threads << " threads";
    }
  }
}

// Keys that differ only in their low bits: equal leading bits, different
// keys, which the join must tell apart by the whole key.
TEST(BandJoin, KeysEqualInLeadingBitsOnlyAreNotPairs) {
  const size_t n = 64;
  std::vector<uint64_t> keys(n * 2);
  for (size_t i = 0; i < n; ++i) {
    keys[i * 2] = 0xabcdef0000000000ull | (i % 8);  // 8 groups of 8 equal keys, leading bits all equal
    keys[i * 2 + 1] = 0x1234000000000000ull | i;    // all different
  }
  ExpectJoinMatchesOracle(keys, 2, std::vector<uint8_t>(n, 1), 1);
}

TEST(BandJoin, ManyIdenticalItemsGiveEveryPairOnce) {
  const size_t n = 500;
  const int bands = 9;
  std::vector<uint64_t> keys(n * bands);
  for (size_t i = 0; i < n; ++i) {
    for (int j = 0; j < bands; ++j) keys[i * bands + j] = i % 5 == 0 ? 1000 + j : (i << 8) + j;
  }
  std::vector<uint64_t> pairs;
  BandJoinStats stats;
  ASSERT_TRUE(FindBandPairs(BandMajor(keys, bands), bands, std::vector<uint8_t>(n, 1), 2, &pairs, &stats).ok());
  EXPECT_EQ(pairs.size(), 100u * 99 / 2);  // the 100 identical items, each pair once
  ExpectJoinMatchesOracle(keys, bands, std::vector<uint8_t>(n, 1), 1);
}

// Items left out of the bands (empty signatures) are in no pair, even
// with keys equal to others' (the empty signature's keys are all equal).
TEST(BandJoin, UnbandedItemsAreInNoPair) {
  const int bands = 4;
  std::vector<uint32_t> empty(16, kEmptyMinimum);
  std::vector<uint64_t> keys(6 * bands);
  for (int i = 0; i < 6; ++i) BandKeys(empty.data(), {bands, 4}, keys.data() + i * bands);
  std::vector<uint8_t> banded = {0, 0, 0, 1, 0, 1};
  std::vector<uint64_t> pairs;
  BandJoinStats stats;
  ASSERT_TRUE(FindBandPairs(BandMajor(keys, bands), bands, banded, 1, &pairs, &stats).ok());
  EXPECT_EQ(pairs, std::vector<uint64_t>({(3ull << 32) | 5}));
  EXPECT_EQ(stats.banded, 2u);
}

// Signatures of real MinHash: a pair with many equal values shares bands.
TEST(BandJoin, MatchesBruteForceOnMinHashSignatures) {
  MinHashOptions o;
  o.num_perm = 64;
  std::unique_ptr<MinHasher> h;
  ASSERT_TRUE(MinHasher::Create(o, &h).ok());
  std::mt19937_64 rng(9);
  const LshBands bands{8, 8};
  const size_t n = 400;
  std::vector<uint64_t> base(100);
  for (uint64_t& x : base) x = rng();
  std::vector<uint64_t> keys(n * bands.bands);
  std::vector<uint32_t> sig(64);
  for (size_t i = 0; i < n; ++i) {
    std::vector<uint64_t> set = base;
    const size_t changed = rng() % 60;  // J from 1 down to about 0.25
    for (size_t c = 0; c < changed; ++c) set[rng() % set.size()] = rng();
    h->SignShingles(set, sig.data());
    BandKeys(sig.data(), bands, keys.data() + i * bands.bands);
  }
  ExpectJoinMatchesOracle(keys, bands.bands, std::vector<uint8_t>(n, 1), 2);
}

TEST(BandJoin, RejectsKeysThatAreNotItemsTimesBands) {
  std::vector<uint64_t> pairs;
  BandJoinStats stats;
  std::vector<uint64_t> keys(10);
  EXPECT_TRUE(FindBandPairs(keys, 3, std::vector<uint8_t>(3, 1), 1, &pairs, &stats).IsInvalidArgument());
  EXPECT_TRUE(FindBandPairs(keys, 0, std::vector<uint8_t>(3, 1), 1, &pairs, &stats).IsInvalidArgument());
}

TEST(BandJoin, RejectsAsManyItemsAsPairsCannotName) {
  // 2^32 - 1 items (pairs name items in 32 bits): refused before a key is read.
  const testing::VirtualZeros<uint8_t> banded((size_t{1} << 32) - 1);
  ASSERT_TRUE(banded.ok());
  std::vector<uint64_t> pairs;
  BandJoinStats stats;
  const Status s = FindBandPairs({}, 1, banded.span(), 1, &pairs, &stats);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("2^32 items"), std::string::npos) << s.ToString();
}

// The digest's definition (minhash_join.h): XXH3-64 of the packed
// signature, seeded with XXH3-64 of the keys' bytes; it tells the items
// apart by every key and every packed byte.
TEST(SignatureDigest, IsXxh3OfTheSignatureSeededByTheKeysAndChangesWithEither) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> keys(16);
  for (uint64_t& k : keys) k = rng();
  std::vector<uint8_t> packed(64);
  for (uint8_t& b : packed) b = static_cast<uint8_t>(rng());
  const uint64_t digest = SignatureDigest(keys.data(), keys.size(), packed.data(), packed.size());
  EXPECT_EQ(digest, XXH3_64bits_withSeed(packed.data(), packed.size(), XXH3_64bits(keys.data(), 16 * 8)));
  EXPECT_EQ(digest, SignatureDigest(std::vector<uint64_t>(keys).data(), 16, std::vector<uint8_t>(packed).data(), 64));
  for (size_t j = 0; j < keys.size(); ++j) {
    std::vector<uint64_t> other = keys;
    other[j] ^= uint64_t{1} << (j * 3);
    EXPECT_NE(SignatureDigest(other.data(), other.size(), packed.data(), packed.size()), digest) << "key " << j;
  }
  for (size_t i = 0; i < packed.size(); ++i) {
    std::vector<uint8_t> other = packed;
    other[i] ^= static_cast<uint8_t>(1 << (i % 8));
    EXPECT_NE(SignatureDigest(keys.data(), keys.size(), other.data(), other.size()), digest) << "byte " << i;
  }
}

}  // namespace
}  // namespace simdex
