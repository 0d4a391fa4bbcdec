// PairClusters (include/simdex/confirm.h): union-find over document
// ordinals with path halving and union by smaller root.
#include <utility>

#include "simdex/confirm.h"

namespace simdex {

PairClusters::PairClusters(uint64_t documents, std::vector<double> scores)
    : parent_(documents), scores_(std::move(scores)) {
  for (uint64_t i = 0; i < documents; ++i) parent_[i] = i;
}
PairClusters::~PairClusters() = default;

uint64_t PairClusters::Find(uint64_t x) {
  while (parent_[x] != x) {
    parent_[x] = parent_[parent_[x]];
    x = parent_[x];
  }
  return x;
}

void PairClusters::Add(uint64_t a, uint64_t b) {
  a = Find(a);
  b = Find(b);
  if (a == b) return;
  if (b < a) std::swap(a, b);
  parent_[b] = a;  // the root is the set's smallest ordinal
}

void PairClusters::Finish() {
  const uint64_t n = parent_.size();
  // Per root: its best document (largest score, then smallest ordinal:
  // ordinals ascend, so only a strictly larger score replaces) and size.
  std::vector<uint64_t> best(n), size(n, 0);
  for (uint64_t o = 0; o < n; ++o) {
    const uint64_t root = Find(o);
    if (size[root]++ == 0 || (!scores_.empty() && scores_[o] > scores_[best[root]])) best[root] = o;
  }
  representative_.resize(n);
  for (uint64_t o = 0; o < n; ++o) {
    const uint64_t root = Find(o);
    representative_[o] = best[root];
    if (root == o && size[o] > 1) {
      ++clusters_;
      clustered_ += size[o];
    }
  }
}

uint64_t PairClusters::Representative(uint64_t ordinal) const { return representative_[ordinal]; }

}  // namespace simdex
