// The baseline for de-duplicating a batch: the algorithm of the Python
// `simhash` package's find_all (seomoz simhash-py over simhash-cpp), written
// here from its description so that both run on this machine in one process
// (the package is on PyPI only, which this build environment cannot reach).
//
//   find_all(hashes, blocks, k): the hashes are made a set (exact duplicates
//   dropped); 64 bits are cut into `blocks` blocks; for each choice of
//   blocks - k leading blocks, every hash is permuted so those blocks lead,
//   the permuted hashes are sorted, and within each run that shares the
//   leading blocks every pair is compared; pairs within k are gathered in a
//   hash set of (smaller, larger) hashes, which is the result.
//
// Its README reports 1M random hashes, 5 blocks, k = 3 in 1.6 s on one core.
#ifndef SIMDEX_BENCH_HARNESS_FIND_ALL_H_
#define SIMDEX_BENCH_HARNESS_FIND_ALL_H_

#include <cstdint>
#include <span>

namespace simdex::bench {

// The number of distinct pairs of distinct hashes within k (the size of
// find_all's result). REQUIRES: 1 <= blocks <= 64, 0 <= k < blocks.
uint64_t FindAllPairs(std::span<const uint64_t> hashes, int blocks, int k);

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_FIND_ALL_H_
