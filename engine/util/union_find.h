// Union-find over the batch's distinct fingerprints, for the clusters.
//
// The root of a set is its smallest element (Union links the larger root
// under the smaller), so the partition and every root are the same whatever
// order the pairs arrive in. Find halves paths as it walks them.
#ifndef SIMDEX_ENGINE_UTIL_UNION_FIND_H_
#define SIMDEX_ENGINE_UTIL_UNION_FIND_H_

#include <cstdint>
#include <memory>
#include <new>
#include <utility>

#include "engine/util/large_memory.h"

namespace simdex::dedup {

class UnionFind {
 public:
  explicit UnionFind(uint32_t n) : parent_(io::MakeLargeArray<uint32_t>(n)) {
    if (parent_ == nullptr) throw std::bad_alloc();
    for (uint32_t i = 0; i < n; ++i) parent_[i] = i;
  }

  uint32_t Find(uint32_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }

  void Union(uint32_t a, uint32_t b) {
    a = Find(a);
    b = Find(b);
    if (a == b) return;
    if (a > b) std::swap(a, b);
    parent_[b] = a;
  }

 private:
  io::LargeArray<uint32_t> parent_;
};

}  // namespace simdex::dedup

#endif  // SIMDEX_ENGINE_UTIL_UNION_FIND_H_
