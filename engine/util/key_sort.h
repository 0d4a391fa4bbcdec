// Sorts 64-bit records by their leading bits only, stably: records whose
// leading key_bits are equal keep their order. The key groups are built
// with increasing indexes in the low bits, so a stable sort on the key
// alone gives the same order as a sort on whole records, with about half
// the passes (the index bits are never sorted on).
//
// One MSD scatter on the top bits cuts the records into buckets of about
// kBucketRecords (which stay in the L2 cache with their scratch twins);
// each bucket is finished with LSD passes of at most 11 bits over the rest
// of the key. With threads >= 2 the threads count and scatter contiguous
// slices (each slice owns its part of every bucket, which keeps the pass
// stable) and then finish disjoint sets of buckets.
#ifndef SIMDEX_ENGINE_UTIL_KEY_SORT_H_
#define SIMDEX_ENGINE_UTIL_KEY_SORT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>
#include <algorithm>

namespace simdex::util {

inline constexpr size_t kBucketRecords = size_t{1} << 14;

// Fills records[i] = make(i) for i in [0, n) and sorts them stably by their
// top key_bits bits, using scratch[0, n) as work space. make is called once
// per record, from up to `threads` threads at once. Making the records in
// the pass that counts the top bits saves a pass over memory.
// REQUIRES: 1 <= key_bits <= 64; threads >= 1; the arrays do not overlap.
template <class Make>
void MakeAndSortByLeadingBits(const Make& make, uint64_t* records, uint64_t* scratch, size_t n, int key_bits,
                              int threads);

// The same for records already in place.
void SortByLeadingBits(uint64_t* records, uint64_t* scratch, size_t n, int key_bits, int threads);

namespace internal {

// Sorts a[0, n) stably by bits [low, high) (result in a; b is work space).
void LsdSort(uint64_t* a, uint64_t* b, size_t n, int low, int high);
// The number of top bits the MSD pass scatters on.
int MsdBits(size_t n, int key_bits);
// Runs f(0), ..., f(parts - 1) on parts threads (one of them the caller's);
// a part whose thread cannot be started runs on the caller afterwards.
void OnThreads(int parts, const std::function<void(int)>& f);
// Scatters scratch[0, n) into records by the top msd bits (counts[p][v]:
// the records of part p with top bits v; on return, where each part's
// bucket v ended), then finishes every bucket in records with LSD passes.
void ScatterAndFinish(uint64_t* scratch, uint64_t* records, size_t n, int key_bits, int msd,
                      std::vector<std::vector<size_t>>* counts, int parts);
inline int Parts(size_t n, int threads) {
  return static_cast<int>(std::max<size_t>(1, std::min<size_t>(threads, n / (size_t{1} << 16))));
}

}  // namespace internal

template <class Make>
void MakeAndSortByLeadingBits(const Make& make, uint64_t* records, uint64_t* scratch, size_t n, int key_bits,
                              int threads) {
  const int msd = internal::MsdBits(n, key_bits);
  if (msd == 0) {
    for (size_t i = 0; i < n; ++i) records[i] = make(i);
    internal::LsdSort(records, scratch, n, 64 - key_bits, 64);
    return;
  }
  const int parts = internal::Parts(n, threads);
  const int shift = 64 - msd;
  std::vector<std::vector<size_t>> counts(parts, std::vector<size_t>(size_t{1} << msd));
  internal::OnThreads(parts, [&](int p) {
    const size_t begin = n / parts * p, end = p + 1 == parts ? n : n / parts * (p + 1);
    std::vector<size_t>& count = counts[p];
    for (size_t i = begin; i < end; ++i) {
      const uint64_t r = make(i);
      scratch[i] = r;
      ++count[r >> shift];
    }
  });
  internal::ScatterAndFinish(scratch, records, n, key_bits, msd, &counts, parts);
}

}  // namespace simdex::util

#endif  // SIMDEX_ENGINE_UTIL_KEY_SORT_H_
