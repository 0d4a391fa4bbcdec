#include "bench/harness/permuted_tables.h"

#include <algorithm>
#include <bit>

#include "engine/util/radix_sort.h"

namespace simdex::bench {

namespace {

uint64_t LowMask(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }

}  // namespace

Status PermutedTablesSearcher::Build(std::span<const uint64_t> fps) {
  const size_t n = fps.size();
  wide_ids_ = n > UINT32_MAX;
  tables_.assign(static_cast<size_t>(scheme_.num_tables()), Table{});
  // The builder's radix sort, so that build times compare with simdex's
  // (which sorts each table the same way) rather than with std::sort.
  std::vector<util::FingerprintIdPair> pairs(n);
  std::vector<util::FingerprintIdPair> scratch(n);
  for (int t = 0; t < scheme_.num_tables(); ++t) {
    const BlockPermutation& perm = scheme_.table(t);
    for (size_t i = 0; i < n; ++i) pairs[i] = {perm.Apply(fps[i]), i};
    util::RadixSort(pairs.data(), scratch.data(), n, 1);
    Table& table = tables_[static_cast<size_t>(t)];
    table.keys.resize(n);
    for (size_t i = 0; i < n; ++i) table.keys[i] = pairs[i].fingerprint;
    if (wide_ids_) {
      table.ids64.resize(n);
      for (size_t i = 0; i < n; ++i) table.ids64[i] = pairs[i].id;
    } else {
      table.ids32.resize(n);
      for (size_t i = 0; i < n; ++i) table.ids32[i] = static_cast<uint32_t>(pairs[i].id);
    }
  }
  return Status::OK();
}

size_t PermutedTablesSearcher::Bytes() const {
  size_t bytes = 0;
  for (const Table& t : tables_) {
    bytes += t.keys.size() * sizeof(uint64_t) + t.ids32.size() * sizeof(uint32_t) +
             t.ids64.size() * sizeof(uint64_t);
  }
  return bytes;
}

Status PermutedTablesSearcher::Search(uint64_t q, int k, std::vector<Match>* out) const {
  out->clear();
  for (int t : scheme_.TablesForDistance(k)) {
    const BlockPermutation& perm = scheme_.table(t);
    const Table& table = tables_[static_cast<size_t>(t)];
    const uint64_t pq = perm.Apply(q);
    const uint64_t lo = pq & ~LowMask(64 - perm.key_bits());
    const uint64_t hi = lo | LowMask(64 - perm.key_bits());
    const uint64_t* keys = table.keys.data();
    const size_t n = table.keys.size();
    for (size_t i = std::lower_bound(keys, keys + n, lo) - keys; i < n && keys[i] <= hi; ++i) {
      const int d = std::popcount(keys[i] ^ pq);
      if (d > k) continue;
      const uint64_t id = wide_ids_ ? table.ids64[i] : table.ids32[i];
      out->push_back({id, perm.Invert(keys[i]), d});
    }
  }
  // A match found by several tables is the same (id, fingerprint, distance)
  // each time, so after sorting its copies are neighbours.
  SortMatches(out);
  out->erase(std::unique(out->begin(), out->end()), out->end());
  return Status::OK();
}

}  // namespace simdex::bench
