// FindBandPairs (include/simdex/minhash_join.h): the self-join over band
// keys. Records are the key's leading 64 - item_bits bits, then the item, so
// a stable sort on the leading bits groups equal keys with their items in
// increasing order; equal leading bits with different keys are told apart
// by the whole key.
#include <algorithm>
#include <bit>
#include <limits>

#include "engine/dedup/key_sort.h"
#include "simdex/minhash_join.h"

namespace simdex {
namespace {

// True iff items a and b share no key of a band before `band` (keys band
// after band, n per band).
bool FirstSharedBand(const uint64_t* keys, size_t n, size_t a, size_t b, int band) {
  for (int j = 0; j < band; ++j) {
    if (keys[j * n + a] == keys[j * n + b]) return false;
  }
  return true;
}

Status CheckJoinInput(std::span<const uint64_t> keys, int bands, std::span<const uint8_t> banded) {
  if (bands < 1) return Status::InvalidArgument("band join: bands must be at least 1");
  if (banded.size() >= std::numeric_limits<uint32_t>::max()) {
    return Status::InvalidArgument("band join: 2^32 items or more");
  }
  if (keys.size() != banded.size() * static_cast<size_t>(bands)) {
    return Status::InvalidArgument("band join: keys are not items x bands");
  }
  return Status::OK();
}

}  // namespace

Status FindBandPairs(std::span<const uint64_t> keys, int bands, std::span<const uint8_t> banded, int threads,
                     std::vector<uint64_t>* out, BandJoinStats* stats) {
  SIMDEX_RETURN_IF_ERROR(CheckJoinInput(keys, bands, banded));
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
  const int item_bits = std::max(1, static_cast<int>(std::bit_width(n - 1)));
  // Sorted on fewer bits than the key has: equal leading bits of different
  // keys (about m^2 / 2^(key_bits + 1) pairs per band) are told apart below.
  const int key_bits = std::min(64 - item_bits, static_cast<int>(std::bit_width(m)) + 16);
  const uint64_t item_mask = (uint64_t{1} << item_bits) - 1;
  const uint64_t group_mask = ~uint64_t{0} << (64 - key_bits);
  std::vector<uint64_t> records(m), scratch(m);
  for (int band = 0; band < bands; ++band) {
    const uint64_t* column = keys.data() + static_cast<size_t>(band) * n;
    auto make = [&](size_t i) { return (column[items[i]] & ~item_mask) | items[i]; };
    dedup::MakeAndSortByLeadingBits(make, records.data(), scratch.data(), m, key_bits, threads);
    for (size_t i = 0; i < m;) {
      size_t j = i + 1;
      while (j < m && (records[j] & group_mask) == (records[i] & group_mask)) ++j;
      if (j - i >= 2) ++stats->groups;
      for (size_t x = i; x < j; ++x) {
        const size_t a = records[x] & item_mask;
        for (size_t y = x + 1; y < j; ++y) {
          const size_t b = records[y] & item_mask;
          ++stats->comparisons;
          if (column[a] == column[b] && FirstSharedBand(keys.data(), n, a, b, band)) {
            out->push_back((uint64_t{a} << 32) | b);
          }
        }
      }
      i = j;
    }
  }
  scratch.resize(out->size());
  dedup::SortByLeadingBits(out->data(), scratch.data(), out->size(), 64, threads);
  stats->pairs = out->size();
  return Status::OK();
}

}  // namespace simdex
