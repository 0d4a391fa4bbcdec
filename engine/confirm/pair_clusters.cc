// PairClusters (include/simdex/confirm.h): union-find over document
// ordinals with path halving and union by smaller root.
#include <utility>
#include <vector>

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
  // Each set's root is its smallest ordinal (Add), so in ascending order a
  // root comes before the rest of its set. The first pass points every
  // document at its root and keeps each set's best document (largest score,
  // then smallest ordinal: only a strictly larger score replaces) in the
  // root's representative_ slot; the second copies it to the members and
  // counts the sets of two or more. No other array of n values: the batch's
  // largest is this class's own two.
  representative_.resize(n);
  for (uint64_t o = 0; o < n; ++o) {
    const uint64_t root = Find(o);
    parent_[o] = root;
    if (root == o) representative_[o] = o;
    else if (!scores_.empty() && scores_[o] > scores_[representative_[root]]) representative_[root] = o;
  }
  std::vector<bool> counted(n, false);  // roots whose set was counted
  for (uint64_t o = 0; o < n; ++o) {
    const uint64_t root = parent_[o];
    if (root == o) continue;
    representative_[o] = representative_[root];
    ++clustered_;
    if (!counted[root]) {
      counted[root] = true;
      ++clusters_;
      ++clustered_;  // the root
    }
  }
}

uint64_t PairClusters::Representative(uint64_t ordinal) const { return representative_[ordinal]; }

}  // namespace simdex
