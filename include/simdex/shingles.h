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
//   3. Spaced text: words are the runs between spaces (punctuation stays
//      part of its word); shingles are the word_n-word windows, joined by
//      one space. Unspaced text: the spaces are removed; shingles are the
//      char_n-code-point windows. A text with fewer units than n has one
//      shingle, all of it; a text with none (empty or only spaces) has none.
//   4. Each shingle is hashed to 64 bits (XXH3-64 of its UTF-8 bytes, seed 1
//      for word shingles and 2 for character shingles, so the two kinds do
//      not meet); a document's set is its sorted distinct hashes.
#ifndef SIMDEX_SHINGLES_H_
#define SIMDEX_SHINGLES_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "simdex/status.h"

namespace simdex {

struct ShingleOptions {
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
