// ScanSearcher ("scan"): the brute-force popcount scan over the caller's
// array. It is the correctness reference every other searcher is compared
// with, and the floor an index has to beat.
#ifndef SIMDEX_BENCH_HARNESS_SCAN_SEARCHER_H_
#define SIMDEX_BENCH_HARNESS_SCAN_SEARCHER_H_

#include <span>

#include "bench/harness/searcher.h"

namespace simdex::bench {

// Compares the query with every stored fingerprint. Build() keeps a view of
// the caller's array (no copy), so Bytes() is 0; any k in 0..64 is exact.
// Search() allocates nothing but the growth of *out.
//
// Thread safety: concurrent Search() calls are safe.
class ScanSearcher : public Searcher {
 public:
  std::string Name() const override { return "scan"; }
  Status Build(std::span<const uint64_t> fps) override;
  size_t Bytes() const override { return 0; }
  int MaxK() const override { return 64; }
  Status Search(uint64_t q, int k, std::vector<Match>* out) const override;

 private:
  std::span<const uint64_t> fps_;
};

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_SCAN_SEARCHER_H_
