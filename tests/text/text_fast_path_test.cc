// The fast paths (ASCII normalization, ASCII word segmentation, windowed
// processing) against the plain ICU path, on random and real text.
#include <gtest/gtest.h>
#include <unicode/ustring.h>

#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/text/feature_extractor.h"
#include "engine/text/normalizer.h"
#include "engine/text/word_segmenter.h"
#include "engine/util/utf.h"
#include "tests/text/sample_texts.h"

namespace simdex::text {
namespace {

// Random text built from pieces chosen to meet every rule of the fast paths:
// ASCII letters of both cases, digits and the word-rule punctuation, ASCII
// white space, and non-ASCII neighbours that interact with them (combining
// marks, full-width forms, ligatures, CJK, Thai, Hangul, emoji, ZWJ, soft
// hyphen, no-break and ideographic spaces, final sigma, dotted capital I).
std::string RandomText(std::mt19937_64& rng, size_t pieces, bool short_tokens) {
  static const char* const kUnits[] = {
      "a", "b", "Z", "Q", "e", "s", "i", "I", "@", "0", "7", "_", ".", "'", ",", ";", ":", "-",
      "!", "\"", "(", "/", "é", "É", "\u0301", "\u0308", "ß", "Ａ", "ｂ", "１", "ﬁ", "中", "国",
      "人", "我们", "カ", "ｶ", "ภาษา", "한국", "😀", "\u200d", "\u00ad", "\u00a0", "\u3000",
      "Σ", "ς", "İ", "ǅ", "①", "\u2019", "。", "，", "\x7f", "\x01",
  };
  static const char* const kSpaces[] = {" ", " ", " ", "  ", "\t", "\n", "\r\n", "\v", "\f"};
  constexpr size_t kNumUnits = sizeof(kUnits) / sizeof(kUnits[0]);
  std::string out;
  for (size_t p = 0; p < pieces; ++p) {
    size_t len = 1 + rng() % (short_tokens ? 6 : 12);
    for (size_t i = 0; i < len; ++i) {
      // Mostly ASCII letters and digits, so that words form.
      if (rng() % 3 != 0) {
        out.push_back(static_cast<char>(rng() % 2 ? 'a' + rng() % 26 : '0' + rng() % 10));
      } else {
        out += kUnits[rng() % kNumUnits];
      }
    }
    out += kSpaces[rng() % (sizeof(kSpaces) / sizeof(kSpaces[0]))];
  }
  return out;
}

std::vector<std::string> RealTexts() {
  return {testing::kEnglishParagraph, testing::kChineseParagraph,
          std::string(testing::kEnglishParagraph) + " " + testing::kChineseParagraph,
          "Don’t mix “curly” quotes — or café, naïve, Ｆｕｌｌ ｗｉｄｔｈ, e.g. 3.14 and 1,000."};
}

std::u16string Normalize(const CaseFoldNormalizer& n, const std::u16string& s, bool plain) {
  util::U16Buffer out;
  n.Normalize(s.data(), s.size(), plain, &out);
  return std::u16string(out.data(), out.size());
}

std::u16string Decode(const std::string& s) {
  util::U16Buffer out;
  util::DecodeUtf8(s, &out);
  return std::u16string(out.data(), out.size());
}

// DecodeUtf8 widens ASCII runs itself and hands the rest to ICU; the units
// and the replacement count must be ICU's for the whole input.
TEST(DecoderFastPath, MatchesIcuOnRandomBytes) {
  std::mt19937_64 rng(10);
  std::vector<std::string> texts = RealTexts();
  for (int i = 0; i < 2000; ++i) {
    std::string s = RandomText(rng, 1 + rng() % 20, false);
    // Damage a few bytes: lone continuations, truncations, overlongs, 0xFF.
    for (int k = static_cast<int>(rng() % 4); k > 0 && !s.empty(); --k) {
      s[rng() % s.size()] = "\x80\xBF\xC0\xE4\xF0\xFF\xED"[rng() % 7];
    }
    if (rng() % 2) s += std::string(20, 'x');  // long ASCII run after damage
    texts.push_back(s);
  }
  for (const std::string& text : texts) {
    std::vector<UChar> expect(text.size() + 1);
    int32_t length = 0, substitutions = 0;
    UErrorCode status = U_ZERO_ERROR;
    u_strFromUTF8WithSub(expect.data(), static_cast<int32_t>(expect.size()), &length, text.data(),
                         static_cast<int32_t>(text.size()), 0xFFFD, &substitutions, &status);
    ASSERT_TRUE(U_SUCCESS(status));
    util::U16Buffer out;
    EXPECT_EQ(util::DecodeUtf8(text, &out), static_cast<uint32_t>(substitutions)) << text;
    ASSERT_EQ(std::u16string(out.data(), out.size()),
              std::u16string(reinterpret_cast<const char16_t*>(expect.data()), length))
        << text;
  }
}

TEST(NormalizerFastPath, MatchesIcu) {
  CaseFoldNormalizer n;
  ASSERT_TRUE(n.Init().ok());
  std::mt19937_64 rng(11);
  std::vector<std::string> texts = RealTexts();
  for (int i = 0; i < 500; ++i) texts.push_back(RandomText(rng, 1 + rng() % 30, false));
  for (const std::string& text : texts) {
    std::u16string s = Decode(text);
    ASSERT_EQ(Normalize(n, s, false), Normalize(n, s, true)) << text;
  }
  EXPECT_EQ(Normalize(n, u"ABC e\u0301 A\u0301", false), u"abc \u00e9 \u00e1");
}

std::vector<std::pair<uint32_t, uint32_t>> Segment(WordSegmenter* seg, const std::u16string& s,
                                                   bool plain) {
  std::vector<WordSpan> words;
  seg->Segment(s.data(), s.size(), plain, &words);
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const WordSpan& w : words) out.emplace_back(w.begin, w.end);
  return out;
}

TEST(WordSegmenterFastPath, MatchesIcuOnRandomAndRealText) {
  std::unique_ptr<WordSegmenter> seg;
  ASSERT_TRUE(WordSegmenter::Create(&seg).ok());
  CaseFoldNormalizer n;
  ASSERT_TRUE(n.Init().ok());
  std::mt19937_64 rng(12);
  std::vector<std::string> texts = RealTexts();
  for (int i = 0; i < 1500; ++i) texts.push_back(RandomText(rng, 1 + rng() % 30, false));
  // Pure ASCII stress: every ASCII character, densely.
  for (int i = 0; i < 1500; ++i) {
    std::string s(1 + rng() % 40, ' ');
    for (char& c : s) c = static_cast<char>(rng() % 2 ? "aZ9_.',;:@ \t-"[rng() % 13] : rng() % 128);
    texts.push_back(s);
  }
  for (const std::string& text : texts) {
    std::u16string raw = Decode(text);
    std::u16string folded = Normalize(n, raw, true);
    ASSERT_EQ(Segment(seg.get(), raw, false), Segment(seg.get(), raw, true)) << text;
    ASSERT_EQ(Segment(seg.get(), folded, false), Segment(seg.get(), folded, true)) << text;
  }
}

TEST(WordSegmenterFastPath, CloneSegmentsTheSame) {
  std::unique_ptr<WordSegmenter> seg;
  ASSERT_TRUE(WordSegmenter::Create(&seg).ok());
  auto clone = seg->Clone();
  std::u16string s = Decode(testing::kChineseParagraph);
  EXPECT_EQ(Segment(seg.get(), s, true), Segment(clone.get(), s, true));
}

using Features = std::vector<std::pair<uint64_t, uint64_t>>;

Features Extract(Tokenizer tokenizer, int ngram, bool normalize, bool plain, size_t window,
                 const std::string& text, std::shared_ptr<const HashSet64> stop_words = nullptr,
                 ExtractStats* stats_out = nullptr) {
  ExtractorConfig config;
  config.tokenizer = tokenizer;
  config.ngram = ngram;
  config.normalize = normalize;
  config.plain = plain;
  config.window_bytes = window;
  config.stop_words = std::move(stop_words);
  std::unique_ptr<FeatureExtractor> extractor;
  EXPECT_TRUE(FeatureExtractor::Create(config, &extractor).ok());
  FeatureTable table;
  ExtractStats stats;
  extractor->Extract(text, &table, &stats);
  if (stats_out != nullptr) *stats_out = stats;
  Features out;
  for (const FeatureEntry& e : table.entries()) out.emplace_back(e.hash, e.count);
  return out;
}

// Short tokens (at most 12 units of at most 4 bytes) each followed by ASCII
// white space guarantee a cut point in every half window of 128 bytes, where
// windowing is exact.
TEST(FeatureExtractorFastPath, PlainIcuAndSmallWindowsGiveTheSameFeatures) {
  std::mt19937_64 rng(13);
  std::vector<std::string> texts = RealTexts();
  texts.resize(1);  // the paragraphs without ASCII space every 64 bytes are tested below
  for (int i = 0; i < 200; ++i) texts.push_back(RandomText(rng, 1 + rng() % 60, true));
  for (const std::string& text : texts) {
    for (Tokenizer t : {Tokenizer::kWords, Tokenizer::kCharNgrams, Tokenizer::kWordNgrams}) {
      for (bool normalize : {true, false}) {
        int ngram = 1 + static_cast<int>(rng() % 5);
        Features reference = Extract(t, ngram, normalize, true, 1 << 20, text);
        ASSERT_EQ(Extract(t, ngram, normalize, false, 1 << 20, text), reference) << text;
        ASSERT_EQ(Extract(t, ngram, normalize, false, 128, text), reference) << text;
        ASSERT_EQ(Extract(t, ngram, normalize, true, 128, text), reference) << text;
      }
    }
  }
}

// Stop words are counted like other features and dropped once per distinct
// feature at the end of the text: the oracle drops them from the features of
// the same text extracted without stop words. The stop set holds every third
// feature, the first and the most frequent among them.
TEST(FeatureExtractorStopWords, DroppedAtTheEndAsIfEachOccurrenceWereSkipped) {
  std::mt19937_64 rng(17);
  std::vector<std::string> texts = RealTexts();
  for (int i = 0; i < 100; ++i) texts.push_back(RandomText(rng, 1 + rng() % 60, true));
  for (const std::string& text : texts) {
    for (Tokenizer t : {Tokenizer::kWords, Tokenizer::kCharNgrams}) {
      int ngram = 1 + static_cast<int>(rng() % 5);
      ExtractStats all_stats, stats;
      Features all = Extract(t, ngram, true, false, 128, text, nullptr, &all_stats);
      auto stop = std::make_shared<HashSet64>();
      std::set<uint64_t> oracle;
      for (size_t i = 0; i < all.size(); i += 3) {
        stop->Insert(all[i].first);
        oracle.insert(all[i].first);
      }
      Features want;
      uint64_t dropped = 0;
      for (const auto& f : all) {
        if (oracle.count(f.first) != 0) {
          dropped += f.second;
        } else {
          want.push_back(f);
        }
      }
      ASSERT_EQ(Extract(t, ngram, true, false, 128, text, stop, &stats), want) << text;
      EXPECT_EQ(stats.candidates, all_stats.candidates);
      EXPECT_EQ(stats.occurrences, all_stats.occurrences - dropped);
    }
  }
}

// The stop-word set against std::set: hashes that share the filter's top bits
// with a member, members, and random non-members.
TEST(HashSet64Test, ContainsExactlyWhatWasInserted) {
  std::mt19937_64 rng(19);
  HashSet64 set;
  std::set<uint64_t> oracle;
  EXPECT_FALSE(set.Contains(0));
  for (int i = 0; i < 3000; ++i) {
    uint64_t h = rng();
    if (i % 7 == 0) h &= 0xFFFF000000000000ull;  // low bits zero
    set.Insert(h);
    oracle.insert(h);
  }
  set.Insert(*oracle.begin());  // a repeat changes nothing
  EXPECT_EQ(set.size(), oracle.size());
  for (uint64_t h : oracle) {
    ASSERT_TRUE(set.Contains(h));
    ASSERT_EQ(set.Contains(h ^ 1), oracle.count(h ^ 1) != 0);               // same filter bit
    ASSERT_EQ(set.Contains(h ^ (1ull << 40)), oracle.count(h ^ (1ull << 40)) != 0);
  }
  for (int i = 0; i < 100000; ++i) {
    uint64_t h = rng();
    ASSERT_EQ(set.Contains(h), oracle.count(h) != 0);
  }
}

TEST(FeatureExtractorFastPath, RealTextMatchesIcu) {
  for (const std::string& text : RealTexts()) {
    for (Tokenizer t : {Tokenizer::kWords, Tokenizer::kCharNgrams, Tokenizer::kWordNgrams}) {
      EXPECT_EQ(Extract(t, 3, true, false, 1 << 20, text), Extract(t, 3, true, true, 1 << 20, text));
    }
    // Character n-grams do not depend on where windows are cut at all.
    EXPECT_EQ(Extract(Tokenizer::kCharNgrams, 4, true, false, 16, text),
              Extract(Tokenizer::kCharNgrams, 4, true, true, 1 << 20, text));
  }
}

}  // namespace
}  // namespace simdex::text
