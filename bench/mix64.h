// Mix64: MurmurHash3's 64-bit finalizer, a stateless mixer of a counter
// into a well-spread value. The synthetic data of the benchmarks is drawn
// with it (minhash_bench's signatures, simdex-synthetic-lines' documents),
// so their recorded figures depend on it bit for bit.
#ifndef SIMDEX_BENCH_MIX64_H_
#define SIMDEX_BENCH_MIX64_H_

#include <cstdint>

namespace simdex::bench {

inline uint64_t Mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_MIX64_H_
