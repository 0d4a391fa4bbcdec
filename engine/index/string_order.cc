#include "engine/index/string_order.h"

#include <algorithm>

namespace simdex::index {

namespace {

struct Keyed {
  uint64_t key;
  uint64_t index;
};

// Bytes [depth, depth + 8) of s, big-endian, zero past its end.
uint64_t PieceAt(std::string_view s, size_t depth) {
  uint64_t key = 0;
  for (size_t i = 0; i < 8; ++i) {
    key <<= 8;
    if (depth + i < s.size()) key |= static_cast<unsigned char>(s[depth + i]);
  }
  return key;
}

// Orders records [first, last), which agree on their strings' first `depth`
// bytes.
void OrderGroup(std::vector<Keyed>& records, size_t first, size_t last, size_t depth,
                const std::function<std::string_view(uint64_t)>& at) {
  if (last - first < 2) return;
  size_t longest = 0;
  for (size_t i = first; i < last; ++i) longest = std::max(longest, at(records[i].index).size());
  if (longest <= depth + 8) {
    // Every string ends within this piece: a zero byte and the end are
    // alike in the pieces, so compare the strings themselves.
    std::stable_sort(records.begin() + first, records.begin() + last, [&](const Keyed& a, const Keyed& b) {
      return at(a.index) < at(b.index);
    });
    return;
  }
  for (size_t i = first; i < last; ++i) records[i].key = PieceAt(at(records[i].index), depth);
  std::sort(records.begin() + first, records.begin() + last,
            [](const Keyed& a, const Keyed& b) { return a.key != b.key ? a.key < b.key : a.index < b.index; });
  for (size_t i = first; i < last;) {
    size_t j = i + 1;
    while (j < last && records[j].key == records[i].key) ++j;
    OrderGroup(records, i, j, depth + 8, at);
    i = j;
  }
}

}  // namespace

std::vector<uint64_t> OrderOfStrings(uint64_t n, const std::function<std::string_view(uint64_t)>& at) {
  std::vector<Keyed> records(n);
  for (uint64_t i = 0; i < n; ++i) records[i].index = i;
  // The common prefix of all strings is skipped at once.
  size_t depth = 0;
  if (n > 0) {
    const std::string_view first = at(0);
    depth = first.size();
    for (uint64_t i = 1; i < n && depth > 0; ++i) {
      const std::string_view s = at(i);
      size_t d = 0;
      const size_t limit = std::min(depth, s.size());
      while (d < limit && s[d] == first[d]) ++d;
      depth = d;
    }
  }
  OrderGroup(records, 0, records.size(), depth, at);
  std::vector<uint64_t> order(n);
  for (uint64_t i = 0; i < n; ++i) order[i] = records[i].index;
  return order;
}

}  // namespace simdex::index
