// Fingerprinter behaviour: near-duplicates, unrelated texts, normalization,
// segmentation, empty documents, invalid UTF-8, seeds and clones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <limits>
#include <string>
#include <vector>

#include "simdex/fingerprint.h"
#include "tests/text/fingerprinter_helpers.h"
#include "tests/text/sample_texts.h"

namespace simdex {
namespace {

// These tests pin the tokenizers and the combine: stop words (on by default
// since version 2 of the defaults, docs/fingerprint.md) are cleared unless a
// test sets them.
FingerprintOptions NoStopWords() {
  FingerprintOptions o;
  o.stop_words.clear();
  return o;
}

using testing::FromFeatures;

std::unique_ptr<Fingerprinter> Make(const FingerprintOptions& options = NoStopWords()) {
  return testing::MakeFingerprinter(options);
}

std::vector<std::string> Words(Fingerprinter* fp, std::string_view text) {
  std::vector<WeightedFeature> features;
  fp->ExtractFeatures(text, &features);
  std::vector<std::string> out;
  for (const auto& f : features) out.push_back(f.text);
  return out;
}

std::string ReplaceFirst(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

uint64_t FingerprintOf(Fingerprinter* fp, std::string_view text) {
  FingerprintResult r = fp->Fingerprint(text);
  EXPECT_FALSE(r.empty()) << EmptyReasonName(r.reason);
  return r.fingerprint;
}

// One edit changes one word feature, n character n-grams or n word
// shingles. Words, character 3-grams and word 2-shingles are checked; longer
// shingles multiply the features an edit touches (a word 3-shingle
// fingerprint of the Chinese paragraph moves by about 4 bits).
struct Edit {
  const char* from;
  const char* to;
};

void ExpectEditsStayWithinThreeBits(const std::string& text, const std::vector<Edit>& edits) {
  const std::pair<Tokenizer, int> configs[] = {
      {Tokenizer::kWords, 3}, {Tokenizer::kCharNgrams, 3}, {Tokenizer::kWordNgrams, 2}};
  for (const auto& [tokenizer, n] : configs) {
    FingerprintOptions o = NoStopWords();
    o.tokenizer = tokenizer;
    o.ngram = n;
    auto fp = Make(o);
    uint64_t original = FingerprintOf(fp.get(), text);
    for (const Edit& e : edits) {
      uint64_t edited = FingerprintOf(fp.get(), ReplaceFirst(text, e.from, e.to));
      EXPECT_LE(HammingDistance(original, edited), 3)
          << "tokenizer " << static_cast<int>(tokenizer) << " edit " << e.from;
    }
  }
}

TEST(Fingerprinter, OneChangedEnglishWordStaysWithinThreeBits) {
  ExpectEditsStayWithinThreeBits(testing::kEnglishParagraph,
                                 {{"surprising", "remarkable"},
                                  {"crawler", "spider"},
                                  {"disk", "space"},
                                  {"comma", "period"},
                                  {"patient", "careful"}});
}

TEST(Fingerprinter, OneChangedChineseWordStaysWithinThreeBits) {
  ExpectEditsStayWithinThreeBits(testing::kChineseParagraph, {{"浪费", "占用"},
                                                              {"爬虫", "程序"},
                                                              {"故事", "新闻"},
                                                              {"速度", "效率"},
                                                              {"指纹", "签名"}});
}

// Texts of 200 random words from a large random vocabulary: fingerprints of
// unrelated texts should differ in about half of their 64 bits.
TEST(Fingerprinter, UnrelatedTextsAreAboutThirtyTwoBitsApart) {
  std::mt19937_64 rng(42);
  auto random_text = [&] {
    std::string text;
    for (int w = 0; w < 200; ++w) {
      int len = 2 + static_cast<int>(rng() % 8);
      for (int i = 0; i < len; ++i) text.push_back(static_cast<char>('a' + rng() % 26));
      text.push_back(' ');
    }
    return text;
  };
  auto fp = Make();
  std::vector<uint64_t> prints;
  for (int i = 0; i < 60; ++i) prints.push_back(FingerprintOf(fp.get(), random_text()));
  double total = 0;
  int pairs = 0;
  for (size_t i = 0; i < prints.size(); ++i) {
    for (size_t j = i + 1; j < prints.size(); ++j, ++pairs) {
      total += HammingDistance(prints[i], prints[j]);
    }
  }
  double mean = total / pairs;
  EXPECT_GT(mean, 28.0);
  EXPECT_LT(mean, 36.0);
}

TEST(Fingerprinter, WidthAndCaseVariantsAreEqual) {
  auto fp = Make();
  // Full-width letters and digits, upper case, and a ligature (NFKC: "fi").
  EXPECT_EQ(FingerprintOf(fp.get(), "Ｈｅｌｌｏ ＷＯＲＬＤ ２０２４ ﬁne"),
            FingerprintOf(fp.get(), "hello world 2024 fine"));
  EXPECT_EQ(FingerprintOf(fp.get(), "STRASSE Straße"), FingerprintOf(fp.get(), "strasse strasse"));
  // Half-width katakana become full-width.
  EXPECT_EQ(FingerprintOf(fp.get(), "ｶﾀｶﾅ"), FingerprintOf(fp.get(), "カタカナ"));
}

TEST(Fingerprinter, WithoutNormalizationCaseMatters) {
  FingerprintOptions o = NoStopWords();
  o.normalize = false;
  auto fp = Make(o);
  EXPECT_EQ(Words(fp.get(), "Hello WORLD"), (std::vector<std::string>{"Hello", "WORLD"}));
  EXPECT_NE(FingerprintOf(fp.get(), "Hello"), FingerprintOf(fp.get(), "hello"));
}

TEST(Fingerprinter, ChineseTextIsSegmentedIntoDictionaryWords) {
  auto fp = Make();
  std::vector<std::string> words = Words(fp.get(), "我们是中国人");
  EXPECT_GT(words.size(), 1u);
  EXPECT_NE(std::find(words.begin(), words.end(), "我们"), words.end());
  EXPECT_NE(std::find(words.begin(), words.end(), "中国人"), words.end());
  std::vector<std::string> more = Words(fp.get(), "网络爬虫带回网页，搜索结果里出现同一个故事。");
  for (const char* w : {"网络", "搜索", "结果", "故事"}) {
    EXPECT_NE(std::find(more.begin(), more.end(), w), more.end()) << w;
  }
  int multi = 0;
  for (const std::string& w : more) multi += w.size() > 3;  // more than one Han character
  EXPECT_GE(multi, 4);
}

TEST(Fingerprinter, WordsDropPunctuationAndSpace) {
  auto fp = Make();
  EXPECT_EQ(Words(fp.get(), "  Hello, world! It's 3.14 -- e.g. foo_bar.  "),
            (std::vector<std::string>{"hello", "world", "it's", "3.14", "e.g", "foo_bar"}));
}

TEST(Fingerprinter, CharNgramsSkipSpaceAndPunctuation) {
  FingerprintOptions o = NoStopWords();
  o.tokenizer = Tokenizer::kCharNgrams;
  o.ngram = 3;
  auto fp = Make(o);
  EXPECT_EQ(Words(fp.get(), "A b, c-d!"), (std::vector<std::string>{"abc", "bcd"}));
  EXPECT_EQ(Words(fp.get(), "中文，字"), (std::vector<std::string>{"中文字"}));
  // Shorter than n: one feature with everything that is left.
  EXPECT_EQ(Words(fp.get(), "a-b"), (std::vector<std::string>{"ab"}));
}

TEST(Fingerprinter, WordNgramsAreSpaceJoinedShingles) {
  FingerprintOptions o = NoStopWords();
  o.tokenizer = Tokenizer::kWordNgrams;
  o.ngram = 2;
  auto fp = Make(o);
  EXPECT_EQ(Words(fp.get(), "The cat, the hat."),
            (std::vector<std::string>{"the cat", "cat the", "the hat"}));
  EXPECT_EQ(Words(fp.get(), "alone"), (std::vector<std::string>{"alone"}));
}

TEST(Fingerprinter, FingerprintEqualsCombineOfExtractedFeatures) {
  auto fp = Make();
  std::vector<WeightedFeature> features;
  fp->ExtractFeatures(testing::kEnglishParagraph, &features);
  std::vector<WeightedHash> hashes;
  for (const auto& f : features) hashes.push_back({fp->HashFeature(f.text), f.weight});
  FingerprintResult r = fp->Fingerprint(testing::kEnglishParagraph);
  EXPECT_EQ(r.fingerprint, CombineWeightedHashes(hashes));
  EXPECT_EQ(r.features, features.size());
  double occurrences = 0;
  for (const auto& f : features) occurrences += f.weight;
  EXPECT_EQ(r.occurrences, occurrences);
  EXPECT_EQ(FromFeatures(fp.get(), features).fingerprint, r.fingerprint);
}

TEST(Fingerprinter, HashFeatureIsSeededXxh3) {
  FingerprintOptions o = NoStopWords();
  auto a = Make(o);
  o.seed = 12345;
  auto b = Make(o);
  EXPECT_NE(a->HashFeature("apache"), b->HashFeature("apache"));
  EXPECT_EQ(a->HashFeature("apache"), a->HashFeature("apache"));
}

TEST(Fingerprinter, SeedChangesTheFingerprint) {
  FingerprintOptions o = NoStopWords();
  auto a = Make(o);
  o.seed = 99;
  auto b = Make(o);
  EXPECT_NE(FingerprintOf(a.get(), testing::kEnglishParagraph),
            FingerprintOf(b.get(), testing::kEnglishParagraph));
}

TEST(Fingerprinter, CloneGivesIdenticalResults) {
  for (Tokenizer t : {Tokenizer::kWords, Tokenizer::kCharNgrams, Tokenizer::kWordNgrams}) {
    FingerprintOptions o = NoStopWords();
    o.tokenizer = t;
    o.seed = 5;
    o.stop_words = BuiltinStopWords("en");
    auto fp = Make(o);
    auto clone = fp->Clone();
    for (const char* text : {testing::kEnglishParagraph, testing::kChineseParagraph, ""}) {
      FingerprintResult x = fp->Fingerprint(text), y = clone->Fingerprint(text);
      EXPECT_EQ(x.fingerprint, y.fingerprint);
      EXPECT_EQ(x.reason, y.reason);
      EXPECT_EQ(x.features, y.features);
    }
    EXPECT_EQ(clone->options().seed, 5u);
  }
}

TEST(Fingerprinter, FromFeaturesAddsEqualFeaturesAndIgnoresZeroWeights) {
  auto fp = Make();
  std::vector<WeightedFeature> split = {{"Apache", 20}, {"hadoop", 10}, {"hadoop", 15}, {"x", 0}};
  std::vector<WeightedFeature> merged = {{"Apache", 20}, {"hadoop", 25}};
  FingerprintResult a = FromFeatures(fp.get(), split), b = FromFeatures(fp.get(), merged);
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  EXPECT_EQ(a.features, 2u);
  std::vector<WeightedHash> hashes = {{fp->HashFeature("Apache"), 20},
                                      {fp->HashFeature("hadoop"), 25}};
  EXPECT_EQ(b.fingerprint, CombineWeightedHashes(hashes));
  EXPECT_EQ(FromFeatures(fp.get(), {}).reason, EmptyReason::kNoFeatures);
  std::vector<WeightedFeature> zero = {{"a", 0}};
  EXPECT_EQ(FromFeatures(fp.get(), zero).reason, EmptyReason::kZeroWeight);
}

// The caller's weights follow the one rule (CheckWeight): a negative, NaN,
// infinite or overflowing weight is refused naming the feature, where it
// gave a fingerprint of zero bits or silently flipped bits.
TEST(Fingerprinter, FromFeaturesRefusesNegativeNonFiniteAndOverflowingWeights) {
  auto fp = Make();
  for (const double bad : {-3.0, std::nan(""), std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 1e308}) {
    SCOPED_TRACE(bad);
    const std::vector<WeightedFeature> features = {{"Apache", 20}, {"had\noop", bad}};
    FingerprintResult r;
    r.fingerprint = 7;
    const Status s = fp->FromFeatures(features, &r);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.message().find("weight of feature 'had\\noop' is "), std::string::npos) << s.ToString();
    EXPECT_EQ(r.fingerprint, 7u) << "*out untouched";
  }
  const std::vector<WeightedFeature> largest = {{"a", kMaxFeatureWeight}, {"b", kMaxFeatureWeight}, {"a", kMaxFeatureWeight}};
  const std::vector<WeightedFeature> one = {{"a", 2}, {"b", 1}};
  EXPECT_EQ(FromFeatures(fp.get(), largest).fingerprint, FromFeatures(fp.get(), one).fingerprint);
}

TEST(Fingerprinter, EmptyDocumentsReportTheirReason) {
  auto fp = Make();
  EXPECT_EQ(fp->Fingerprint("").reason, EmptyReason::kNoText);
  EXPECT_EQ(fp->Fingerprint(" \t\r\n\u3000\u00a0").reason, EmptyReason::kNoText);
  EXPECT_EQ(fp->Fingerprint("!?... -- ，。").reason, EmptyReason::kNoFeatures);
  EXPECT_EQ(fp->Fingerprint("$ + € ©").reason, EmptyReason::kNoFeatures);
  FingerprintOptions o = NoStopWords();
  o.tokenizer = Tokenizer::kCharNgrams;
  auto grams = Make(o);
  EXPECT_EQ(grams->Fingerprint("   ").reason, EmptyReason::kNoText);
  EXPECT_EQ(grams->Fingerprint(" ;-) ").reason, EmptyReason::kNoFeatures);
  EXPECT_STREQ(EmptyReasonName(EmptyReason::kNoText), "no-text");
  EXPECT_STREQ(EmptyReasonName(EmptyReason::kNoFeatures), "no-features");
  EXPECT_STREQ(EmptyReasonName(EmptyReason::kAllStopWords), "all-stop-words");
  EXPECT_STREQ(EmptyReasonName(EmptyReason::kZeroWeight), "zero-weight");
  EXPECT_STREQ(EmptyReasonName(EmptyReason::kNotEmpty), "");
}

// An empty result carries no fingerprint, so two different empty documents
// can never be taken for near-duplicates of each other.
TEST(Fingerprinter, DifferentEmptyDocumentsNeverMatch) {
  auto fp = Make();
  FingerprintResult a = fp->Fingerprint("");
  FingerprintResult b = fp->Fingerprint("?!");
  EXPECT_TRUE(a.empty());
  EXPECT_TRUE(b.empty());
  auto is_match = [](const FingerprintResult& x, const FingerprintResult& y) {
    return !x.empty() && !y.empty() && HammingDistance(x.fingerprint, y.fingerprint) <= 3;
  };
  EXPECT_FALSE(is_match(a, b));
  EXPECT_FALSE(is_match(a, fp->Fingerprint("word")));
}

TEST(Fingerprinter, InvalidUtf8IsReplacedAndCounted) {
  auto fp = Make();
  const std::string cases[] = {
      std::string("abc \xE4\xB8", 6),          // truncated 3-byte sequence at the end
      std::string("abc \xE4\xB8 def", 10),     // truncated in the middle
      std::string("\xC0\xAF overlong", 10),    // overlong '/'
      std::string("\xE0\x80\xAF x", 5),        // overlong 3-byte
      std::string("\x80\xBF lone", 7),         // lone continuation bytes
      std::string("\xED\xA0\x80 surrogate", 13),  // encoded surrogate
      std::string("\xF8\x88\x80\x80\x80 five", 10),
      std::string("\xFF\xFE", 2),
  };
  for (const std::string& text : cases) {
    FingerprintResult r = fp->Fingerprint(text);
    EXPECT_GT(r.invalid_utf8, 0u) << text;
  }
  EXPECT_EQ(fp->Fingerprint(std::string("\xFF\xFE", 2)).reason, EmptyReason::kNoFeatures);
  EXPECT_EQ(fp->Fingerprint("valid ascii").invalid_utf8, 0u);
}

TEST(Fingerprinter, RandomBytesNeverCrash) {
  std::mt19937_64 rng(1);
  std::vector<std::unique_ptr<Fingerprinter>> fps;
  for (Tokenizer t : {Tokenizer::kWords, Tokenizer::kCharNgrams, Tokenizer::kWordNgrams}) {
    FingerprintOptions o = NoStopWords();
    o.tokenizer = t;
    fps.push_back(Make(o));
  }
  uint64_t invalid = 0;
  for (int round = 0; round < 300; ++round) {
    std::string text(rng() % 300, '\0');
    for (char& c : text) c = static_cast<char>(rng());
    for (auto& fp : fps) invalid += fp->Fingerprint(text).invalid_utf8;
  }
  EXPECT_GT(invalid, 0u);
}

}  // namespace
}  // namespace simdex
