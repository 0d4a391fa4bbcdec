// Bottom-k sketches and their estimate of J (include/simdex/minhash.h).
#include <algorithm>

#include "simdex/minhash.h"

namespace simdex {

void MakeBottomKSketch(std::span<const uint64_t> shingles, int k, BottomKSketch* out) {
  std::vector<uint32_t>& h = out->hashes;
  h.clear();
  h.reserve(shingles.size());
  for (uint64_t x : shingles) h.push_back(static_cast<uint32_t>(x));
  const size_t keep = static_cast<size_t>(k);
  // The m smallest values moved to the front (m from 2k, doubled in the
  // rare case that 32-bit collisions leave fewer than k distinct among
  // them), sorted and made distinct: O(n) for a long text, not a sort.
  size_t m = std::min(h.size(), 2 * keep);
  thread_local std::vector<uint32_t> front;
  for (;;) {
    if (m < h.size()) std::nth_element(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(m), h.end());
    front.assign(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(m));
    std::sort(front.begin(), front.end());
    front.erase(std::unique(front.begin(), front.end()), front.end());
    if (front.size() >= keep || m == h.size()) break;
    m = std::min(h.size(), 2 * m);
  }
  // Whole: every value is among the first k distinct ones.
  out->whole = front.size() <= keep &&
               (m == h.size() || std::all_of(h.begin() + static_cast<std::ptrdiff_t>(m), h.end(),
                                             [&](uint32_t v) { return v <= front.back(); }));
  if (front.size() > keep) front.resize(keep);
  h.swap(front);
}

double EstimateJaccardSketches(std::span<const uint32_t> x, bool x_whole, std::span<const uint32_t> y, bool y_whole,
                               int k) {
  if (x.empty() || y.empty()) return 0;
  // Both whole: the whole union; else its k smallest, each of which both
  // sketches decide (a cut sketch holds every hash of its text up to its
  // last, and that is at least the union's k-th smallest).
  const size_t limit = x_whole && y_whole ? x.size() + y.size() : static_cast<size_t>(k);
  size_t i = 0, j = 0, taken = 0, both = 0;
  while (taken < limit && (i < x.size() || j < y.size())) {
    if (j == y.size() || (i < x.size() && x[i] < y[j])) {
      ++i;
    } else if (i == x.size() || y[j] < x[i]) {
      ++j;
    } else {
      ++i, ++j, ++both;
    }
    ++taken;
  }
  return static_cast<double>(both) / static_cast<double>(taken);
}

}  // namespace simdex
