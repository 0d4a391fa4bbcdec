// Shingle sets: a text as the set of its word or character n-grams, each
// hashed to 64 bits. The unit of the pairwise Jaccard truth of `simdex eval`
// (include/simdex/eval.h, docs/quality.md) and of MinHash signatures
// (include/simdex/minhash.h, docs/minhash.md): both see the same sets.
//
// A text becomes a set of shingles this way:
//   1. UTF-8 decoded (invalid sequences become U+FFFD), NFKC + case folding
//      (ICU's NFKC_Casefold, the normaliser of the fingerprints), then every
//      run of white space (Unicode White_Space) collapsed to one space and
//      the ends trimmed.
//   2. Spaced or unspaced: the text's letters (Unicode general category L)
//      are counted in units, one unit per letter of a script written without
//      spaces between words (Han, Hiragana, Katakana, Thai, Lao, Khmer,
//      Myanmar, Tibetan) and one unit per run of consecutive letters of any
//      other script (one word). The text is unspaced when those scripts make
//      at least `unspaced_share` of the units. Hangul is counted as spaced:
//      Korean separates its words with spaces.
//   3. Spaced text: its words, by ShingleOptions::words, either
//        - word-chars: the runs of Unicode word characters (\w of Unicode
//          Technical Standard #18, as in ICU's regular expressions and
//          Python's `regex` module: Alphabetic, marks (gc M), decimal
//          digits (Nd), connector punctuation (Pc: "_"), U+200C, U+200D);
//          every other character separates words and is dropped, so "end."
//          and "end" are one word, "don't" two ("don", "t"); or
//        - space-split: the runs between spaces; punctuation stays part of
//          its word, so "end." and "end" differ;
//      shingles are the word_n-word windows, joined by one space. Unspaced
//      text (either way): the spaces are removed; shingles are the
//      char_n-code-point windows, punctuation included. A text with fewer
//      units than n has one shingle, all of it; a text with none (empty,
//      only spaces, or under word-chars only punctuation) has none.
//   4. Each shingle is hashed to 64 bits (XXH3-64 of its UTF-8 bytes, seed 1
//      for word shingles and 2 for character shingles, so the two kinds do
//      not meet); a document's set is its sorted distinct hashes. A text
//      without punctuation has the same set under both word definitions.
//
// word-chars is the field's common definition (NFKC, lower case, the
// `re.findall(r"\w+", text)` tokens, 5-token windows; Chinese: 5-code-point
// windows of the text without white space), with two differences of
// normalisation, case folding where lower-casing is usual ("ß" is "ss",
// default-ignorable characters such as the soft hyphen are removed), and
// one of Python's `re` (not its `regex`), whose \w leaves out marks: it
// cuts "हिन्दी" at its vowel signs, Unicode's \w does not. docs/minhash.md
// ("Shingles") measures how often the two definitions disagree about a pair.
#ifndef SIMDEX_SHINGLES_H_
#define SIMDEX_SHINGLES_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "simdex/status.h"

namespace simdex {

// How spaced text is cut into words (step 3 above).
enum class ShingleWords : uint8_t {
  kSpaceSplit,  // "space-split": the runs between white space
  kWordChars,   // "word-chars": the runs of Unicode \w characters
};

// The name of a definition ("space-split", "word-chars"), as the command
// line, Python and the signature profile spell it.
const char* ShingleWordsName(ShingleWords words);
// The definition a name gives; false (and *out untouched) for any other.
bool ParseShingleWords(std::string_view name, ShingleWords* out);

struct ShingleOptions {
  // word-chars by default: the truth the field (and issue 37's targets)
  // score by; space-split is the definition of every signature profile
  // recorded before it (docs/minhash.md, "Shingles").
  ShingleWords words = ShingleWords::kWordChars;
  int word_n = 5;               // REQUIRES: 1..64
  int char_n = 5;               // REQUIRES: 1..64
  double unspaced_share = 0.5;  // REQUIRES: 0 < unspaced_share <= 1
};

enum class ShingleKind : uint8_t {
  kNone,   // no shingles: empty text or only white space
  kWords,  // spaced text: word shingles
  kChars,  // unspaced text: character shingles
};

// Thread safety: one thread per ShingleMaker.
class ShingleMaker {
 public:
  static Status Create(const ShingleOptions& options, std::unique_ptr<ShingleMaker>* out);
  ~ShingleMaker();

  // Replaces *out with the sorted distinct shingle hashes of utf8_text and
  // returns which kind they are.
  ShingleKind Make(std::string_view utf8_text, std::vector<uint64_t>* out);

 private:
  struct Rep;
  explicit ShingleMaker(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex

#endif  // SIMDEX_SHINGLES_H_
