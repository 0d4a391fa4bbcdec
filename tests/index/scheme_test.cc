#include "simdex/scheme.h"

#include <gtest/gtest.h>

#include <random>

#include "simdex/fingerprint.h"

namespace simdex {
namespace {

Scheme MustParse(std::string_view spec) {
  Scheme s;
  Status st = Scheme::Parse(spec, &s);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return s;
}

TEST(Scheme, PresetsHaveTheDocumentedTableCountsAndKeys) {
  EXPECT_EQ(MustParse("t4").num_tables(), 4);
  EXPECT_EQ(MustParse("t4").table(0).key_bits(), 16);
  EXPECT_EQ(MustParse("t10").num_tables(), 10);
  EXPECT_EQ(MustParse("t10").table(0).key_bits(), 28);
  EXPECT_EQ(MustParse("t10").table(9).key_bits(), 24);
  EXPECT_EQ(MustParse("t20").num_tables(), 20);
  EXPECT_EQ(MustParse("t20").Name(), "t20");
  EXPECT_EQ(MustParse("16,16,16,16:3").Name(), "t4");
  EXPECT_EQ(MustParse("32,32:1").Name(), "32,32:1");
}

TEST(Scheme, RejectsBadWidthsAndK) {
  Scheme s;
  EXPECT_TRUE(Scheme::Create({16, 16, 16}, 1, &s).IsInvalidArgument());
  EXPECT_TRUE(Scheme::Create({32, 32}, 2, &s).IsInvalidArgument());
  EXPECT_TRUE(Scheme::Create({64, 0}, 0, &s).IsInvalidArgument());
  EXPECT_TRUE(Scheme::Create({}, 0, &s).IsInvalidArgument());
  EXPECT_TRUE(Scheme::Parse("t7", &s).IsInvalidArgument());
  EXPECT_TRUE(Scheme::Parse("16,16,16,16", &s).IsInvalidArgument());
  EXPECT_TRUE(Scheme::Parse("16,x,16,16:3", &s).IsInvalidArgument());
  EXPECT_TRUE(Scheme::Parse("16,16,16,16:", &s).IsInvalidArgument());
  EXPECT_TRUE(Scheme::Parse("64:0", &s).ok());
}

TEST(Scheme, TableZeroIsTheIdentity) {
  for (const char* name : {"t4", "t10", "t20", "8,8,8,8,8,8,8,8:4"}) {
    Scheme s = MustParse(name);
    std::mt19937_64 rng(1);
    for (int i = 0; i < 100; ++i) {
      uint64_t x = rng();
      EXPECT_EQ(s.table(0).Apply(x), x) << name;
    }
  }
}

TEST(Scheme, PermutationsInvertAndPreserveDistance) {
  std::mt19937_64 rng(2);
  for (const char* name : {"t4", "t10", "t20", "1,63:1", "5,7,9,11,13,19:2"}) {
    Scheme s = MustParse(name);
    for (int t = 0; t < s.num_tables(); ++t) {
      for (int i = 0; i < 200; ++i) {
        uint64_t a = rng(), b = a ^ (1ULL << (rng() % 64)) ^ (1ULL << (rng() % 64));
        const BlockPermutation& p = s.table(t);
        EXPECT_EQ(p.Invert(p.Apply(a)), a);
        EXPECT_EQ(HammingDistance(p.Apply(a), p.Apply(b)), HammingDistance(a, b));
      }
    }
  }
}

TEST(Scheme, LeadingBlocksFormTheKey) {
  Scheme s = MustParse("t10");
  // Table with leading blocks {2, 4}: bits 24..35 and 0..11 of the fingerprint.
  for (int t = 0; t < s.num_tables(); ++t) {
    if (s.table(t).leading_blocks() != std::vector<int>{2, 4}) continue;
    uint64_t fp = (0xABCULL << 24) | 0x123ULL;
    EXPECT_EQ(s.table(t).Apply(fp) >> 40, 0xABC123ULL);
    return;
  }
  FAIL() << "no table leads with blocks 2 and 4";
}

// Every set of B - d agreeing blocks contains the leading blocks of one of
// the tables chosen for distance d.
TEST(Scheme, TablesForDistanceCoverEveryAgreeingSet) {
  for (const char* name : {"t4", "t10", "t20", "8,8,8,8,8,8,8,8:4", "32,32:1"}) {
    Scheme s = MustParse(name);
    const int b = s.num_blocks();
    for (int d = 0; d <= s.k(); ++d) {
      const auto& tables = s.TablesForDistance(d);
      for (uint32_t agree = 0; agree < (1u << b); ++agree) {
        if (std::popcount(agree) != b - d) continue;
        bool covered = false;
        for (int t : tables) {
          uint32_t lead = 0;
          for (int j : s.table(t).leading_blocks()) lead |= 1u << j;
          covered |= (agree & lead) == lead;
        }
        EXPECT_TRUE(covered) << name << " d=" << d << " agree=" << agree;
      }
    }
    EXPECT_EQ(s.TablesForDistance(0).size(), 1u) << name;
    EXPECT_EQ(static_cast<int>(s.TablesForDistance(s.k()).size()), s.num_tables()) << name;
  }
}

}  // namespace
}  // namespace simdex
