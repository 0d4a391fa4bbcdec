// The one union-find of the engine and the one rule that picks each set's
// representative: Deduplicator's clusters of fingerprints
// (engine/simhash/dedup/clusters.cc) and PairClusters' clusters of documents
// (engine/confirm/pair_clusters.cc) both use them, so that both give the
// same clusters and representatives for the same pairs.
//
// The root of a set is its smallest element (a union links the larger root
// under the smaller), so the partition and every root are the same whatever
// order the pairs arrive in. Finding a root halves the path it walks.
#ifndef SIMDEX_ENGINE_UTIL_UNION_FIND_H_
#define SIMDEX_ENGINE_UTIL_UNION_FIND_H_

#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <utility>

#include "engine/util/large_memory.h"

namespace simdex::util {

// The root of x's set in the forest `parent` (parent[r] == r at a root).
template <class T>
T FindRoot(T* parent, T x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// Joins the sets of a and b: the larger root goes under the smaller.
template <class T>
void UnionRoots(T* parent, T a, T b) {
  a = FindRoot(parent, a);
  b = FindRoot(parent, b);
  if (a == b) return;
  if (b < a) std::swap(a, b);
  parent[b] = a;
}

// The representative rule: true when member a should represent its set
// rather than member b. The larger score wins (scores per ordinal; empty
// for all 0); among equal (or unordered, NaN) scores, the smaller ordinal.
inline bool RepresentsBefore(std::span<const double> scores, uint64_t a, uint64_t b) {
  if (!scores.empty()) {
    if (scores[a] > scores[b]) return true;
    if (scores[b] > scores[a]) return false;
  }
  return a < b;
}

// A forest of n singletons 0..n-1 in large memory (util::MakeLargeArray).
template <class T>
class UnionFind {
 public:
  explicit UnionFind(T n) : parent_(util::MakeLargeArray<T>(n)) {
    if (parent_ == nullptr) throw std::bad_alloc();
    for (T i = 0; i < n; ++i) parent_[i] = i;
  }

  T Find(T x) { return FindRoot(parent_.get(), x); }
  void Union(T a, T b) { UnionRoots(parent_.get(), a, b); }

 private:
  util::LargeArray<T> parent_;
};

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_UNION_FIND_H_
