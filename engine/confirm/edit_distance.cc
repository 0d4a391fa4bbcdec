#include "engine/confirm/edit_distance.h"

#include <algorithm>

#include <unicode/uchar.h>
#include <unicode/utf16.h>

namespace simdex::confirm {

namespace {

// Where each code point of the pattern occurs, one bit per position: for a
// code point c, masks(c)[w] has bit i set iff pattern[64 w + i] == c. An
// open-addressing table of the pattern's distinct code points.
class PatternMasks {
 public:
  explicit PatternMasks(std::span<const char32_t> pattern) : words_((pattern.size() + 63) / 64) {
    size_t cap = 16;
    while (cap < 2 * pattern.size()) cap *= 2;
    keys_.assign(cap, kEmpty);
    slot_of_key_.assign(cap, 0);
    mask_ = cap - 1;
    for (size_t i = 0; i < pattern.size(); ++i) {
      size_t slot = Slot(pattern[i]);
      if (keys_[slot] == kEmpty) {
        keys_[slot] = pattern[i];
        slot_of_key_[slot] = bits_.size() / words_;
        bits_.resize(bits_.size() + words_, 0);
      }
      bits_[slot_of_key_[slot] * words_ + i / 64] |= uint64_t{1} << (i % 64);
    }
    none_.assign(words_, 0);
  }
  size_t words() const { return words_; }
  // The words_ masks of c (all zero when the pattern lacks c).
  const uint64_t* Of(char32_t c) const {
    size_t slot = Slot(c);
    return keys_[slot] == kEmpty ? none_.data() : bits_.data() + slot_of_key_[slot] * words_;
  }

 private:
  static constexpr char32_t kEmpty = 0xFFFFFFFF;  // not a code point
  size_t Slot(char32_t c) const {
    size_t i = (static_cast<size_t>(c) * 0x9E3779B97F4A7C15ull) >> 40 & mask_;
    while (keys_[i] != kEmpty && keys_[i] != c) i = (i + 1) & mask_;
    return i;
  }
  size_t words_;
  size_t mask_ = 0;
  std::vector<char32_t> keys_;
  std::vector<size_t> slot_of_key_;
  std::vector<uint64_t> bits_;
  std::vector<uint64_t> none_;
};

}  // namespace

// Myers' bit-vector algorithm in Hyyro's block form: the table's column for
// each code point of the text a is kept as vertical deltas (+1 in pv, -1 in
// mv, 0 elsewhere) of the pattern b's rows, 64 rows per word, and advanced a
// column at a time with a few word operations per block; the horizontal delta
// leaving the top of a block is carried into the next. `score` follows the
// bottom row, D[|b|][j].
size_t EditDistance(std::span<const char32_t> a, std::span<const char32_t> b, size_t max_distance) {
  if (a.size() < b.size()) std::swap(a, b);  // b, the shorter, is the pattern
  if (a.size() - b.size() > max_distance) return max_distance + 1;
  if (b.empty()) return a.size();
  const PatternMasks masks(b);
  const size_t words = masks.words();
  const int last_bit = static_cast<int>((b.size() - 1) % 64);
  std::vector<uint64_t> pv(words, ~uint64_t{0}), mv(words, 0);
  size_t score = b.size();
  for (size_t j = 0; j < a.size(); ++j) {
    const uint64_t* eq_of = masks.Of(a[j]);
    int carry = 1;  // D[0][j + 1] - D[0][j]
    for (size_t w = 0; w < words; ++w) {
      const uint64_t carry_neg = carry < 0 ? 1 : 0, carry_pos = carry > 0 ? 1 : 0;
      uint64_t eq = eq_of[w];
      const uint64_t xv = eq | mv[w];
      eq |= carry_neg;
      const uint64_t xh = (((eq & pv[w]) + pv[w]) ^ pv[w]) | eq;
      uint64_t ph = mv[w] | ~(xh | pv[w]);
      uint64_t mh = pv[w] & xh;
      const int top = w + 1 == words ? last_bit : 63;
      carry = static_cast<int>(ph >> top & 1) - static_cast<int>(mh >> top & 1);
      ph = ph << 1 | carry_pos;
      mh = mh << 1 | carry_neg;
      pv[w] = mh | ~(xv | ph);
      mv[w] = ph & xv;
    }
    score += carry;  // carry out of the last block: the bottom row's step
    // D[|b|][|a|] >= D[|b|][j + 1] - (|a| - j - 1).
    if (score > max_distance + (a.size() - j - 1)) return max_distance + 1;
  }
  return score;
}

void EditText::Prepare(std::string_view utf8_text, std::vector<char32_t>* out) {
  util::DecodeUtf8(utf8_text, &decoded_);
  normalizer_.Normalize(decoded_.data(), decoded_.size(), /*plain=*/false, &normalized_);
  out->clear();
  bool pending_space = false;
  const char16_t* s = normalized_.data();
  const int32_t n = static_cast<int32_t>(normalized_.size());
  for (int32_t i = 0; i < n;) {
    UChar32 c;
    U16_NEXT(s, i, n, c);
    if (u_isUWhiteSpace(c)) {
      pending_space = !out->empty();
      continue;
    }
    if (pending_space) out->push_back(U' ');
    pending_space = false;
    out->push_back(static_cast<char32_t>(c));
  }
}

}  // namespace simdex::confirm
