#include "engine/util/key_sort.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <system_error>
#include <thread>
#include <vector>

namespace simdex::util {

namespace {

constexpr int kMaxMsdBits = 12;
constexpr int kMaxLsdBits = 11;
constexpr size_t kInsertionSort = 32;

// Stable insertion sort of a[0, n) by the bits above `low`.
void InsertionSort(uint64_t* a, size_t n, int low) {
  for (size_t i = 1; i < n; ++i) {
    const uint64_t x = a[i];
    const uint64_t key = x >> low;
    size_t j = i;
    while (j > 0 && (a[j - 1] >> low) > key) {
      a[j] = a[j - 1];
      --j;
    }
    a[j] = x;
  }
}

}  // namespace

namespace internal {

// LSD passes of at most kMaxLsdBits bits.
void LsdSort(uint64_t* a, uint64_t* b, size_t n, int low, int high) {
  if (n < 2 || high <= low) return;
  if (n <= kInsertionSort) {
    InsertionSort(a, n, low);  // compares bits >= low: those above high are equal here
    return;
  }
  const int bits = high - low;
  const int passes = (bits + kMaxLsdBits - 1) / kMaxLsdBits;
  const int width = (bits + passes - 1) / passes;
  std::vector<size_t> count(size_t{1} << width);
  uint64_t* src = a;
  uint64_t* dst = b;
  for (int shift = low; shift < high; shift += width) {
    const int w = std::min(width, high - shift);
    const uint64_t mask = (uint64_t{1} << w) - 1;
    std::fill(count.begin(), count.begin() + (size_t{1} << w), 0);
    for (size_t i = 0; i < n; ++i) ++count[(src[i] >> shift) & mask];
    if (std::find(count.begin(), count.begin() + (size_t{1} << w), n) != count.begin() + (size_t{1} << w)) continue;
    size_t sum = 0;
    for (size_t v = 0; v <= mask; ++v) {
      const size_t c = count[v];
      count[v] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; ++i) dst[count[(src[i] >> shift) & mask]++] = src[i];
    std::swap(src, dst);
  }
  if (src != a) std::memcpy(a, src, n * sizeof(uint64_t));
}

int MsdBits(size_t n, int key_bits) {
  int msd = 0;
  while (msd < std::min(kMaxMsdBits, key_bits) && (n >> msd) > kBucketRecords) ++msd;
  return msd;
}

void OnThreads(int parts, const std::function<void(int)>& f) {
  std::vector<std::thread> threads;
  int started = 1;
  try {
    for (; started < parts; ++started) threads.emplace_back(f, started);
  } catch (const std::system_error&) {
  }
  f(0);
  for (std::thread& t : threads) t.join();
  for (int p = started; p < parts; ++p) f(p);
}

void ScatterAndFinish(uint64_t* scratch, uint64_t* records, size_t n, int key_bits, int msd,
                      std::vector<std::vector<size_t>>* counts, int parts) {
  const int shift = 64 - msd;
  const size_t buckets = size_t{1} << msd;
  // Bucket starts, and each part's write position within each bucket.
  std::vector<size_t> starts(buckets + 1);
  size_t sum = 0;
  for (size_t v = 0; v < buckets; ++v) {
    starts[v] = sum;
    for (int p = 0; p < parts; ++p) {
      const size_t c = (*counts)[p][v];
      (*counts)[p][v] = sum;
      sum += c;
    }
  }
  starts[buckets] = n;
  OnThreads(parts, [&](int p) {
    const size_t begin = n / parts * p, end = p + 1 == parts ? n : n / parts * (p + 1);
    std::vector<size_t>& next = (*counts)[p];
    for (size_t i = begin; i < end; ++i) records[next[scratch[i] >> shift]++] = scratch[i];
  });
  // Parts finish every parts-th bucket (scratch is work space).
  OnThreads(parts, [&](int p) {
    for (size_t v = static_cast<size_t>(p); v < buckets; v += static_cast<size_t>(parts)) {
      LsdSort(records + starts[v], scratch + starts[v], starts[v + 1] - starts[v], 64 - key_bits, shift);
    }
  });
}

}  // namespace internal

void SortByLeadingBits(uint64_t* records, uint64_t* scratch, size_t n, int key_bits, int threads) {
  if (n < 2) return;
  std::memcpy(scratch, records, n * sizeof(uint64_t));
  MakeAndSortByLeadingBits([scratch](size_t i) { return scratch[i]; }, records, scratch, n, key_bits, threads);
}

}  // namespace simdex::util
