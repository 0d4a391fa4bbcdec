#include "bench/harness/scan_searcher.h"

#include <bit>

namespace simdex::bench {

Status ScanSearcher::Build(std::span<const uint64_t> fps) {
  fps_ = fps;
  return Status::OK();
}

Status ScanSearcher::Search(uint64_t q, int k, std::vector<Match>* out) const {
  out->clear();
  const uint64_t* fps = fps_.data();
  const size_t n = fps_.size();
  // Matches are rare, so the loop tests eight distances with one branch:
  // the popcounts are independent and pipeline (x86-64-v2 has POPCNT but no
  // vector popcount), and the branch is almost never taken.
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    bool any = false;
    for (size_t j = 0; j < 8; ++j) any |= std::popcount(fps[i + j] ^ q) <= k;
    if (!any) continue;
    for (size_t j = i; j < i + 8; ++j) {
      const int d = std::popcount(fps[j] ^ q);
      if (d <= k) out->push_back({j, fps[j], d});
    }
  }
  for (; i < n; ++i) {
    const int d = std::popcount(fps[i] ^ q);
    if (d <= k) out->push_back({i, fps[i], d});
  }
  SortMatches(out);
  return Status::OK();
}

}  // namespace simdex::bench
