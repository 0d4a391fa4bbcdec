// FindBandPairs (include/simdex/minhash_join.h): the self-join over band
// keys in memory, and the join both it and BandJoiner run when the keys fit
// (engine/minhash/dedup/band_join_core.h). Records are the key's leading
// 64 - item_bits bits, then the item, so a stable sort on the leading bits
// groups equal keys with their items in increasing order; equal leading
// bits with different keys are told apart by the whole key.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <memory>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "engine/minhash/dedup/band_join_core.h"
#include "engine/util/key_sort.h"
#include "format/prefetch.h"
#include "simdex/minhash_join.h"

namespace simdex {
namespace minhash {
namespace {

// The filter's slots per banded item, as a power of two: 2^3 to 2^4 slots
// per item leave 6-12% of the items that have no partner in their slot.
constexpr int kFilterExtraBits = 3;
// Pairs are flushed in batches of this many.
constexpr size_t kPairBatch = 4096;
// The compare of a group's whole keys asks for the keys of the group this
// many ahead (at most its first kPrefetchMembers items).
constexpr size_t kPrefetchGroups = 8;
constexpr size_t kPrefetchMembers = 4;

// Where the records of each part go. The keys are hashes: each of the 2^cut
// parts gets about n / 2^cut records, so each has room for that many and
// eight standard deviations more (3% of 10^7 / 128), filled in one pass
// without counting first. A band whose records overflow a part (keys far
// from uniform: many items sharing keys) is cut by a counting pass into
// records placed end to end instead. Cuts of more than kMaxFixedCut bits
// (2^29 items and more, or tests that force small parts) always count.
constexpr int kMaxFixedCut = 12;

struct PartLayout {
  size_t parts = 0;     // 0: no fixed parts
  size_t capacity = 0;  // records per part
  size_t slots() const { return parts * capacity; }
};

// The bits that cut the records into parts whose filter stays in the cache
// (0: the filter is applied at once, or there is none).
int PartCut(const JoinShape& shape) {
  return shape.filter_in_memory ? std::max(0, shape.filter_bits - shape.part_bits) : 0;
}

PartLayout LayoutOf(size_t n, int cut) {
  if (cut == 0 || cut > kMaxFixedCut) return {};
  const size_t parts = size_t{1} << cut;
  const double mean = static_cast<double>(n) / static_cast<double>(parts);
  return {parts, static_cast<size_t>(mean + 8 * std::sqrt(mean)) + 16};
}

// records[parts[p].first, parts[p].second) = the records make(i) whose
// leading cut bits are p, in increasing i; parts lists the non-empty ones.
template <class Make>
void CutIntoParts(const Make& make, size_t n, int cut, const PartLayout& layout, int threads, uint64_t* records,
                  uint64_t* scratch, std::vector<std::pair<size_t, size_t>>* parts) {
  parts->clear();
  const int shift = 64 - cut;
  if (layout.parts > 0) {
    std::vector<size_t> fill(layout.parts);
    for (size_t p = 0; p < layout.parts; ++p) fill[p] = p * layout.capacity;
    size_t i = 0;
    for (; i < n; ++i) {
      const uint64_t r = make(i);
      size_t& at = fill[r >> shift];
      if (at == ((r >> shift) + 1) * layout.capacity) break;  // the part is full
      records[at++] = r;
    }
    if (i == n) {
      for (size_t p = 0; p < layout.parts; ++p) {
        if (fill[p] > p * layout.capacity) parts->push_back({p * layout.capacity, fill[p]});
      }
      return;
    }
  }
  util::MakeAndSortByLeadingBits(make, records, scratch, n, cut, threads);
  for (size_t b = 0; b < n;) {
    size_t e = b + 1;
    while (e < n && records[e] >> shift == records[b] >> shift) ++e;
    parts->push_back({b, e});
    b = e;
  }
}

}  // namespace

JoinShape ShapeOf(size_t n, size_t m, size_t max_filter_bytes) {
  JoinShape s;
  s.item_bits = std::max(1, static_cast<int>(std::bit_width(n - 1)));
  // Sorted on fewer bits than the key has: equal leading bits of different
  // keys (about m^2 / 2^(key_bits + 1) pairs per band) are told apart by
  // the whole key.
  s.key_bits = std::min(64 - s.item_bits, static_cast<int>(std::bit_width(m)) + 16);
  s.item_mask = (uint64_t{1} << s.item_bits) - 1;
  s.group_mask = ~uint64_t{0} << (64 - s.key_bits);
  // 2 bits per slot: 2^b slots take 2^(b - 2) bytes.
  const int fit = std::max(3, static_cast<int>(std::bit_width(std::max<size_t>(max_filter_bytes, 2))) - 1 + 2);
  s.filter_bits = std::max(1, std::min({s.key_bits, static_cast<int>(std::bit_width(m)) + kFilterExtraBits, fit}));
  return s;
}

size_t RecordBytes(const JoinShape& shape, size_t m) {
  return 8 * (std::max(m, LayoutOf(m, PartCut(shape)).slots()) + m);
}

Status JoinInMemory(const uint64_t* const* columns, int bands, std::span<const uint32_t> items,
                    const JoinShape& shape, int threads, const PairFlush& flush, BandJoinStats* stats) {
  const bool use_filter = shape.filter_in_memory;
  const int part_cut = PartCut(shape);
  RepeatFilter filter(use_filter ? shape.filter_bits : 1, use_filter ? shape.filter_bits - part_cut : 1);
  // Records and work space for every band, allocated once and never
  // zeroed: each band writes what it reads.
  const size_t n = items.size();
  const PartLayout layout = LayoutOf(n, PartCut(shape));
  const auto records_space = std::make_unique_for_overwrite<uint64_t[]>(std::max(n, layout.slots()));
  const auto scratch_space = std::make_unique_for_overwrite<uint64_t[]>(n);
  uint64_t* const records = records_space.get();
  uint64_t* const scratch = scratch_space.get();
  std::vector<uint64_t> pairs;
  std::vector<std::pair<size_t, size_t>> groups;  // [begin, end) of each run of two or more in records
  std::vector<std::pair<size_t, size_t>> parts;   // [begin, end) of each part in records
  pairs.reserve(kPairBatch);
  for (int band = 0; band < bands; ++band) {
    const uint64_t* column = columns[band];
    auto make = [&](size_t i) { return (column[items[i]] & ~shape.item_mask) | items[i]; };
    size_t m = n;  // the records that go on: all, or those the filter keeps
    if (use_filter && part_cut == 0) {
      filter.Clear();
      for (const uint32_t i : items) filter.Insert(column[i]);
      m = 0;
      for (const uint32_t i : items) {
        const uint64_t key = column[i];
        records[m] = (key & ~shape.item_mask) | i;
        m += filter.Repeated(key);
      }
      util::SortByLeadingBits(records, scratch, m, shape.key_bits, threads);
    } else if (use_filter) {
      // Cut by the leading part_cut bits (stable: items stay in order),
      // then part by part, while its records are in the cache: the filter,
      // the repeated kept in place (never past the part: the parts before
      // it held at least as many records), and their sort on the rest of
      // the key bits.
      CutIntoParts(make, n, part_cut, layout, threads, records, scratch, &parts);
      m = 0;
      for (const auto& [b, e] : parts) {
        filter.Clear();
        for (size_t x = b; x < e; ++x) filter.Insert(records[x]);
        // Without a branch: about one record in seven is kept, at random.
        const size_t first = m;
        for (size_t x = b; x < e; ++x) {
          const uint64_t r = records[x];
          records[m] = r;
          m += filter.Repeated(r);
        }
        if (part_cut < shape.key_bits) {
          util::internal::LsdSort(records + first, scratch, m - first, 64 - shape.key_bits, 64 - part_cut);
        }
      }
    } else {
      util::MakeAndSortByLeadingBits(make, records, scratch, n, shape.key_bits, threads);
    }
    stats->filtered += m;
    // The groups first, then their whole keys: a group's items are far
    // apart in the column, so each compare waits for memory unless the
    // keys of the groups a few ahead were asked for before.
    groups.clear();
    for (size_t i = 0; i < m;) {
      size_t j = i + 1;
      while (j < m && (records[j] & shape.group_mask) == (records[i] & shape.group_mask)) ++j;
      if (j - i >= 2) groups.push_back({i, j});
      i = j;
    }
    stats->groups += groups.size();
    auto prefetch = [&](const std::pair<size_t, size_t>& g) {
      for (size_t x = g.first; x < std::min(g.second, g.first + kPrefetchMembers); ++x) {
        format::PrefetchLine(column + (records[x] & shape.item_mask));
      }
    };
    for (size_t g = 0; g < std::min(groups.size(), kPrefetchGroups); ++g) prefetch(groups[g]);
    for (size_t g = 0; g < groups.size(); ++g) {
      if (g + kPrefetchGroups < groups.size()) prefetch(groups[g + kPrefetchGroups]);
      const auto [i, j] = groups[g];
      for (size_t x = i; x < j; ++x) {
        const size_t a = records[x] & shape.item_mask;
        for (size_t y = x + 1; y < j; ++y) {
          const size_t b = records[y] & shape.item_mask;
          ++stats->comparisons;
          if (column[a] == column[b]) {
            pairs.push_back((uint64_t{a} << 32) | b);
            if (pairs.size() == kPairBatch) {
              SIMDEX_RETURN_IF_ERROR(flush(pairs.data(), pairs.size()));
              pairs.clear();
            }
          }
        }
      }
    }
  }
  return pairs.empty() ? Status::OK() : flush(pairs.data(), pairs.size());
}

}  // namespace minhash

uint64_t SignatureDigest(const uint64_t* keys, size_t bands, const uint8_t* packed, size_t packed_bytes) {
  return XXH3_64bits_withSeed(packed, packed_bytes, XXH3_64bits(keys, bands * sizeof(uint64_t)));
}

Status FindBandPairs(std::span<const uint64_t> keys, int bands, std::span<const uint8_t> banded, int threads,
                     std::vector<uint64_t>* out, BandJoinStats* stats) {
  if (bands < 1) return Status::InvalidArgument("band join: bands must be at least 1");
  if (banded.size() >= std::numeric_limits<uint32_t>::max()) {
    return Status::InvalidArgument("band join: 2^32 items or more");
  }
  if (keys.size() != banded.size() * static_cast<size_t>(bands)) {
    return Status::InvalidArgument("band join: keys are not items x bands");
  }
  out->clear();
  *stats = BandJoinStats();
  const size_t n = banded.size();
  stats->items = n;
  std::vector<uint32_t> items;
  for (size_t i = 0; i < n; ++i) {
    if (banded[i]) items.push_back(static_cast<uint32_t>(i));
  }
  const size_t m = items.size();
  stats->banded = m;
  if (m < 2) return Status::OK();
  std::vector<const uint64_t*> columns(static_cast<size_t>(bands));
  for (int j = 0; j < bands; ++j) columns[j] = keys.data() + static_cast<size_t>(j) * n;
  const minhash::JoinShape shape = minhash::ShapeOf(n, m, std::numeric_limits<size_t>::max());
  // Pairs are held as (a, b) in the leading 2 x item_bits bits, so that
  // their sort passes over those bits alone, then put back as (a << 32) | b.
  const int ib = shape.item_bits;
  SIMDEX_RETURN_IF_ERROR(minhash::JoinInMemory(columns.data(), bands, items, shape, threads,
                                               [out, ib](const uint64_t* pairs, size_t count) {
                                                 for (size_t i = 0; i < count; ++i) {
                                                   const uint64_t a = pairs[i] >> 32, b = pairs[i] & 0xffffffff;
                                                   out->push_back((a << (64 - ib)) | (b << (64 - 2 * ib)));
                                                 }
                                                 return Status::OK();
                                               },
                                               stats));
  const auto scratch = std::make_unique_for_overwrite<uint64_t[]>(out->size());
  util::SortByLeadingBits(out->data(), scratch.get(), out->size(), 2 * ib, threads);
  out->erase(std::unique(out->begin(), out->end()), out->end());
  const uint64_t b_mask = (uint64_t{1} << ib) - 1;
  for (uint64_t& p : *out) p = ((p >> (64 - ib)) << 32) | ((p >> (64 - 2 * ib)) & b_mask);
  stats->pairs = out->size();
  return Status::OK();
}

}  // namespace simdex
