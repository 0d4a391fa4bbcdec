// The text half of the python-simhash profile's tokenizer,
//   ''.join(re.findall(r'[\w\u4e00-\u9fcc]+', text.lower())),
// with Python 3's str semantics, built on ICU. The other half, the sliding
// window, is in python_simhash.cc.
//
// Unicode versions. ICU 72 carries Unicode 15.0 (the database of Python
// 3.12); Python 3.11 carries 14.0. tests/compat/python_text_test.cc compares
// both functions below with Python 3.11 on every code point, lowercase and
// the Final_Sigma rule (Σ next to the code point, in four contexts) included,
// using tables Python made (tests/compat/python_unicode_tables.tsv). They
// agree everywhere except on code points that are unassigned in Unicode 14.0
// and assigned in 15.0, which Python 3.11 treats as unassigned (not \w,
// neither cased nor case-ignorable):
//   matched by \w here only (new letters and digits):
//     U+1123F..U+11240 U+11F02 U+11F04..U+11F10 U+11F12..U+11F33 U+1342F
//     U+13441..U+13446 U+1B132 U+1B155 U+1E4D0..U+1E4EA U+2B739
//     U+31350..U+323AF (CJK extension H), U+11F50..U+11F59 U+1E4F0..U+1E4F9
//     (Kawi and Nag Mundari digits), U+1D2C0..U+1D2D3 (Kaktovik numerals),
//     U+1DF25..U+1DF2A U+1E030..U+1E06D U+1E4EB;
//   case-ignorable or cased here only, so a Σ next to them may lower to
//   σ here and ς in Python 3.11 or the other way round:
//     U+0ECE U+10EFD..U+10EFF U+11241 U+11F00..U+11F01 U+11F36..U+11F3A
//     U+11F40 U+11F42 U+13439..U+13440 U+13447..U+13455 U+1DF25..U+1DF2A
//     U+1E030..U+1E06D U+1E08F U+1E4EB..U+1E4EF.
// Texts in which none of these code points occur showed no other difference.
#ifndef SIMDEX_ENGINE_COMPAT_PYTHON_TEXT_H_
#define SIMDEX_ENGINE_COMPAT_PYTHON_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace simdex::compat {

// Returns true iff Python's pattern [\w\u4e00-\u9fcc] (a str pattern, no
// flags) matches the code point c: c is '_', a letter (general category Lu,
// Ll, Lt, Lm or Lo), a character with a Numeric_Type (Decimal, Digit or
// Numeric: together with the letters, what str.isalnum() accepts), or in
// U+4E00..U+9FCC. Combining marks (Mn, Mc, Me) are not matched.
bool IsPythonSimhashTokenChar(char32_t c);

// Replaces *out with str.lower() of the UTF-16 `text`: the full lowercase
// mapping including the unconditional special casings (U+0130 İ becomes
// "i\u0307") and Σ becoming ς in the Final_Sigma context, with no language
// tailoring (ICU's root locale). REQUIRES: text.size() < 2^29.
void PythonLower(std::u16string_view text, std::u16string* out);

// How KeepPythonTokenChars cuts its input: pieces of about `target` bytes,
// cut only before a code point that is neither cased nor case-ignorable so
// that no decoding or Final_Sigma decision crosses a cut; when no such code
// point appears within `limit` bytes the piece is cut at `limit` (moved back
// to a code point boundary), where a Σ next to the cut may lower differently
// from Python. REQUIRES: 4 <= target <= limit <= 2^28.
struct PieceSizes {
  size_t target = size_t{1} << 20;
  size_t limit = size_t{1} << 28;
};

// Decodes `utf8` (each maximal ill-formed subsequence becomes one U+FFFD, as
// Python's bytes.decode('utf-8', 'replace') does), lowercases it with
// PythonLower, and appends to *kept the UTF-8 encoding of the code points
// IsPythonSimhashTokenChar accepts, in order. Returns the number of U+FFFD
// substitutions. U+FFFD itself is not a token character, so substitutions
// only separate the characters around them. The result does not depend on
// `pieces` except as stated above. Thread-safe: scratch buffers are
// per-thread.
uint64_t KeepPythonTokenChars(std::string_view utf8, std::string* kept,
                              PieceSizes pieces = PieceSizes());

}  // namespace simdex::compat

#endif  // SIMDEX_ENGINE_COMPAT_PYTHON_TEXT_H_
