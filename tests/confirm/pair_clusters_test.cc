#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "simdex/confirm.h"

namespace simdex {
namespace {

// Components by repeated relaxation: every document takes the smallest
// ordinal it is connected to, until nothing changes.
std::vector<uint64_t> OracleComponents(uint64_t n, const std::vector<std::pair<uint64_t, uint64_t>>& pairs) {
  std::vector<uint64_t> label(n);
  for (uint64_t i = 0; i < n; ++i) label[i] = i;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto [a, b] : pairs) {
      const uint64_t m = std::min(label[a], label[b]);
      if (label[a] != m || label[b] != m) label[a] = label[b] = m, changed = true;
    }
  }
  return label;
}

TEST(PairClusters, RepresentativesAreTheBestScoredThenFirstMember) {
  std::mt19937 rng(3);
  for (int round = 0; round < 50; ++round) {
    const uint64_t n = 1 + rng() % 40;
    std::vector<std::pair<uint64_t, uint64_t>> pairs;
    for (int i = 0, m = static_cast<int>(rng() % 40); i < m; ++i) pairs.emplace_back(rng() % n, rng() % n);
    std::vector<double> scores;
    if (round % 2) {
      for (uint64_t i = 0; i < n; ++i) scores.push_back(static_cast<double>(rng() % 4));
    }
    PairClusters clusters(n, scores);
    for (auto [a, b] : pairs) clusters.Add(a, b);
    clusters.Finish();
    const std::vector<uint64_t> label = OracleComponents(n, pairs);
    uint64_t want_clusters = 0, want_clustered = 0;
    for (uint64_t c = 0; c < n; ++c) {
      uint64_t best = n, size = 0;
      for (uint64_t o = 0; o < n; ++o) {
        if (label[o] != c) continue;
        ++size;
        if (best == n || (!scores.empty() && scores[o] > scores[best])) best = o;
      }
      if (size > 1) ++want_clusters, want_clustered += size;
      for (uint64_t o = 0; o < n; ++o) {
        if (label[o] == c) {
          EXPECT_EQ(clusters.Representative(o), best) << "round " << round << " doc " << o;
        }
      }
    }
    EXPECT_EQ(clusters.clusters(), want_clusters);
    EXPECT_EQ(clusters.clustered_documents(), want_clustered);
  }
}

}  // namespace
}  // namespace simdex
