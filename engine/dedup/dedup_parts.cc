// The de-duplication's pieces for running apart (include/simdex/dedup_parts.h):
// thin wrappers over the self-join and the merge join restricted to one
// table, speaking fingerprints instead of distinct numbers.
#include "simdex/dedup_parts.h"

#include <algorithm>
#include <string>

#include "engine/dedup/against.h"
#include "engine/dedup/self_join.h"

namespace simdex {

namespace {

std::vector<uint64_t> SortedDistinct(std::span<const uint64_t> fingerprints) {
  std::vector<uint64_t> v(fingerprints.begin(), fingerprints.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

Status CheckTable(const Scheme& scheme, int k, int table) {
  if (k < 0 || k > scheme.k()) {
    return Status::InvalidArgument("k " + std::to_string(k) + " is outside 0.." + std::to_string(scheme.k()) +
                                   " for scheme " + scheme.Name());
  }
  const std::vector<int>& tables = scheme.TablesForDistance(k);
  if (std::find(tables.begin(), tables.end(), table) == tables.end()) {
    return Status::InvalidArgument("table " + std::to_string(table) + " is not one of the tables scheme " +
                                   scheme.Name() + " uses for k " + std::to_string(k));
  }
  return Status::OK();
}

dedup::KeyGroupOptions InMemorySort(size_t n, int threads) {
  // The records and their scratch: 16 bytes per fingerprint, in memory.
  return {.memory_bytes = std::max<size_t>(n * 16 + (size_t{1} << 20), size_t{1} << 20), .threads = threads};
}

}  // namespace

uint64_t TableKey(const Scheme& scheme, int table, uint64_t fingerprint) {
  const BlockPermutation& perm = scheme.table(table);
  const uint64_t permuted = perm.Apply(fingerprint);
  return perm.key_bits() >= 64 ? permuted : permuted >> (64 - perm.key_bits());
}

Status JoinTable(const Scheme& scheme, int k, int table, std::span<const uint64_t> fingerprints, int threads,
                 std::vector<NearPair>* out) {
  SIMDEX_RETURN_IF_ERROR(CheckTable(scheme, k, table));
  if (threads < 1) return Status::InvalidArgument("threads must be at least 1");
  const std::vector<uint64_t> distinct = SortedDistinct(fingerprints);
  if (distinct.size() > uint64_t{0xffffffff}) {
    return Status::InvalidArgument("a key range holds more than 2^32 - 1 distinct fingerprints");
  }
  dedup::SelfJoinOptions options;
  options.scheme = scheme;
  options.k = k;
  options.sort = InMemorySort(distinct.size(), threads);
  dedup::SelfJoinStats stats;
  return dedup::SelfJoinTable(distinct, options, table, [&](std::span<const dedup::DistinctPair> pairs) {
    for (const dedup::DistinctPair& p : pairs) {
      out->push_back({distinct[p.a], distinct[p.b], static_cast<int>(p.distance)});
    }
  }, &stats);
}

Status NearestInIndexTable(std::span<const uint64_t> fingerprints, const IndexReader& index, int k, int table,
                           int threads, std::vector<NearestEntry>* out) {
  SIMDEX_RETURN_IF_ERROR(CheckTable(index.scheme(), k, table));
  if (threads < 1) return Status::InvalidArgument("threads must be at least 1");
  const std::vector<uint64_t> distinct = SortedDistinct(fingerprints);
  if (distinct.size() > uint64_t{0xffffffff}) {
    return Status::InvalidArgument("a key range holds more than 2^32 - 1 distinct fingerprints");
  }
  std::vector<dedup::AgainstHit> hits;
  dedup::AgainstStats stats;
  SIMDEX_RETURN_IF_ERROR(
      dedup::MergeJoinIndex(distinct, index, k, InMemorySort(distinct.size(), threads), &hits, &stats, table));
  for (const dedup::AgainstHit& h : hits) {
    out->push_back({distinct[h.distinct], h.id, static_cast<int>(h.distance)});
  }
  return Status::OK();
}

void ReduceNearest(std::vector<NearestEntry>* entries) {
  std::sort(entries->begin(), entries->end(), [](const NearestEntry& x, const NearestEntry& y) {
    if (x.fingerprint != y.fingerprint) return x.fingerprint < y.fingerprint;
    if (x.distance != y.distance) return x.distance < y.distance;
    return x.id < y.id;
  });
  entries->erase(std::unique(entries->begin(), entries->end(),
                             [](const NearestEntry& x, const NearestEntry& y) { return x.fingerprint == y.fingerprint; }),
                 entries->end());
}

}  // namespace simdex
