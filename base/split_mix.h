// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", 2014): the generator that draws the hash functions of the
// MinHash signatures and of the MinHash-LSH baseline from a seed. Fixed
// here because signatures depend on it bit for bit.
#ifndef SIMDEX_BASE_SPLIT_MIX_H_
#define SIMDEX_BASE_SPLIT_MIX_H_

#include <cstdint>

namespace simdex::base {

// Advances *state and returns the next value.
inline uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace simdex::base

#endif  // SIMDEX_BASE_SPLIT_MIX_H_
