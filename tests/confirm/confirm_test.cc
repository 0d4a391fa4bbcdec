#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/confirm/edit_distance.h"
#include "simdex/confirm.h"

namespace simdex {
namespace {

std::unique_ptr<Confirmer> Make(const std::string& spec) {
  ConfirmOptions options;
  EXPECT_TRUE(ParseConfirmSpec(spec, &options).ok()) << spec;
  std::unique_ptr<Confirmer> c;
  EXPECT_TRUE(Confirmer::Create(options, &c).ok());
  return c;
}

// The textbook recurrence over the full table.
size_t OracleEditDistance(const std::u32string& a, const std::u32string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
    }
  }
  return d[a.size()][b.size()];
}

TEST(ParseConfirmSpec, ReadsEveryMeasureAndShingleLength) {
  ConfirmOptions o;
  ASSERT_TRUE(ParseConfirmSpec("jaccard:0.5", &o).ok());
  EXPECT_EQ(o.measure, ConfirmMeasure::kJaccard);
  EXPECT_EQ(o.unit, ShingleUnit::kCodePoints);
  EXPECT_EQ(o.n, 3);
  EXPECT_DOUBLE_EQ(o.threshold, 0.5);
  ASSERT_TRUE(ParseConfirmSpec("jaccard-words3:0.25", &o).ok());
  EXPECT_EQ(o.unit, ShingleUnit::kWords);
  EXPECT_EQ(o.n, 3);
  EXPECT_EQ(ConfirmSpecName(o), "jaccard-words3:0.25");
  ASSERT_TRUE(ParseConfirmSpec("edit:1", &o).ok());
  EXPECT_EQ(o.measure, ConfirmMeasure::kEditDistance);
  EXPECT_EQ(ConfirmSpecName(o), "edit:1");
}

TEST(ParseConfirmSpec, RejectsBadSpecsAndLeavesOptionsAlone) {
  for (const char* bad : {"", "jaccard", "jaccard:", "jaccard:1.5", "jaccard:-0.1", "jaccard:x", "cosine:0.5",
                          "jaccard-chars0:0.5", "jaccard-chars17:0.5", "edit3:0.5", "jaccard:0.5x"}) {
    ConfirmOptions o;
    o.n = 7;
    const Status s = ParseConfirmSpec(bad, &o);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad;
    EXPECT_NE(s.message().find(std::string("'") + bad + "'"), std::string::npos) << s.message();
    EXPECT_EQ(o.n, 7);
  }
}

TEST(Confirmer, JaccardOfWordShinglesCountsSharedShingles) {
  auto c = Make("jaccard-words2:0.5");
  // {the cat, cat sat, sat down} and {the cat, cat sat, sat up}: 2 / 4.
  EXPECT_DOUBLE_EQ(c->Similarity("The cat sat down.", "the CAT sat up"), 0.5);
  EXPECT_TRUE(c->Confirms("The cat sat down.", "the CAT sat up"));
  EXPECT_DOUBLE_EQ(c->Similarity("a b", "a b"), 1.0);
  EXPECT_DOUBLE_EQ(c->Similarity("one two three", "four five six"), 0.0);
}

TEST(Confirmer, JaccardOfCodePointShinglesIgnoresSpaceAndPunctuation) {
  auto c = Make("jaccard-chars3:0.9");
  EXPECT_DOUBLE_EQ(c->Similarity("床前明月光", "床前, 明月光!"), 1.0);
  // 床前明 前明月 明月光 against 床前明 前明日 明日光: 1 / 5.
  EXPECT_DOUBLE_EQ(c->Similarity("床前明月光", "床前明日光"), 0.2);
  EXPECT_FALSE(c->Confirms("床前明月光", "床前明日光"));
}

TEST(Confirmer, EmptyTextsConfirmNothing) {
  for (const char* spec : {"jaccard:0", "jaccard-words:0", "edit:0"}) {
    auto c = Make(spec);
    EXPECT_DOUBLE_EQ(c->Similarity("", ""), 0.0) << spec;
    EXPECT_DOUBLE_EQ(c->Similarity("  ", "!!"), 0.0) << spec;
  }
}

TEST(Confirmer, EditSimilarityIsOneMinusDistanceOverLongerLength) {
  auto c = Make("edit:0.8");
  // kitten -> sitting: 3 edits over 7 code points.
  EXPECT_DOUBLE_EQ(c->Similarity("kitten", "sitting"), 1.0 - 3.0 / 7.0);
  EXPECT_FALSE(c->Confirms("kitten", "sitting"));
  // Case, width and white space runs do not count.
  EXPECT_DOUBLE_EQ(c->Similarity("  Hello   WORLD ", "hello world"), 1.0);
  EXPECT_DOUBLE_EQ(c->Similarity("ＡＢＣ", "abc"), 1.0);
}

TEST(EditDistance, EqualsTheFullTableOnRandomStrings) {
  std::mt19937 rng(7);
  for (int round = 0; round < 400; ++round) {
    std::u32string a, b;
    const size_t la = rng() % 30, lb = rng() % 30;
    for (size_t i = 0; i < la; ++i) a.push_back(U'a' + rng() % 4);
    for (size_t i = 0; i < lb; ++i) b.push_back(U'a' + rng() % 4);
    const size_t want = OracleEditDistance(a, b);
    EXPECT_EQ(confirm::EditDistance(a, b, 64), want);
    // Bounded: exact within the bound, anything above it otherwise.
    for (size_t bound : {size_t{0}, size_t{3}, want, want + 1}) {
      const size_t got = confirm::EditDistance(a, b, bound);
      if (want <= bound) EXPECT_EQ(got, want);
      else EXPECT_GT(got, bound);
    }
  }
}

// Lengths across the 64-position words of the bit-parallel algorithm (63,
// 64, 65, 128, ...), a small alphabet for long common runs, code points
// above the BMP, and bounds around the answer.
TEST(EditDistance, EqualsTheFullTableAcrossWordBoundaries) {
  std::mt19937 rng(23);
  const char32_t alphabet[] = {U'a', U'b', U'c', U'的', U'\U0001F600', U' '};
  for (int round = 0; round < 300; ++round) {
    std::u32string a, b;
    const size_t edges[] = {1, 63, 64, 65, 127, 128, 129, 200, 300};
    const size_t la = round % 3 == 0 ? edges[rng() % 9] : rng() % 300;
    const size_t lb = round % 2 == 0 ? edges[rng() % 9] : rng() % 300;
    const size_t letters = 1 + rng() % 6;
    for (size_t i = 0; i < la; ++i) a.push_back(alphabet[rng() % letters]);
    if (round % 4 == 0) {
      b = a;  // a near copy: a few edits of a
      for (int e = static_cast<int>(rng() % 8); e > 0 && !b.empty(); --e) {
        size_t at = rng() % b.size();
        if (rng() % 3 == 0) b.erase(at, 1);
        else if (rng() % 2 == 0) b.insert(at, 1, alphabet[rng() % 6]);
        else b[at] = alphabet[rng() % 6];
      }
    } else {
      for (size_t i = 0; i < lb; ++i) b.push_back(alphabet[rng() % letters]);
    }
    const size_t want = OracleEditDistance(a, b);
    ASSERT_EQ(confirm::EditDistance(a, b, 1000), want) << la << " " << b.size();
    ASSERT_EQ(confirm::EditDistance(b, a, 1000), want);
    for (size_t bound : {size_t{0}, want / 2, want - (want > 0), want, want + 1}) {
      const size_t got = confirm::EditDistance(a, b, bound);
      if (want <= bound) ASSERT_EQ(got, want);
      else ASSERT_GT(got, bound);
    }
  }
}

TEST(Confirmer, ConfirmsEqualsSimilarityAgainstThresholdOnRandomTexts) {
  std::mt19937 rng(11);
  const char* words[] = {"alpha", "beta", "gamma", "delta", "的", "了", "月", "光"};
  for (const char* spec : {"jaccard:0.4", "jaccard-words2:0.3", "edit:0.6", "edit:0.95"}) {
    auto c = Make(spec);
    for (int round = 0; round < 200; ++round) {
      std::string a, b;
      for (int i = 0, n = static_cast<int>(rng() % 12); i < n; ++i) a += std::string(words[rng() % 8]) + " ";
      for (int i = 0, n = static_cast<int>(rng() % 12); i < n; ++i) b += std::string(words[rng() % 8]) + " ";
      const double s = c->Similarity(a, b);
      EXPECT_DOUBLE_EQ(s, c->Similarity(b, a)) << spec;
      EXPECT_EQ(c->Confirms(a, b), s >= c->options().threshold) << spec << " [" << a << "] [" << b << "]";
    }
  }
}

TEST(Confirmer, ClonesGiveTheSameAnswers) {
  auto c = Make("edit:0.5");
  auto d = c->Clone();
  EXPECT_DOUBLE_EQ(c->Similarity("abcdef", "abcxef"), d->Similarity("abcdef", "abcxef"));
  auto j = Make("jaccard:0.5");
  EXPECT_DOUBLE_EQ(j->Similarity("abcdef", "abcxef"), j->Clone()->Similarity("abcdef", "abcxef"));
}

TEST(Confirmer, CreateRejectsBadOptions) {
  std::unique_ptr<Confirmer> c;
  ConfirmOptions o;
  o.n = 0;
  EXPECT_TRUE(Confirmer::Create(o, &c).IsInvalidArgument());
  o.n = 3;
  o.threshold = 2;
  EXPECT_TRUE(Confirmer::Create(o, &c).IsInvalidArgument());
  EXPECT_EQ(c, nullptr);
}

}  // namespace
}  // namespace simdex
