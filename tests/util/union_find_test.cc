// The engine's union-find and representative rule (engine/util/union_find.h),
// shared by Deduplicator's clusters and PairClusters.
#include "engine/util/union_find.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace simdex::util {
namespace {

// Each element's smallest connected element: a depth-first search from
// every element not reached yet, in ascending order, so that each search
// starts from its component's smallest element.
std::vector<uint32_t> OracleRoots(uint32_t n, const std::vector<std::pair<uint32_t, uint32_t>>& pairs) {
  std::vector<std::vector<uint32_t>> next(n);
  for (auto [a, b] : pairs) next[a].push_back(b), next[b].push_back(a);
  std::vector<uint32_t> root(n, n);
  for (uint32_t start = 0; start < n; ++start) {
    if (root[start] != n) continue;
    root[start] = start;
    std::vector<uint32_t> stack = {start};
    while (!stack.empty()) {
      const uint32_t x = stack.back();
      stack.pop_back();
      for (uint32_t y : next[x]) {
        if (root[y] == n) root[y] = start, stack.push_back(y);
      }
    }
  }
  return root;
}

TEST(UnionFind, RootIsTheSmallestMemberInAnyPairOrder) {
  std::mt19937 rng(7);
  for (int round = 0; round < 100; ++round) {
    const uint32_t n = 1 + rng() % 60;
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (int i = 0, m = static_cast<int>(rng() % 60); i < m; ++i) pairs.emplace_back(rng() % n, rng() % n);
    const std::vector<uint32_t> want = OracleRoots(n, pairs);
    for (int order = 0; order < 2; ++order) {
      if (order == 1) std::shuffle(pairs.begin(), pairs.end(), rng);
      UnionFind<uint32_t> sets(n);
      for (auto [a, b] : pairs) sets.Union(a, b);
      for (uint32_t x = 0; x < n; ++x) EXPECT_EQ(sets.Find(x), want[x]) << "round " << round << " element " << x;
    }
  }
}

TEST(UnionFind, ParentArrayFormsTheSameForestAsTheClass) {
  std::vector<uint64_t> parent = {0, 1, 2, 3, 4, 5};
  UnionFind<uint64_t> sets(6);
  for (auto [a, b] : std::vector<std::pair<uint64_t, uint64_t>>{{5, 3}, {3, 4}, {2, 1}}) {
    UnionRoots(parent.data(), a, b);
    sets.Union(a, b);
  }
  for (uint64_t x = 0; x < 6; ++x) EXPECT_EQ(FindRoot(parent.data(), x), sets.Find(x));
  EXPECT_EQ(sets.Find(5), 3u);
  EXPECT_EQ(sets.Find(2), 1u);
}

TEST(RepresentsBefore, LargerScoreThenSmallerOrdinal) {
  const std::vector<double> scores = {1.0, 2.0, 2.0, std::nan("")};
  EXPECT_TRUE(RepresentsBefore(scores, 1, 0));   // larger score
  EXPECT_FALSE(RepresentsBefore(scores, 0, 1));
  EXPECT_TRUE(RepresentsBefore(scores, 1, 2));   // equal scores: smaller ordinal
  EXPECT_FALSE(RepresentsBefore(scores, 2, 1));
  EXPECT_FALSE(RepresentsBefore(scores, 3, 0));  // NaN: by ordinal
  EXPECT_TRUE(RepresentsBefore(scores, 0, 3));
  EXPECT_TRUE(RepresentsBefore({}, 0, 1));       // no scores: the first member
  EXPECT_FALSE(RepresentsBefore({}, 1, 0));
}

}  // namespace
}  // namespace simdex::util
