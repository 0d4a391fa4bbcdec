// The de-duplication's pieces for running apart (include/simdex/dedup_parts.h):
// the shuffle's split, the join of a key range's buckets (bucket_join.h)
// and the merge join restricted to one table, speaking fingerprints instead
// of distinct numbers.
#include "simdex/dedup_parts.h"

#include <algorithm>
#include <string>

#include "engine/simhash/dedup/against.h"
#include "engine/simhash/dedup/bucket_join.h"
#include "engine/simhash/dedup/permuter.h"
#include "engine/util/large_memory.h"
#include "engine/util/radix_sort.h"

namespace simdex {

namespace {

// The pieces' fingerprints sorted without repeats.
util::LargeVector<uint64_t> SortedDistinct(std::span<const std::span<const uint64_t>> pieces, int threads) {
  util::LargeVector<uint64_t> v;
  size_t n = 0;
  for (const std::span<const uint64_t>& p : pieces) n += p.size();
  v.reserve(n);
  for (const std::span<const uint64_t>& p : pieces) v.insert(v.end(), p.begin(), p.end());
  if (!std::is_sorted(v.begin(), v.end())) {
    util::LargeVector<uint64_t> scratch(v.size());
    util::RadixSort(v.data(), scratch.data(), v.size(), threads);
  }
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

Status CheckSplit(const Scheme& scheme, std::span<const int> tables, int ranges, size_t fingerprints, size_t empty) {
  if (ranges < 1 || ranges > (1 << 16)) {
    return Status::InvalidArgument("ranges " + std::to_string(ranges) + " is outside 1..65536");
  }
  for (int t : tables) {
    if (t < 0 || t >= scheme.num_tables()) {
      return Status::InvalidArgument("table " + std::to_string(t) + " is not a table of scheme " + scheme.Name());
    }
  }
  if (empty != 0 && empty != fingerprints) {
    return Status::InvalidArgument("empty has " + std::to_string(empty) + " entries for " +
                                   std::to_string(fingerprints) + " fingerprints");
  }
  return Status::OK();
}

// The range of `ranges` even ranges of bits-wide keys that holds key:
// floor(key * ranges / 2^bits). key * ranges < 2^(bits + 16): for wide keys
// the product is split so that it fits 64 bits.
int RangeOfKey(uint64_t key, int bits, uint64_t ranges) {
  if (bits <= 48) return static_cast<int>((key * ranges) >> bits);
  const uint64_t high = (key >> 16) * ranges;
  const uint64_t low = (key & 0xffff) * ranges;
  return static_cast<int>((high + (low >> 16)) >> (bits - 16));
}

// KeyRange() for one table, with the permutation inlined.
class KeyRanger {
 public:
  KeyRanger(const Scheme& scheme, int table, int ranges)
      : permuter_(scheme.table(table)), bits_(scheme.table(table).key_bits()), ranges_(static_cast<uint64_t>(ranges)) {}
  int operator()(uint64_t fingerprint) const { return RangeOfKey(permuter_.Key(fingerprint), bits_, ranges_); }

 private:
  const simhash::Permuter permuter_;
  const int bits_;
  const uint64_t ranges_;
};

// fn(bucket, fingerprint) for each of `tables` of every fingerprint not
// marked empty, bucket (r, i) numbered r * tables.size() + i. REQUIRES:
// CheckSplit accepts the arguments.
template <class Fn>
Status ForEachBucket(const Scheme& scheme, std::span<const int> tables, int ranges,
                     std::span<const uint64_t> fingerprints, std::span<const uint8_t> empty, const Fn& fn) {
  std::vector<KeyRanger> rangers;
  for (int t : tables) rangers.emplace_back(scheme, t, ranges);
  const size_t nt = tables.size();
  for (size_t j = 0; j < fingerprints.size(); ++j) {
    if (!empty.empty() && empty[j] != 0) continue;
    for (size_t i = 0; i < nt; ++i) fn(static_cast<size_t>(rangers[i](fingerprints[j])) * nt + i, fingerprints[j]);
  }
  return Status::OK();
}

simhash::KeyGroupOptions InMemorySort(size_t n, int threads) {
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
  return RangeOfKey(TableKey(scheme, table, fingerprint), scheme.table(table).key_bits(),
                    static_cast<uint64_t>(ranges));
}

Status CountKeyRanges(const Scheme& scheme, std::span<const int> tables, int ranges,
                      std::span<const uint64_t> fingerprints, std::span<const uint8_t> empty,
                      std::vector<uint64_t>* counts) {
  SIMDEX_RETURN_IF_ERROR(CheckSplit(scheme, tables, ranges, fingerprints.size(), empty.size()));
  counts->assign(tables.size() * static_cast<size_t>(ranges), 0);
  uint64_t* const count = counts->data();
  return ForEachBucket(scheme, tables, ranges, fingerprints, empty, [count](size_t b, uint64_t) { ++count[b]; });
}

Status SplitByKeyRanges(const Scheme& scheme, std::span<const int> tables, int ranges,
                        std::span<const uint64_t> fingerprints, std::span<const uint8_t> empty,
                        std::span<const uint64_t> counts, std::span<uint64_t* const> out) {
  SIMDEX_RETURN_IF_ERROR(CheckSplit(scheme, tables, ranges, fingerprints.size(), empty.size()));
  const size_t nt = tables.size();
  if (counts.size() != nt * static_cast<size_t>(ranges) || out.size() != static_cast<size_t>(ranges)) {
    return Status::InvalidArgument("SplitByKeyRanges needs " + std::to_string(nt * static_cast<size_t>(ranges)) +
                                   " counts and " + std::to_string(ranges) + " outputs");
  }
  // Where bucket (r, i) is written next: its start in out[r], then on.
  std::vector<uint64_t*> next(counts.size());
  for (size_t r = 0; r < static_cast<size_t>(ranges); ++r) {
    uint64_t* at = out[r];
    for (size_t i = 0; i < nt; ++i) {
      next[r * nt + i] = at;
      at += counts[r * nt + i];
    }
  }
  return ForEachBucket(scheme, tables, ranges, fingerprints, empty, [&next](size_t b, uint64_t f) { *next[b]++ = f; });
}

Status JoinTable(const Scheme& scheme, int k, int table, std::span<const uint64_t> fingerprints, int threads,
                 std::vector<NearPair>* out) {
  const TableFingerprints part{table, {fingerprints}};
  return JoinTables(scheme, k, std::span(&part, 1), threads, out);
}

Status JoinTables(const Scheme& scheme, int k, std::span<const TableFingerprints> parts, int threads,
                  std::vector<NearPair>* out) {
  if (threads < 1) return Status::InvalidArgument("threads must be at least 1");
  std::vector<std::pair<size_t, const TableFingerprints*>> order;
  for (const TableFingerprints& p : parts) {
    SIMDEX_RETURN_IF_ERROR(CheckTable(scheme, k, p.table));
    size_t n = 0;
    for (const std::span<const uint64_t>& piece : p.pieces) n += piece.size();
    if (n > uint64_t{0xffffffff}) {
      return Status::InvalidArgument("a key range of table " + std::to_string(p.table) +
                                     " holds more than 2^32 - 1 fingerprints");
    }
    order.emplace_back(n, &p);
  }
  // The largest part first: the sort's buffers are made once, at its size.
  std::stable_sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  simhash::BucketJoin join(scheme, k, threads);
  for (const auto& [n, part] : order) SIMDEX_RETURN_IF_ERROR(join.Join(part->table, part->pieces, out));
  return Status::OK();
}

Status NearestInIndexTable(std::span<const uint64_t> fingerprints, const IndexReader& index, int k, int table,
                           int threads, std::vector<NearestEntry>* out) {
  return NearestInIndexTable(std::span(&fingerprints, 1), index, k, table, threads, out);
}

Status NearestInIndexTable(std::span<const std::span<const uint64_t>> pieces, const IndexReader& index, int k,
                           int table, int threads, std::vector<NearestEntry>* out) {
  SIMDEX_RETURN_IF_ERROR(CheckTable(index.scheme(), k, table));
  if (threads < 1) return Status::InvalidArgument("threads must be at least 1");
  const util::LargeVector<uint64_t> distinct = SortedDistinct(pieces, threads);
  if (distinct.size() > uint64_t{0xffffffff}) {
    return Status::InvalidArgument("a key range holds more than 2^32 - 1 distinct fingerprints");
  }
  std::vector<simhash::AgainstHit> hits;
  simhash::AgainstStats stats;
  SIMDEX_RETURN_IF_ERROR(
      simhash::MergeJoinIndex(distinct, index, k, InMemorySort(distinct.size(), threads), &hits, &stats, table));
  for (const simhash::AgainstHit& h : hits) {
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
