#include "engine/confirm/edit_distance.h"

#include <algorithm>

#include <unicode/uchar.h>
#include <unicode/utf16.h>

namespace simdex::confirm {

size_t EditDistance(std::span<const char32_t> a, std::span<const char32_t> b, size_t max_distance) {
  if (a.size() < b.size()) std::swap(a, b);  // b is the shorter: one row of it
  if (a.size() - b.size() > max_distance) return max_distance + 1;
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    size_t smallest = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({up + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
      smallest = std::min(smallest, row[j]);
    }
    // Every later cell of the table is at least the smallest of this row.
    if (smallest > max_distance) return max_distance + 1;
  }
  return row[b.size()];
}

void EditText::Prepare(std::string_view utf8_text, std::vector<char32_t>* out) {
  text::DecodeUtf8(utf8_text, &decoded_);
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
