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
// g < 8, byte g - 8 of the fingerprint otherwise. Pairs are sorted on the
// fingerprint digits, then each group of equal fingerprints on the id
// digits, which random fingerprints make rare.
#include "engine/util/radix_sort.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <type_traits>
#include <vector>

#include "engine/util/key_sort.h"  // internal::OnThreads

namespace simdex::util {

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

// Pairs are sorted by fingerprint first, then ties by id (see FixTies), so
// one counting pass looks at one 64-bit word: the fingerprint while digits
// >= 8 remain to sort, the id after that. BaseDigit is the counted word's
// lowest digit.
template <class R>
int BaseDigit(int top) {
  return std::is_same_v<R, FingerprintIdPair> && top > 8 ? 8 : 0;
}

// What one counting pass over a range learns.
struct Census {
  std::array<Counts, 8> counts{};  // counts[d][v]: records whose byte d of the counted word is v
  bool sorted = true;              // the range is already in order
  bool ties_sorted = true;         // records with equal fingerprints are in id order
};

inline void CountWord(uint64_t word, Census* c) {
  for (int d = 0; d < 8; ++d) ++c->counts[d][(word >> (8 * d)) & 0xff];
}

void Count(const uint64_t* a, size_t n, int, Census* c) {
  for (size_t i = 0; i < n; ++i) {
    CountWord(a[i], c);
    if (i > 0) c->sorted &= a[i - 1] <= a[i];
  }
}

// With ids in input order (the builder's usual case) a stable sort on the
// fingerprint alone is enough: no tie needs fixing.
void Count(const FingerprintIdPair* a, size_t n, int top, Census* c) {
  if (top <= 8) {
    for (size_t i = 0; i < n; ++i) {
      CountWord(a[i].id, c);
      if (i > 0) c->sorted &= a[i - 1].id <= a[i].id;
    }
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    CountWord(a[i].fingerprint, c);
    if (i > 0) {
      c->sorted &= a[i - 1] <= a[i];
      c->ties_sorted &= a[i - 1].id <= a[i].id;
    }
  }
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

// The word a range is being sorted on below digit `top`, and the order
// that a sorted range has.
inline uint64_t CountedWord(uint64_t r, int) { return r; }
inline uint64_t CountedWord(const FingerprintIdPair& r, int top) { return top > 8 ? r.fingerprint : r.id; }
inline bool InOrder(uint64_t a, uint64_t b, int) { return a <= b; }
inline bool InOrder(const FingerprintIdPair& a, const FingerprintIdPair& b, int top) {
  return top > 8 ? a <= b : a.id <= b.id;
}

// What the pass before an MSD scatter learns: the bits of the counted word
// that differ from a reference record's, whether the range is in order, and
// the counts of one digit (guessed: the highest below top).
struct Probe {
  uint64_t varying = 0;
  bool sorted = true;
  Counts counts{};
};

template <class R>
void ProbeRange(const R* a, size_t n, int top, int digit, uint64_t reference, Probe* p) {
  const unsigned shift = 8 * (digit - BaseDigit<R>(top));
  for (size_t i = 0; i < n; ++i) {
    const uint64_t w = CountedWord(a[i], top);
    p->varying |= w ^ reference;
    ++p->counts[(w >> shift) & 0xff];
    if (i > 0) p->sorted &= InOrder(a[i - 1], a[i], top);
  }
}

template <class R>
void CountDigit(const R* a, size_t n, int top, int digit, Counts* counts) {
  const unsigned shift = 8 * (digit - BaseDigit<R>(top));
  for (size_t i = 0; i < n; ++i) ++(*counts)[(CountedWord(a[i], top) >> shift) & 0xff];
}

bool IsConstant(const Counts& counts, size_t n) {
  return std::find(counts.begin(), counts.end(), n) != counts.end();
}

// The highest digit in [base, top) that varies, or base - 1 if none does.
int TopVaryingDigit(const Census& c, int base, int top, size_t n) {
  int g = top - 1;
  while (g >= base && IsConstant(c.counts[g - base], n)) --g;
  return g;
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

template <class R>
void SortRange(R* a, R* b, size_t n, int top, bool into_b);
template <class R>
void SortByTopDigit(R* a, R* b, size_t n, int top, bool into_b, int parts);

void FixTies(uint64_t*, uint64_t*, size_t) {}

// Sorts each group of equal fingerprints in out[0, n) by id; other is work
// space. Random fingerprints leave few and tiny groups.
void FixTies(FingerprintIdPair* out, FingerprintIdPair* other, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && out[j].fingerprint == out[i].fingerprint) ++j;
    if (j - i > 1) SortRange(out + i, other + i, j - i, 8, false);
    i = j;
  }
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
  if (n * sizeof(R) > kCacheResidentBytes) {
    SortByTopDigit(a, b, n, top, into_b, 1);
    return;
  }
  Census census;
  Count(a, n, top, &census);
  if (census.sorted) {
    if (into_b) CopyTo(b, a, n);
    return;
  }
  const int base = BaseDigit<R>(top);
  const int g = TopVaryingDigit(census, base, top, n);
  if (g < base) {  // equal fingerprints: only the ids are out of order
    SortRange(a, b, n, 8, into_b);
    return;
  }
  R* src = a;
  R* dst = b;
  for (int d = base; d <= g; ++d) {
    if (IsConstant(census.counts[d - base], n)) continue;
    Counts next = Starts(census.counts[d - base]);
    Scatter(src, dst, n, d, next.data());
    std::swap(src, dst);
  }
  R* out = into_b ? b : a;
  CopyTo(out, src, n);
  if (!census.ties_sorted) FixTies(out, out == a ? b : a, n);
}

// The MSD step of SortRange, shared among `parts` threads: they probe and
// scatter contiguous chunks of a (each chunk's records go to their own slice
// of every bucket, which keeps the pass stable), then each finishes the
// buckets that start in its chunk.
template <class R>
void SortByTopDigit(R* a, R* b, size_t n, int top, bool into_b, int parts) {
  auto begin = [&](int p) { return n / parts * p; };
  auto end = [&](int p) { return p + 1 == parts ? n : n / parts * (p + 1); };
  const int guess = top - 1;
  const uint64_t reference = CountedWord(a[0], top);
  std::vector<Probe> probes(parts);
  internal::OnThreads(parts, [&](int p) { ProbeRange(a + begin(p), end(p) - begin(p), top, guess, reference, &probes[p]); });
  uint64_t varying = 0;
  bool sorted = true;
  for (int p = 0; p < parts; ++p) {
    varying |= probes[p].varying;
    sorted &= probes[p].sorted && (p == 0 || InOrder(a[begin(p) - 1], a[begin(p)], top));
  }
  if (sorted) {
    if (into_b) CopyTo(b, a, n);
    return;
  }
  if (varying == 0) {  // equal fingerprints: only the ids are out of order
    SortRange(a, b, n, 8, into_b);
    return;
  }
  const int g = BaseDigit<R>(top) + (63 - std::countl_zero(varying)) / 8;
  if (g != guess) {
    internal::OnThreads(parts, [&](int p) {
      probes[p].counts = {};
      CountDigit(a + begin(p), end(p) - begin(p), top, g, &probes[p].counts);
    });
  }
  Counts counts{};
  for (int p = 0; p < parts; ++p) {
    for (int k = 0; k < 256; ++k) counts[k] += probes[p].counts[k];
  }
  const Counts starts = Starts(counts);
  std::vector<Counts> next(parts);
  for (int k = 0; k < 256; ++k) {
    size_t offset = starts[k];
    for (int p = 0; p < parts; ++p) {
      next[p][k] = offset;
      offset += probes[p].counts[k];
    }
  }
  internal::OnThreads(parts, [&](int p) { Scatter(a + begin(p), b, end(p) - begin(p), g, next[p].data()); });
  internal::OnThreads(parts, [&](int p) {
    for (int k = 0; k < 256; ++k) {
      if (counts[k] == 0 || starts[k] < begin(p) || starts[k] >= end(p)) continue;
      SortRange(b + starts[k], a + starts[k], counts[k], g, !into_b);
    }
  });
}

template <class R>
void ParallelSort(R* records, R* scratch, size_t n, int threads) {
  constexpr int kDigits = sizeof(R);  // a record's bytes: 8 for a u64, 16 for a pair
  const int parts = static_cast<int>(std::min<size_t>(threads, n / kMinParallelPart));
  if (parts < 2 || n * sizeof(R) <= kCacheResidentBytes) {
    SortRange(records, scratch, n, kDigits, false);
  } else {
    SortByTopDigit(records, scratch, n, kDigits, false, parts);
  }
}

}  // namespace

void RadixSort(uint64_t* records, uint64_t* scratch, size_t n, int threads) {
  ParallelSort(records, scratch, n, threads);
}

void RadixSort(FingerprintIdPair* records, FingerprintIdPair* scratch, size_t n, int threads) {
  ParallelSort(records, scratch, n, threads);
}

}  // namespace simdex::util
