#include "bench/harness/find_all.h"

#include <algorithm>
#include <bit>
#include <unordered_set>
#include <utility>
#include <vector>

namespace simdex::bench {

namespace {

struct PairHash {
  size_t operator()(const std::pair<uint64_t, uint64_t>& p) const {
    return std::hash<uint64_t>()(p.first * 0x9E3779B97F4A7C15ULL ^ p.second);
  }
};

// Calls f(chosen) for every (blocks - k)-subset of 0..blocks-1, in
// lexicographic order.
template <class F>
void ForEachChoice(int blocks, int choose, const F& f) {
  std::vector<int> chosen(choose);
  for (int i = 0; i < choose; ++i) chosen[i] = i;
  for (;;) {
    f(chosen);
    int i = choose - 1;
    while (i >= 0 && chosen[i] == blocks - choose + i) --i;
    if (i < 0) return;
    ++chosen[i];
    for (int j = i + 1; j < choose; ++j) chosen[j] = chosen[j - 1] + 1;
  }
}

}  // namespace

uint64_t FindAllPairs(std::span<const uint64_t> hashes, int blocks, int k) {
  // Block b covers bits [begin[b], begin[b + 1]) counted from the top; the
  // first 64 % blocks blocks are one bit wider.
  std::vector<int> begin(blocks + 1, 0);
  for (int b = 0; b < blocks; ++b) begin[b + 1] = begin[b] + 64 / blocks + (b < 64 % blocks ? 1 : 0);
  auto mask = [&](int b) {
    const int width = begin[b + 1] - begin[b];
    return (width == 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1)) << (64 - begin[b + 1]);
  };
  const std::unordered_set<uint64_t> set(hashes.begin(), hashes.end());
  const std::vector<uint64_t> unique(set.begin(), set.end());
  std::unordered_set<std::pair<uint64_t, uint64_t>, PairHash> matches;
  std::vector<std::pair<uint64_t, uint64_t>> table(unique.size());  // (permuted, hash)
  ForEachChoice(blocks, blocks - k, [&](const std::vector<int>& leading) {
    // The permutation: leading blocks first, then the rest, each in order.
    std::vector<int> order(leading);
    for (int b = 0; b < blocks; ++b) {
      if (std::find(leading.begin(), leading.end(), b) == leading.end()) order.push_back(b);
    }
    uint64_t prefix_mask = 0;
    int at = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      const int width = begin[order[i] + 1] - begin[order[i]];
      if (i < leading.size()) prefix_mask |= (width == 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1)) << (64 - at - width);
      at += width;
    }
    for (size_t h = 0; h < unique.size(); ++h) {
      uint64_t permuted = 0;
      int pos = 0;
      for (int b : order) {
        const int width = begin[b + 1] - begin[b];
        const uint64_t bits = (unique[h] & mask(b)) >> (64 - begin[b + 1]);
        permuted |= bits << (64 - pos - width);
        pos += width;
      }
      table[h] = {permuted, unique[h]};
    }
    std::sort(table.begin(), table.end());
    for (size_t i = 0; i < table.size();) {
      size_t j = i + 1;
      while (j < table.size() && ((table[j].first ^ table[i].first) & prefix_mask) == 0) ++j;
      for (size_t a = i; a < j; ++a) {
        for (size_t b = a + 1; b < j; ++b) {
          if (std::popcount(table[a].second ^ table[b].second) <= k) {
            matches.insert(std::minmax(table[a].second, table[b].second));
          }
        }
      }
      i = j;
    }
  });
  return matches.size();
}

}  // namespace simdex::bench
