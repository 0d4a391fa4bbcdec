// Hybrid radix sort: MSD scatter passes split the input into ranges that fit
// in the L2 cache, then each range is finished with LSD passes in cache.
//
// A scatter pass over a large array writes 256 streams at once and runs at
// memory speed (~90 ms per 10^7 u64 on the 2-core target machine); the same
// pass over a cache-resident range is several times faster. So only the
// first one or two passes touch main memory, and ranges are independent,
// which is also what the parallel variant splits among threads.
//
// Digits are 8-bit and numbered from the least significant: digit g of a
// u64 is byte g; digit g of a FingerprintIdPair is byte g of the id for
// g < 8, byte g - 8 of the fingerprint otherwise.
#include "engine/index/radix_sort.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <system_error>
#include <thread>
#include <vector>

namespace simdex::index {

namespace {

// Below this size a comparison sort beats clearing and scanning counters.
constexpr size_t kSmallSort = 64;
// A range of at most this many bytes is finished with LSD passes: with its
// scratch twin it fits the target machine's 2 MiB L2 cache. (512 KiB made
// 10^7 pairs 40% slower: their 625 KiB buckets took a second MSD pass that
// left ranges of ~150 records, too small to repay their counters.)
constexpr size_t kCacheResidentBytes = size_t{1} << 20;
// A thread is worth starting only for parts at least this large.
constexpr size_t kMinParallelPart = size_t{1} << 16;

using Counts = std::array<size_t, 256>;

template <class R>
struct Digits;
template <>
struct Digits<uint64_t> {
  static constexpr int kCount = 8;
};
template <>
struct Digits<FingerprintIdPair> {
  static constexpr int kCount = 16;
};

template <class R>
using Histogram = std::array<Counts, Digits<R>::kCount>;

// What one counting pass over a range learns.
template <class R>
struct Census {
  Histogram<R> counts{};
  bool sorted = true;    // the range is already in order
  int lowest_digit = 0;  // digits below this one need no pass
};

inline void CountWord(uint64_t word, Counts* counts) {
  for (int d = 0; d < 8; ++d) ++counts[d][(word >> (8 * d)) & 0xff];
}

void Count(const uint64_t* a, size_t n, Census<uint64_t>* c) {
  for (size_t i = 0; i < n; ++i) {
    CountWord(a[i], &c->counts[0]);
    if (i > 0) c->sorted &= a[i - 1] <= a[i];
  }
}

// Input already in id order needs only the (stable) fingerprint passes.
void Count(const FingerprintIdPair* a, size_t n, Census<FingerprintIdPair>* c) {
  bool id_sorted = true;
  for (size_t i = 0; i < n; ++i) {
    CountWord(a[i].id, &c->counts[0]);
    CountWord(a[i].fingerprint, &c->counts[8]);
    if (i > 0) {
      c->sorted &= a[i - 1] <= a[i];
      id_sorted &= a[i - 1].id <= a[i].id;
    }
  }
  c->lowest_digit = id_sorted ? 8 : 0;
}

// Key words as types, so that each scatter loop is compiled for one word.
struct WholeWord {
  static uint64_t Get(uint64_t r) { return r; }
};
struct IdWord {
  static uint64_t Get(const FingerprintIdPair& r) { return r.id; }
};
struct FingerprintWord {
  static uint64_t Get(const FingerprintIdPair& r) { return r.fingerprint; }
};

// Stable scatter of src[0, n) into dst by one byte of word W; next[b] is
// where the next record with byte value b goes, and is advanced.
template <class R, class W>
void ScatterWord(const R* src, R* dst, size_t n, unsigned shift, size_t* next) {
  for (size_t i = 0; i < n; ++i) {
    const R r = src[i];
    dst[next[(W::Get(r) >> shift) & 0xff]++] = r;
  }
}

void Scatter(const uint64_t* src, uint64_t* dst, size_t n, int digit, size_t* next) {
  ScatterWord<uint64_t, WholeWord>(src, dst, n, 8 * digit, next);
}

void Scatter(const FingerprintIdPair* src, FingerprintIdPair* dst, size_t n, int digit, size_t* next) {
  if (digit < 8) {
    ScatterWord<FingerprintIdPair, IdWord>(src, dst, n, 8 * digit, next);
  } else {
    ScatterWord<FingerprintIdPair, FingerprintWord>(src, dst, n, 8 * (digit - 8), next);
  }
}

bool IsConstant(const Counts& counts, size_t n) {
  return std::find(counts.begin(), counts.end(), n) != counts.end();
}

// Bucket start offsets from counts.
Counts Starts(const Counts& counts) {
  Counts starts;
  size_t sum = 0;
  for (int b = 0; b < 256; ++b) {
    starts[b] = sum;
    sum += counts[b];
  }
  return starts;
}

template <class R>
void CopyTo(R* dst, const R* src, size_t n) {
  if (dst != src) std::memcpy(dst, src, n * sizeof(R));
}

// Sorts the n records of a whose digits >= top are all equal. The result
// ends in b if into_b, else in a; the other array is work space.
template <class R>
void SortRange(R* a, R* b, size_t n, int top, bool into_b) {
  if (n < kSmallSort) {
    std::sort(a, a + n);
    if (into_b) CopyTo(b, a, n);
    return;
  }
  Census<R> census;
  Count(a, n, &census);
  if (census.sorted) {
    if (into_b) CopyTo(b, a, n);
    return;
  }
  if (n * sizeof(R) <= kCacheResidentBytes) {
    R* src = a;
    R* dst = b;
    for (int g = census.lowest_digit; g < top; ++g) {
      if (IsConstant(census.counts[g], n)) continue;
      Counts next = Starts(census.counts[g]);
      Scatter(src, dst, n, g, next.data());
      std::swap(src, dst);
    }
    CopyTo(into_b ? b : a, src, n);
    return;
  }
  // Unsorted means some digit in [lowest_digit, top) varies.
  int g = top - 1;
  while (IsConstant(census.counts[g], n)) --g;
  const Counts starts = Starts(census.counts[g]);
  Counts next = starts;
  Scatter(a, b, n, g, next.data());
  for (int k = 0; k < 256; ++k) {
    const size_t size = census.counts[g][k];
    if (size > 0) SortRange(b + starts[k], a + starts[k], size, g, !into_b);
  }
}

// Runs f(0), ..., f(parts - 1) on parts threads (one of them the caller's);
// a part whose thread cannot be started runs on the caller afterwards.
template <class F>
void ParallelFor(int parts, const F& f) {
  std::vector<std::thread> threads;
  int started = 1;
  try {
    for (; started < parts; ++started) threads.emplace_back(f, started);
  } catch (const std::system_error&) {
  }
  f(0);
  for (std::thread& t : threads) t.join();
  for (int i = started; i < parts; ++i) f(i);
}

// The parallel variant of SortRange's MSD step: parts count and scatter
// contiguous chunks concurrently (each part's records go to its own slice of
// every bucket, which keeps the pass stable), then each part finishes a
// contiguous set of buckets.
template <class R>
void ParallelSort(R* records, R* scratch, size_t n, int threads) {
  const size_t max_parts = n / kMinParallelPart;
  const int parts = static_cast<int>(std::min<size_t>(threads, max_parts));
  if (parts < 2) {
    SortRange(records, scratch, n, Digits<R>::kCount, false);
    return;
  }
  auto chunk_begin = [&](int p) { return n / parts * p; };
  auto chunk_end = [&](int p) { return p + 1 == parts ? n : n / parts * (p + 1); };
  std::vector<Census<R>> census(parts);
  ParallelFor(parts, [&](int p) { Count(records + chunk_begin(p), chunk_end(p) - chunk_begin(p), &census[p]); });

  Census<R> all;
  for (int p = 0; p < parts; ++p) {
    for (int g = 0; g < Digits<R>::kCount; ++g) {
      for (int k = 0; k < 256; ++k) all.counts[g][k] += census[p].counts[g][k];
    }
    all.sorted &= census[p].sorted;
    if (p > 0) {
      const size_t i = chunk_begin(p);
      all.sorted &= records[i - 1] <= records[i];
    }
  }
  if (all.sorted) return;
  int g = Digits<R>::kCount - 1;
  while (IsConstant(all.counts[g], n)) --g;

  const Counts starts = Starts(all.counts[g]);
  std::vector<Counts> next(parts);
  for (int k = 0; k < 256; ++k) {
    size_t offset = starts[k];
    for (int p = 0; p < parts; ++p) {
      next[p][k] = offset;
      offset += census[p].counts[g][k];
    }
  }
  ParallelFor(parts, [&](int p) {
    Scatter(records + chunk_begin(p), scratch, chunk_end(p) - chunk_begin(p), g, next[p].data());
  });

  // Part p finishes the buckets that start in [chunk_begin(p), chunk_end(p)).
  ParallelFor(parts, [&](int p) {
    for (int k = 0; k < 256; ++k) {
      const size_t size = all.counts[g][k];
      if (size == 0 || starts[k] < chunk_begin(p) || starts[k] >= chunk_end(p)) continue;
      SortRange(scratch + starts[k], records + starts[k], size, g, true);
    }
  });
}

}  // namespace

void RadixSort(uint64_t* records, uint64_t* scratch, size_t n, int threads) {
  ParallelSort(records, scratch, n, threads);
}

void RadixSort(FingerprintIdPair* records, FingerprintIdPair* scratch, size_t n, int threads) {
  ParallelSort(records, scratch, n, threads);
}

}  // namespace simdex::index
