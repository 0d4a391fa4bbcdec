#include "engine/compat/python_simhash.h"

#include <gtest/gtest.h>

#include <bit>
#include <cctype>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "simdex/fingerprint.h"
#include "tests/compat/python_vectors.h"

namespace simdex::compat {
namespace {

std::vector<std::pair<std::string, uint32_t>> Features(std::string_view text) {
  std::vector<CountedFeature> out;
  PythonSimhashFeatures(text, &out, nullptr);
  std::vector<std::pair<std::string, uint32_t>> pairs;
  for (const auto& f : out) pairs.emplace_back(f.text, f.count);
  return pairs;
}

// The python-simhash profile (Compat::kPythonSimhash), through which the
// library gives Simhash(text).value and Simhash(features).value.
Fingerprinter& Profile() {
  static const std::unique_ptr<Fingerprinter> fp = [] {
    FingerprintOptions o;
    o.compat = Compat::kPythonSimhash;
    std::unique_ptr<Fingerprinter> made;
    EXPECT_TRUE(Fingerprinter::Create(o, &made).ok());
    return made;
  }();
  return *fp;
}

uint64_t ValueOfFeatures(const std::vector<std::pair<std::string, double>>& features) {
  std::vector<WeightedFeature> in;
  for (const auto& [text, weight] : features) in.push_back({text, weight});
  FingerprintResult r;
  EXPECT_TRUE(Profile().FromFeatures(in, &r).ok());
  EXPECT_FALSE(r.empty());
  return r.fingerprint;
}

TEST(PythonSimhash, ReproducesThePackagesPublishedValues) {
  EXPECT_EQ(ValueOfFeatures({{"aaa", 1}, {"bbb", 1}}), 57087923692560392u);
  std::vector<std::pair<std::string, double>> unit, weighted;
  for (int i = 0; i < 500; ++i) {
    unit.emplace_back(std::to_string(i), 1);
    weighted.emplace_back(std::to_string(i), 50.0 * i);
  }
  EXPECT_EQ(ValueOfFeatures(unit), 7984652473404407437u);
  EXPECT_EQ(ValueOfFeatures(weighted), 3372825719632739723u);
}

uint64_t ValueOfText(std::string_view text) {
  const FingerprintResult r = Profile().Fingerprint(text);
  EXPECT_FALSE(r.empty()) << text;
  return r.fingerprint;
}

int Distance(uint64_t a, uint64_t b) { return std::popcount(a ^ b); }

TEST(PythonSimhash, KeepsThePackagesOwnTextAssertions) {
  // The relations the package's tests/test_simhash.py asserts for
  // Simhash(text) (test_distance, test_chinese, test_short,
  // test_equality_comparison); python_simhash_reference.py check holds its
  // re-implementation to the same.
  EXPECT_GT(Distance(ValueOfText("How are you? I AM fine. Thanks. And you?"),
                     ValueOfText("How old are you ? :-) i am fine. Thanks. And you?")),
            0);
  EXPECT_NE(ValueOfText("1"), ValueOfText("2"));
  EXPECT_EQ(ValueOfText("你好　世界！　　呼噜。"), ValueOfText("你好，世界　呼噜"));
  const uint64_t sh4 =
      ValueOfText("How are you? I Am fine. ablar ablar xyz blar blar blar blar blar blar blar Thanks.");
  const uint64_t sh5 = ValueOfText("How are you i am fine.ablar ablar xyz blar blar blar blar blar blar blar than");
  const uint64_t sh6 = ValueOfText("How are you i am fine.ablar ablar xyz blar blar blar blar blar blar blar thank");
  EXPECT_LT(Distance(sh4, sh6), 3);
  EXPECT_LT(Distance(sh5, sh6), 3);
  std::set<uint64_t> short_values;
  for (const char* text : {"aa", "aaa", "aaaa", "aaaab", "aaaaabb", "aaaaabbb"}) {
    short_values.insert(ValueOfText(text));
  }
  EXPECT_EQ(short_values.size(), 6u);
  EXPECT_EQ(ValueOfText("My name is John"), ValueOfText("My name is John"));
  EXPECT_NE(ValueOfText("My name is John"), ValueOfText("My name actually is Jane"));
}

// scikit-learn's TfidfVectorizer() defaults, as test_sparse_features uses
// them: lower-cased tokens of two or more word characters, raw counts,
// idf = ln((1 + n) / (1 + df)) + 1, each row scaled to unit length.
std::vector<std::vector<std::pair<std::string, double>>> TfIdfRows(const std::vector<std::string>& docs) {
  std::vector<std::map<std::string, int>> counts(docs.size());
  std::map<std::string, int> df;
  for (size_t d = 0; d < docs.size(); ++d) {
    std::string token;
    for (size_t i = 0; i <= docs[d].size(); ++i) {
      const char c = i < docs[d].size() ? docs[d][i] : ' ';
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
        token.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        continue;
      }
      if (token.size() >= 2 && counts[d][token]++ == 0) ++df[token];
      token.clear();
    }
  }
  std::vector<std::vector<std::pair<std::string, double>>> rows;
  const double n = static_cast<double>(docs.size());
  for (const auto& row_counts : counts) {
    std::vector<std::pair<std::string, double>> row;
    double norm = 0;
    for (const auto& [token, count] : row_counts) {
      const double w = count * (std::log((1 + n) / (1 + df[token])) + 1);
      row.emplace_back(token, w);
      norm += w * w;
    }
    for (auto& entry : row) entry.second /= std::sqrt(norm);
    rows.push_back(row);
  }
  return rows;
}

TEST(PythonSimhash, ReproducesThePackagesSparseFeatureValue) {
  // test_sparse_features: Simhash of the first document's tf-idf weights.
  const auto rows = TfIdfRows({"How are you? I Am fine. blar blar blar blar blar Thanks.",
                               "How are you i am fine. blar blar blar blar blar than", "This is simhash test.",
                               "How are you i am fine. blar blar blar blar blar thank1"});
  ASSERT_EQ(rows[0].size(), 7u);  // how are you am fine blar thanks
  EXPECT_EQ(ValueOfFeatures(rows[0]), 17583409636488780916u);
  const int near = Distance(ValueOfFeatures(rows[0]), ValueOfFeatures(rows[1]));
  EXPECT_GT(near, 0);
  EXPECT_LT(near, Distance(ValueOfFeatures(rows[2]), ValueOfFeatures(rows[3])));
}

TEST(PythonSimhash, FeatureHashIsLowSixtyFourBitsOfMd5) {
  // int(hashlib.md5(b).hexdigest(), 16) & (2**64 - 1), from Python.
  EXPECT_EQ(PythonSimhashFeatureHash("aaa"), 7483809945577191432u);
  EXPECT_EQ(PythonSimhashFeatureHash("\xe4\xb8\xad\xe6\x96\x87"), 466408262782962183u);  // 中文
}

TEST(PythonSimhash, MatchesPythonReferenceVectors) {
  const std::vector<PythonVector> rows = LoadPythonVectors();
  ASSERT_GE(rows.size(), 100u);
  for (const PythonVector& row : rows) {
    const FingerprintResult r = Profile().Fingerprint(row.utf8);
    EXPECT_EQ(!r.empty(), row.value.has_value()) << row.label;
    EXPECT_EQ(r.empty() ? 12345 : r.fingerprint, row.value.value_or(12345)) << row.label;
    EXPECT_EQ(r.invalid_utf8, row.substitutions) << row.label;
  }
}

TEST(PythonSimhash, AsciiTextHashesLikeTheUnicodePath) {
  // An ellipsis (U+2026, not a token character) sends the text through ICU;
  // it must change nothing.
  for (const PythonVector& row : LoadPythonVectors()) {
    if (!row.value || row.substitutions != 0) continue;
    EXPECT_EQ(ValueOfText(row.utf8), ValueOfText(row.utf8 + "\xe2\x80\xa6")) << row.label;
  }
}

TEST(PythonSimhash, ListsSortedWindowsOfFourCodePoints) {
  // From python_simhash_reference.py features 'How are you? ΟΔΟΣ 𠀀x'.
  const std::vector<std::pair<std::string, uint32_t>> expected = {
      {"arey", 1}, {"eyou", 1}, {"howa", 1}, {"ou\xce\xbf\xce\xb4", 1}, {"owar", 1},
      {"reyo", 1}, {"u\xce\xbf\xce\xb4\xce\xbf", 1}, {"ware", 1}, {"you\xce\xbf", 1},
      {"\xce\xb4\xce\xbf\xcf\x82\xf0\xa0\x80\x80", 1},  // δος𠀀
      {"\xce\xbf\xce\xb4\xce\xbf\xcf\x82", 1},          // οδος
      {"\xce\xbf\xcf\x82\xf0\xa0\x80\x80x", 1},         // ος𠀀x
  };
  EXPECT_EQ(Features("How are you? \xce\x9f\xce\x94\xce\x9f\xce\xa3 \xf0\xa0\x80\x80x"), expected);
}

TEST(PythonSimhash, CountsRepeatedWindows) {
  const std::vector<std::pair<std::string, uint32_t>> expected = {{"abca", 2}, {"bcab", 2}, {"cabc", 1}};
  EXPECT_EQ(Features("abcabcab"), expected);
}

TEST(PythonSimhash, TextShorterThanFourCodePointsIsOneFeature) {
  const std::vector<std::pair<std::string, uint32_t>> expected = {{"a\xf0\xa0\x80\x80" "b", 1}};
  EXPECT_EQ(Features("A \xf0\xa0\x80\x80 - b"), expected);
}

TEST(PythonSimhash, FeaturesAreAppended) {
  std::vector<CountedFeature> out = {{"keep", 7}};
  PythonSimhashFeatures("xyz", &out, nullptr);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].text, "keep");
  EXPECT_EQ(out[1].text, "xyz");
  EXPECT_EQ(out[1].count, 1u);
}

TEST(PythonSimhash, TextWithoutTokenCharactersHasNoFingerprint) {
  for (const char* text : {"", " \t\n", "...!!! ??? ()", "\xf0\x9f\x98\x80", "\xcc\x81\xcc\x82", "\xff\xfe"}) {
    EXPECT_TRUE(Profile().Fingerprint(text).empty()) << text;
    EXPECT_TRUE(Features(text).empty()) << text;
  }
}

TEST(PythonSimhash, InvalidUtf8IsReplacedAndCounted) {
  const FingerprintResult clean = Profile().Fingerprint("abcdef");
  const FingerprintResult dirty = Profile().Fingerprint("abc\xff" "def\xe4\xb8");
  EXPECT_EQ(clean.invalid_utf8, 0u);
  EXPECT_EQ(dirty.invalid_utf8, 2u);
  EXPECT_EQ(dirty.fingerprint, clean.fingerprint);

  std::vector<CountedFeature> out;
  uint32_t invalid = 0;
  PythonSimhashFeatures("\x80\x80", &out, &invalid);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(invalid, 2u);
}

TEST(PythonSimhash, RandomBytesAgreeWithTheirOwnFeatureList) {
  // Any bytes: no crash, and Simhash(text) equals Simhash(features with
  // counts as weights), as build_by_text defines it.
  std::mt19937 rng(7);
  const char kAlphabet[] = "aB_9 .\xce\xa3\xcf\x82\xe4\xb8\xad\xf0\xa0\x80\x80\x80\xbf\xc0\xed\xf4\xff";
  for (int iter = 0; iter < 2000; ++iter) {
    std::string text(rng() % 48, '\0');
    for (char& c : text) {
      c = rng() % 2 == 0 ? static_cast<char>(rng()) : kAlphabet[rng() % (sizeof(kAlphabet) - 1)];
    }
    std::vector<CountedFeature> features;
    uint32_t invalid = 0;
    PythonSimhashFeatures(text, &features, &invalid);
    const FingerprintResult from_text = Profile().Fingerprint(text);
    EXPECT_EQ(from_text.invalid_utf8, invalid);
    ASSERT_EQ(!from_text.empty(), !features.empty());
    if (from_text.empty()) continue;
    std::vector<std::pair<std::string, double>> weighted;
    for (const auto& f : features) weighted.emplace_back(f.text, static_cast<double>(f.count));
    EXPECT_EQ(from_text.fingerprint, ValueOfFeatures(weighted));
  }
}

TEST(PythonSimhash, ManyEqualWindowsGiveTheirOwnHash) {
  // 997 equal windows: every bit votes as their one hash does.
  EXPECT_EQ(ValueOfText(std::string(1000, 'a')), PythonSimhashFeatureHash("aaaa"));
}

TEST(PythonSimhash, NonIntegerWeightsSumAsPythonFloats) {
  // Values from python_simhash_reference.value_of_features with float weights.
  std::vector<std::pair<std::string, double>> rising;
  for (int i = 0; i < 100; ++i) rising.emplace_back(std::to_string(i), 0.1 * i);
  EXPECT_EQ(ValueOfFeatures(rising), 15778139453526095761u);
  EXPECT_EQ(ValueOfFeatures({{"aaa", 0.5}, {"bbb", 1.25}, {"ccc", 0.75}}), 1211135328210838857u);
}

}  // namespace
}  // namespace simdex::compat
