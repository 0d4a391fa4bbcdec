#include "tests/dedup/dedup_oracle.h"

#include <bit>
#include <numeric>
#include <tuple>

namespace simdex::testing {

namespace {

uint64_t FindRoot(std::vector<uint64_t>& parent, uint64_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

Oracle ExpectedDedup(const std::vector<Doc>& docs, int k, const std::vector<const std::vector<Entry>*>& indexes,
                     int against_k) {
  if (against_k < 0) against_k = k;
  Oracle o;
  const uint64_t n = docs.size();
  std::vector<uint64_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (uint64_t a = 0; a < n; ++a) {
    for (uint64_t b = a + 1; b < n; ++b) {
      if (docs[a].empty || docs[b].empty) continue;
      const int d = std::popcount(docs[a].fingerprint ^ docs[b].fingerprint);
      if (d > k) continue;
      o.pairs.push_back({a, b, d});
      parent[FindRoot(parent, a)] = FindRoot(parent, b);
    }
  }
  std::vector<uint64_t> best(n, n), size(n, 0);
  for (uint64_t i = 0; i < n; ++i) {
    if (docs[i].empty) continue;
    const uint64_t r = FindRoot(parent, i);
    ++size[r];
    if (best[r] == n || docs[i].score > docs[best[r]].score) best[r] = i;
  }
  for (uint64_t i = 0; i < n; ++i) o.clusters += size[i] >= 2;
  for (uint64_t i = 0; i < n; ++i) {
    DedupResult r;
    if (docs[i].empty) {
      r.empty = true;
      r.representative = i;
      o.results.push_back(r);
      continue;
    }
    r.representative = best[FindRoot(parent, i)];
    r.distance = std::popcount(docs[i].fingerprint ^ docs[r.representative].fingerprint);
    r.duplicate = r.representative != i;
    for (size_t x = 0; x < indexes.size(); ++x) {
      for (const Entry& e : *indexes[x]) {
        const int d = std::popcount(docs[i].fingerprint ^ e.fingerprint);
        if (d > against_k) continue;
        const auto key = std::make_tuple(d, static_cast<int>(x), e.id);
        if (r.against_index < 0 || key < std::make_tuple(r.against_distance, r.against_index, r.against_id)) {
          r.against_index = static_cast<int>(x);
          r.against_id = e.id;
          r.against_distance = d;
        }
      }
    }
    r.duplicate |= r.against_index >= 0;
    o.results.push_back(r);
  }
  return o;
}

}  // namespace simdex::testing
