// PairClusters (include/simdex/confirm.h): the engine's union-find and
// representative rule (engine/util/union_find.h) over document ordinals.
#include <vector>

#include "engine/util/union_find.h"
#include "simdex/confirm.h"

namespace simdex {

PairClusters::PairClusters(uint64_t documents, std::vector<double> scores)
    : parent_(documents), scores_(std::move(scores)) {
  for (uint64_t i = 0; i < documents; ++i) parent_[i] = i;
}
PairClusters::~PairClusters() = default;

uint64_t PairClusters::Find(uint64_t x) { return util::FindRoot(parent_.data(), x); }

void PairClusters::Add(uint64_t a, uint64_t b) { util::UnionRoots(parent_.data(), a, b); }

void PairClusters::Finish() {
  const uint64_t n = parent_.size();
  // Each set's root is its smallest ordinal (Add), so in ascending order a
  // root comes before the rest of its set. The first pass points every
  // document at its root and keeps each set's best document so far
  // (util::RepresentsBefore) in the root's representative_ slot; the second
  // copies it to the members and counts the sets of two or more. No other
  // array of n values: the batch's largest is this class's own two.
  representative_.resize(n);
  for (uint64_t o = 0; o < n; ++o) {
    const uint64_t root = Find(o);
    parent_[o] = root;
    if (root == o) representative_[o] = o;
    else if (util::RepresentsBefore(scores_, o, representative_[root])) representative_[root] = o;
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
