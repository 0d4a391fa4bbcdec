// The de-duplication's pieces for running apart (include/simdex/dedup_parts.h):
// thin wrappers over the self-join and the merge join restricted to one
// table, speaking fingerprints instead of distinct numbers.
#include "simdex/dedup_parts.h"

#include <algorithm>
#include <string>

#include "engine/dedup/against.h"
#include "engine/dedup/self_join.h"
#include "engine/index/radix_sort.h"

namespace simdex {

namespace {

// fingerprints sorted without repeats into *v, radix-sorted through
// *scratch (a shuffle's buckets are concatenations of sorted runs). The
// vectors keep their capacity from one call to the next.
void SortedDistinct(std::span<const uint64_t> fingerprints, int threads, std::vector<uint64_t>* v,
                    std::vector<uint64_t>* scratch) {
  v->assign(fingerprints.begin(), fingerprints.end());
  if (!std::is_sorted(v->begin(), v->end())) {
    if (scratch->size() < v->size()) scratch->resize(v->size());
    index::RadixSort(v->data(), scratch->data(), v->size(), threads);
  }
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

std::vector<uint64_t> SortedDistinct(std::span<const uint64_t> fingerprints, int threads) {
  std::vector<uint64_t> v, scratch;
  SortedDistinct(fingerprints, threads, &v, &scratch);
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
  return {.memory_bytes = std::max<size_t>(n * 16 + (size_t{1} << 20), size_t{1} << 20), .tmpdir = {}, .threads = threads};
}

}  // namespace

uint64_t TableKey(const Scheme& scheme, int table, uint64_t fingerprint) {
  const BlockPermutation& perm = scheme.table(table);
  const uint64_t permuted = perm.Apply(fingerprint);
  return perm.key_bits() >= 64 ? permuted : permuted >> (64 - perm.key_bits());
}

int KeyRange(const Scheme& scheme, int table, uint64_t fingerprint, int ranges) {
  const int bits = scheme.table(table).key_bits();
  const uint64_t key = TableKey(scheme, table, fingerprint);
  // key * ranges < 2^(bits + 16): split the product so that it fits 64 bits.
  if (bits <= 48) return static_cast<int>((key * static_cast<uint64_t>(ranges)) >> bits);
  const uint64_t high = (key >> 16) * static_cast<uint64_t>(ranges);
  const uint64_t low = (key & 0xffff) * static_cast<uint64_t>(ranges);
  return static_cast<int>((high + (low >> 16)) >> (bits - 16));
}

Status SplitByKeyRanges(const Scheme& scheme, std::span<const int> tables, int ranges,
                        std::span<const uint64_t> fingerprints, int threads,
                        std::vector<std::vector<uint64_t>>* out) {
  if (ranges < 1 || ranges > (1 << 16)) {
    return Status::InvalidArgument("ranges " + std::to_string(ranges) + " is outside 1..65536");
  }
  for (int t : tables) {
    if (t < 0 || t >= scheme.num_tables()) {
      return Status::InvalidArgument("table " + std::to_string(t) + " is not a table of scheme " + scheme.Name());
    }
  }
  if (threads < 1) return Status::InvalidArgument("threads must be at least 1");
  const std::vector<uint64_t> distinct = SortedDistinct(fingerprints, threads);
  out->assign(tables.size() * static_cast<size_t>(ranges), {});
  std::vector<int> range(distinct.size());
  std::vector<size_t> count(static_cast<size_t>(ranges));
  for (size_t i = 0; i < tables.size(); ++i) {
    std::fill(count.begin(), count.end(), 0);
    for (size_t j = 0; j < distinct.size(); ++j) ++count[range[j] = KeyRange(scheme, tables[i], distinct[j], ranges)];
    std::vector<uint64_t>* bucket = &(*out)[i * static_cast<size_t>(ranges)];
    for (int r = 0; r < ranges; ++r) bucket[r].reserve(count[r]);
    for (size_t j = 0; j < distinct.size(); ++j) bucket[range[j]].push_back(distinct[j]);
  }
  return Status::OK();
}

Status JoinTable(const Scheme& scheme, int k, int table, std::span<const uint64_t> fingerprints, int threads,
                 std::vector<NearPair>* out) {
  const TableFingerprints part{table, fingerprints};
  return JoinTables(scheme, k, std::span(&part, 1), threads, out);
}

Status JoinTables(const Scheme& scheme, int k, std::span<const TableFingerprints> parts, int threads,
                  std::vector<NearPair>* out) {
  if (threads < 1) return Status::InvalidArgument("threads must be at least 1");
  size_t most = 0;
  for (const TableFingerprints& p : parts) {
    SIMDEX_RETURN_IF_ERROR(CheckTable(scheme, k, p.table));
    most = std::max(most, p.fingerprints.size());
  }
  if (most > uint64_t{0xffffffff}) {
    return Status::InvalidArgument("a key range holds more than 2^32 - 1 distinct fingerprints");
  }
  dedup::SelfJoinOptions options;
  options.scheme = scheme;
  options.k = k;
  options.sort = InMemorySort(most, threads);
  std::vector<uint64_t> distinct, scratch;
  distinct.reserve(most);  // one buffer for every part: its pages are touched once
  dedup::KeyGroups groups(distinct, dedup::SelfJoinSort(options));
  // The largest part first: the sort's buffers are made once, at its size.
  std::vector<const TableFingerprints*> order;
  for (const TableFingerprints& p : parts) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(), [](const TableFingerprints* x, const TableFingerprints* y) {
    return x->fingerprints.size() > y->fingerprints.size();
  });
  for (const TableFingerprints* part : order) {
    const TableFingerprints& p = *part;
    SortedDistinct(p.fingerprints, threads, &distinct, &scratch);
    groups.Reset(distinct);
    dedup::SelfJoinStats stats;
    SIMDEX_RETURN_IF_ERROR(dedup::SelfJoinTable(&groups, distinct, options, p.table,
                                                [&](std::span<const dedup::DistinctPair> pairs) {
      for (const dedup::DistinctPair& x : pairs) {
        out->push_back({distinct[x.a], distinct[x.b], static_cast<int>(x.distance)});
      }
    }, &stats));
  }
  return Status::OK();
}

Status NearestInIndexTable(std::span<const uint64_t> fingerprints, const IndexReader& index, int k, int table,
                           int threads, std::vector<NearestEntry>* out) {
  SIMDEX_RETURN_IF_ERROR(CheckTable(index.scheme(), k, table));
  if (threads < 1) return Status::InvalidArgument("threads must be at least 1");
  const std::vector<uint64_t> distinct = SortedDistinct(fingerprints, threads);
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
