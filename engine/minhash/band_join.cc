// FindBandPairs (include/simdex/minhash_join.h): the self-join over band
// keys. Records are (key >> item_bits) << item_bits | item, so a stable sort
// on the leading 64 - item_bits bits groups equal keys with their items in
// increasing order; equal leading bits with different keys (a chance of
// about n / 2^(64 - item_bits) per pair) are told apart by the whole key.
#include <algorithm>
#include <bit>
#include <limits>

#include "engine/dedup/key_sort.h"
#include "simdex/minhash_join.h"

namespace simdex {
namespace {

// True iff a and b share no key of a band before `band`.
bool FirstSharedBand(const uint64_t* ka, const uint64_t* kb, int band) {
  for (int j = 0; j < band; ++j) {
    if (ka[j] == kb[j]) return false;
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
  const int key_bits = 64 - item_bits;
  const uint64_t item_mask = (uint64_t{1} << item_bits) - 1;
  std::vector<uint64_t> records(m), scratch(m);
  const size_t stride = static_cast<size_t>(bands);
  for (int band = 0; band < bands; ++band) {
    auto make = [&](size_t i) { return (keys[items[i] * stride + band] & ~item_mask) | items[i]; };
    dedup::MakeAndSortByLeadingBits(make, records.data(), scratch.data(), m, key_bits, threads);
    for (size_t i = 0; i < m;) {
      size_t j = i + 1;
      while (j < m && (records[j] & ~item_mask) == (records[i] & ~item_mask)) ++j;
      if (j - i >= 2) ++stats->groups;
      for (size_t x = i; x < j; ++x) {
        const size_t a = records[x] & item_mask;
        const uint64_t* ka = keys.data() + a * stride;
        for (size_t y = x + 1; y < j; ++y) {
          const size_t b = records[y] & item_mask;
          const uint64_t* kb = keys.data() + b * stride;
          ++stats->comparisons;
          if (ka[band] == kb[band] && FirstSharedBand(ka, kb, band)) out->push_back((uint64_t{a} << 32) | b);
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
