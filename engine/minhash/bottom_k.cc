// Bottom-k sketches and their estimate of J (include/simdex/minhash.h).
#include <algorithm>

#include "simdex/minhash.h"

namespace simdex {

void MakeBottomKSketch(std::span<const uint64_t> shingles, int k, BottomKSketch* out) {
  std::vector<uint32_t>& h = out->hashes;
  h.clear();
  h.reserve(shingles.size());
  for (uint64_t x : shingles) h.push_back(static_cast<uint32_t>(x));
  std::sort(h.begin(), h.end());
  h.erase(std::unique(h.begin(), h.end()), h.end());
  const size_t keep = static_cast<size_t>(k);
  out->whole = h.size() <= keep;
  if (!out->whole) h.resize(keep);
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
