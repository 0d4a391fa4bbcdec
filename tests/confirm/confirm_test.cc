#include <algorithm>
#include <cctype>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/confirm/edit_distance.h"
#include "engine/confirm/shingle_set.h"
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

// The Jaccard truth's shingles of an ASCII text, as strings: lower case
// (NFKC + case folding of ASCII), cut at runs of white space, windows of
// five words joined by one space; fewer than five words: one shingle.
std::set<std::string> TruthWordShingles(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text + " ") {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  std::set<std::string> out;
  if (words.empty()) return out;
  const size_t windows = words.size() >= 5 ? words.size() - 4 : 1;
  for (size_t w = 0; w < windows; ++w) {
    std::string shingle;
    for (size_t i = w; i < std::min(w + 5, words.size()); ++i) shingle += (i > w ? " " : "") + words[i];
    out.insert(shingle);
  }
  return out;
}

double SetJaccard(const std::set<std::string>& a, const std::set<std::string>& b) {
  size_t common = 0;
  for (const std::string& x : a) common += b.count(x);
  const size_t all = a.size() + b.size() - common;
  return all == 0 ? 0.0 : static_cast<double>(common) / static_cast<double>(all);
}

TEST(ParseConfirmSpec, ReadsTheTruthShinglesWithFiveByDefault) {
  ConfirmOptions o;
  ASSERT_TRUE(ParseConfirmSpec("jaccard-shingles:0.8", &o).ok());
  EXPECT_EQ(o.measure, ConfirmMeasure::kJaccard);
  EXPECT_EQ(o.unit, ShingleUnit::kTruthShingles);
  EXPECT_EQ(o.n, 5);
  EXPECT_EQ(ConfirmSpecName(o), "jaccard-shingles5:0.8");
  ASSERT_TRUE(ParseConfirmSpec("jaccard-shingles3:0.5", &o).ok());
  EXPECT_EQ(o.n, 3);
  EXPECT_EQ(o.words, ShingleOptions{}.words);
}

TEST(ParseConfirmSpec, TheTruthShinglesTakeAWordDefinitionAfterASlash) {
  ConfirmOptions o;
  for (ShingleWords w : {ShingleWords::kWordChars, ShingleWords::kSpaceSplit}) {
    const std::string name = ShingleWordsName(w);
    ASSERT_TRUE(ParseConfirmSpec("jaccard-shingles3/" + name + ":0.7", &o).ok()) << name;
    EXPECT_EQ(o.unit, ShingleUnit::kTruthShingles);
    EXPECT_EQ(o.n, 3);
    EXPECT_EQ(o.words, w);
    // The name says the definition unless it is the default.
    EXPECT_EQ(ConfirmSpecName(o),
              w == ShingleOptions{}.words ? "jaccard-shingles3:0.7" : "jaccard-shingles3/" + name + ":0.7");
    ConfirmOptions back;
    ASSERT_TRUE(ParseConfirmSpec(ConfirmSpecName(o), &back).ok());
    EXPECT_EQ(back.words, w);
  }
  for (const char* bad : {"jaccard-shingles/words:0.8", "jaccard-shingles/:0.8", "jaccard-words/word-chars:0.8",
                          "jaccard/space-split:0.5", "edit/word-chars:0.5", "jaccard-shingles/word-chars/x:0.8"}) {
    const Status s = ParseConfirmSpec(bad, &o);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad;
    EXPECT_NE(s.message().find(std::string("'") + bad + "'"), std::string::npos) << s.message();
  }
}

TEST(Confirmer, TruthShinglesFollowTheirWordDefinition) {
  // Two texts that differ only in their punctuation.
  const std::string a = "Copyright (c) 2020, Some One. All rights reserved.";
  const std::string b = "Copyright c 2020 Some One All rights reserved";
  EXPECT_DOUBLE_EQ(Make("jaccard-shingles/word-chars:0.8")->Similarity(a, b), 1.0);
  EXPECT_LT(Make("jaccard-shingles/space-split:0.8")->Similarity(a, b), 0.2);
}

TEST(Confirmer, TruthShinglesEqualABruteForceSetOfWordWindows) {
  // Hand-made texts, space-split: punctuation stays in its word, case and white space
  // runs do not count, a text shorter than five words is one shingle.
  const std::vector<std::string> texts = {
      "The quick brown fox jumps over the lazy dog.",
      "the QUICK  brown\tfox jumps over the lazy dog.",
      "The quick brown fox jumps over the lazy dog",
      "A quick brown fox jumps over the lazy dog. And again: the quick brown fox jumps.",
      "Copyright (c) 2020 Some One. Permission is hereby granted, free of charge, to any person",
      "Copyright (c) 2021 Other Person. Permission is hereby granted, free of charge, to any person",
      "short text",
      "Short   TEXT",
      "one two three four five",
      "one two three four five six",
      "",
      "   "};
  std::mt19937 rng(5);
  std::vector<std::string> all = texts;
  const char* words[] = {"alpha", "Beta", "gamma,", "delta.", "(x)", "eps", "zeta", "ETA"};
  for (int i = 0; i < 60; ++i) {
    std::string t;
    for (int w = 0, n = static_cast<int>(rng() % 30); w < n; ++w) t += std::string(words[rng() % 8]) + (rng() % 4 ? " " : "  \n");
    all.push_back(t);
  }
  auto c = Make("jaccard-shingles5/space-split:0.8");
  std::vector<std::vector<uint64_t>> sets(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    c->Shingles(all[i], &sets[i]);
    EXPECT_EQ(sets[i].size(), TruthWordShingles(all[i]).size()) << all[i];
    EXPECT_TRUE(std::is_sorted(sets[i].begin(), sets[i].end()));
  }
  for (size_t i = 0; i < all.size(); ++i) {
    for (size_t j = 0; j < all.size(); ++j) {
      const double want = SetJaccard(TruthWordShingles(all[i]), TruthWordShingles(all[j]));
      EXPECT_EQ(Confirmer::JaccardOfShingles(sets[i], sets[j]), want) << "[" << all[i] << "] [" << all[j] << "]";
      EXPECT_EQ(c->Similarity(all[i], all[j]), want) << "[" << all[i] << "] [" << all[j] << "]";
      EXPECT_EQ(c->Confirms(all[i], all[j]), want >= 0.8);
    }
  }
  EXPECT_DOUBLE_EQ(c->Similarity(texts[0], texts[1]), 1.0);
  EXPECT_DOUBLE_EQ(c->Similarity(texts[0], texts[2]), 4.0 / 6.0);  // "dog." against "dog"
  EXPECT_DOUBLE_EQ(c->Similarity(texts[6], texts[7]), 1.0);
}

TEST(Confirmer, TruthShinglesOfUnspacedTextAreCodePointWindows) {
  auto c = Make("jaccard-shingles:0.5");
  // 床前明月光 疑是地上霜: the spaces go; 10 code points, 6 windows of 5. One
  // character changed at the end: the last window differs: 5 / 7.
  EXPECT_DOUBLE_EQ(c->Similarity("床前明月光 疑是地上霜", "床前明月光疑是地上雪"), 5.0 / 7.0);
  EXPECT_DOUBLE_EQ(c->Similarity("床前明月光", "床前明月光"), 1.0);
}

TEST(Confirmer, ShinglesOnceGiveTheSimilarityOfEveryJaccardMeasure) {
  const std::string a = "The cat sat on the mat, and the dog sat on the log.";
  const std::string b = "the cat sat on a mat; and the dog sat on the log";
  for (const char* spec : {"jaccard:0.5", "jaccard-words:0.5", "jaccard-chars4:0.5", "jaccard-shingles:0.5",
                           "jaccard-shingles2:0.5"}) {
    auto c = Make(spec);
    std::vector<uint64_t> x, y;
    c->Shingles(a, &x);
    c->Shingles(b, &y);
    EXPECT_EQ(Confirmer::JaccardOfShingles(x, y), c->Similarity(a, b)) << spec;
    EXPECT_GT(c->Similarity(a, b), 0.0) << spec;
    EXPECT_EQ(c->Clone()->Similarity(a, b), c->Similarity(a, b)) << spec;
  }
}

TEST(Confirmer, EmptyTextsConfirmNothing) {
  for (const char* spec : {"jaccard:0", "jaccard-words:0", "jaccard-shingles:0", "edit:0"}) {
    auto c = Make(spec);
    EXPECT_DOUBLE_EQ(c->Similarity("", ""), 0.0) << spec;
    EXPECT_DOUBLE_EQ(c->Similarity("  ", "!!"), 0.0) << spec;
  }
}

// The early exits of JaccardReaches never change an answer: against the
// full merge on random lists of every overlap, at thresholds on a grid, at
// every value the pair's J can take (the boundary: J exactly t) and just
// above it, and outside (0, 1].
TEST(JaccardReaches, AnswersAsTheFullMergeAtEveryThreshold) {
  std::mt19937_64 rng(41);
  for (int round = 0; round < 3000; ++round) {
    std::set<uint64_t> x, y;
    const size_t common = rng() % 40, only_x = rng() % (round % 4 == 0 ? 3 : 40), only_y = rng() % 40;
    for (size_t i = 0; i < common; ++i) {
      const uint64_t h = rng() % 1000;
      x.insert(h), y.insert(h);
    }
    for (size_t i = 0; i < only_x; ++i) x.insert(rng() % 1000);
    for (size_t i = 0; i < only_y; ++i) y.insert(rng() % 1000);
    const std::vector<uint64_t> a(x.begin(), x.end()), b(y.begin(), y.end());
    const double want = confirm::Jaccard(a, b);
    std::vector<double> thresholds = {0, 1, 1.5, -1, std::nan(""), want, std::nextafter(want, 2.0)};
    for (int i = 1; i < 20; ++i) thresholds.push_back(i / 20.0);
    const size_t sizes = a.size() + b.size();
    for (size_t c = 0; c <= std::min(a.size(), b.size()); ++c) {
      if (sizes > c) thresholds.push_back(static_cast<double>(c) / static_cast<double>(sizes - c));
    }
    for (const double t : thresholds) {
      double got = -7;
      const bool reaches = confirm::JaccardReaches(a, b, t, &got);
      ASSERT_EQ(reaches, want >= t) << "J " << want << " t " << t;
      ASSERT_EQ(got, reaches ? want : -7) << "J " << want << " t " << t;
    }
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
