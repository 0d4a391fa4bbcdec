// The two word definitions of include/simdex/shingles.h: word-chars (runs of
// Unicode \w characters, the field's common definition) against space-split
// (runs between spaces), by hand-made texts and against a brute-force
// tokenizer on random ASCII texts.
#include <algorithm>
#include <cctype>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "simdex/shingles.h"

namespace simdex {
namespace {

std::vector<uint64_t> Shingles(ShingleWords words, std::string_view text, ShingleKind* kind = nullptr) {
  ShingleOptions o;
  o.words = words;
  std::unique_ptr<ShingleMaker> maker;
  EXPECT_TRUE(ShingleMaker::Create(o, &maker).ok());
  std::vector<uint64_t> out;
  const ShingleKind k = maker->Make(text, &out);
  if (kind != nullptr) *kind = k;
  return out;
}

std::vector<uint64_t> WordChars(std::string_view text, ShingleKind* kind = nullptr) {
  return Shingles(ShingleWords::kWordChars, text, kind);
}
std::vector<uint64_t> SpaceSplit(std::string_view text) { return Shingles(ShingleWords::kSpaceSplit, text); }

// The sorted hashes of the given shingles (seed 1: word shingles; 2: characters).
std::vector<uint64_t> Hashes(std::vector<std::string> shingles, uint64_t seed = 1) {
  std::vector<uint64_t> out;
  for (const std::string& s : shingles) out.push_back(XXH3_64bits_withSeed(s.data(), s.size(), seed));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

TEST(ShingleWords, NamesReadBackAndOthersAreRefused) {
  for (ShingleWords w : {ShingleWords::kWordChars, ShingleWords::kSpaceSplit}) {
    ShingleWords back = w == ShingleWords::kWordChars ? ShingleWords::kSpaceSplit : ShingleWords::kWordChars;
    ASSERT_TRUE(ParseShingleWords(ShingleWordsName(w), &back));
    EXPECT_EQ(back, w);
  }
  EXPECT_STREQ(ShingleWordsName(ShingleWords::kWordChars), "word-chars");
  EXPECT_STREQ(ShingleWordsName(ShingleWords::kSpaceSplit), "space-split");
  ShingleWords w = ShingleWords::kSpaceSplit;
  for (const char* bad : {"", "words", "words-w", "Word-Chars", "word-chars "}) {
    EXPECT_FALSE(ParseShingleWords(bad, &w)) << bad;
    EXPECT_EQ(w, ShingleWords::kSpaceSplit);
  }
}

TEST(ShingleWords, WordCharsDropsThePunctuationThatSpaceSplitKeepsInItsWord) {
  const std::string text = "Hello, world! It's (fine): e-mail me@example.org.";
  EXPECT_EQ(WordChars(text), Hashes({"hello world it s fine", "world it s fine e", "it s fine e mail",
                                     "s fine e mail me", "fine e mail me example", "e mail me example org"}));
  EXPECT_EQ(SpaceSplit(text), Hashes({"hello, world! it's (fine): e-mail", "world! it's (fine): e-mail me@example.org."}));
  // So a pair that differs only in its punctuation is one document to word-chars.
  EXPECT_EQ(WordChars("one, two; three. four! five? six"), WordChars("one two three four five six"));
  EXPECT_NE(SpaceSplit("one, two; three. four! five? six"), SpaceSplit("one two three four five six"));
}

TEST(ShingleWords, UnicodeWordCharactersAreLettersMarksDigitsAndConnectors) {
  // Accented letters (composed or not: NFKC composes them), digits of any
  // script (Arabic-Indic three), connector punctuation (the underscore),
  // combining marks that do not compose (Devanagari vowel signs and virama).
  EXPECT_EQ(WordChars("Café naïve_x 2024 ٣ x_1 hindi"), Hashes({"café naïve_x 2024 ٣ x_1", "naïve_x 2024 ٣ x_1 hindi"}));
  EXPECT_EQ(WordChars("Cafe\u0301 naïve_x 2024 ٣ x_1"), WordChars("CAFÉ NAÏVE_X 2024 ٣ X_1"));
  EXPECT_EQ(WordChars("हिन्दी"), Hashes({"हिन्दी"}));  // one word, marks included
  // Symbols, dashes, quotes and brackets of any script separate words.
  EXPECT_EQ(WordChars("a—b «c» d·e f€g"), Hashes({"a b c d e", "b c d e f", "c d e f g"}));
}

TEST(ShingleWords, NormalisationComesBeforeTheWordsAreCut) {
  // NFKC: the ligature and the full-width letters and comma become ASCII; a
  // superscript two becomes a digit within its word; case folding: ß is ss.
  EXPECT_EQ(WordChars("ﬁve ＡＢＣ，ｄｅｆ x² Straße"), Hashes({"five abc def x2 strasse"}));
}

TEST(ShingleWords, UnspacedTextIsCodePointWindowsUnderBothDefinitions) {
  ShingleKind kind;
  const std::string text = "中文文本， 的去";  // a full-width comma (NFKC: ","), a space
  EXPECT_EQ(WordChars(text, &kind), Hashes({"中文文本,", "文文本,的", "文本,的去"}, 2));
  EXPECT_EQ(kind, ShingleKind::kChars);
  EXPECT_EQ(WordChars(text), SpaceSplit(text));
}

TEST(ShingleWords, TextWithoutWordCharactersHasNoShingles) {
  ShingleKind kind;
  EXPECT_TRUE(WordChars("--- *** ... !!!", &kind).empty());
  EXPECT_EQ(kind, ShingleKind::kNone);
  EXPECT_EQ(SpaceSplit("--- *** ... !!!").size(), 1u);
  EXPECT_EQ(WordChars("a."), Hashes({"a"}));  // one word: one shingle
}

// The brute-force tokenizer of ASCII text: lower case, runs of [a-z0-9_],
// the 5-word windows joined by one space (one shingle for fewer words).
std::vector<uint64_t> OracleWordChars(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text + " ") {
    const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word.push_back(lower);
    } else if (!word.empty()) {
      words.push_back(word);
      word.clear();
    }
  }
  std::vector<std::string> shingles;
  for (size_t i = 0; i + 5 <= words.size() || (i == 0 && !words.empty()); ++i) {
    std::string s;
    for (size_t j = i; j < std::min(words.size(), i + 5); ++j) s += (j > i ? " " : "") + words[j];
    shingles.push_back(s);
  }
  return Hashes(shingles);
}

TEST(ShingleWords, WordCharsEqualsABruteForceTokenizerOnRandomAsciiTexts) {
  std::mt19937 rng(37);
  const std::string alphabet = "abcXYZ019_ \t\n.,;:!?'\"()-/@#%&*+=<>[]{}|~`$^\\";
  for (int t = 0; t < 300; ++t) {
    std::string text;
    const int length = std::uniform_int_distribution<int>(0, 60)(rng);
    for (int i = 0; i < length; ++i) text.push_back(alphabet[rng() % alphabet.size()]);
    EXPECT_EQ(WordChars(text), OracleWordChars(text)) << "'" << text << "'";
  }
}

TEST(ShingleWords, RejectsAnUnknownDefinition) {
  ShingleOptions o;
  o.words = static_cast<ShingleWords>(7);
  std::unique_ptr<ShingleMaker> maker;
  EXPECT_TRUE(ShingleMaker::Create(o, &maker).IsInvalidArgument());
}

}  // namespace
}  // namespace simdex
