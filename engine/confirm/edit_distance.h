// Levenshtein distance of two code point sequences, and the texts prepared
// for it (NFKC + case folding, white space runs made one space).
#ifndef SIMDEX_ENGINE_CONFIRM_EDIT_DISTANCE_H_
#define SIMDEX_ENGINE_CONFIRM_EDIT_DISTANCE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "engine/text/normalizer.h"
#include "engine/util/utf.h"

namespace simdex::confirm {

// The minimum number of code point insertions, deletions and substitutions
// that turn a into b, or any value > max_distance when that minimum is
// larger (the computation stops once it must exceed it). Bit-parallel:
// O(max(|a|, |b|) * min(|a|, |b|) / 64) time, O(min(|a|, |b|)) memory.
size_t EditDistance(std::span<const char32_t> a, std::span<const char32_t> b, size_t max_distance);

// Code points of a text for EditDistance. Thread safety: one thread.
class EditText {
 public:
  Status Init() { return normalizer_.Init(); }
  // Replaces *out with the NFKC_Casefold code points of utf8_text, each run
  // of white space one U+0020, none at either end.
  void Prepare(std::string_view utf8_text, std::vector<char32_t>* out);

 private:
  text::CaseFoldNormalizer normalizer_;
  util::U16Buffer decoded_;
  util::U16Buffer normalized_;
};

}  // namespace simdex::confirm

#endif  // SIMDEX_ENGINE_CONFIRM_EDIT_DISTANCE_H_
