// Permuter: BlockPermutation::Apply and Invert as one masked rotation per
// block, inlined. The key groups and the shuffle permute every fingerprint
// once per table, where the out-of-line loop over the permutation's moves
// showed.
#ifndef SIMDEX_ENGINE_SIMHASH_DEDUP_PERMUTER_H_
#define SIMDEX_ENGINE_SIMHASH_DEDUP_PERMUTER_H_

#include <bit>
#include <cstdint>

#include "simdex/scheme.h"

namespace simdex::simhash {

class Permuter {
 public:
  explicit Permuter(const BlockPermutation& perm) : key_bits_(perm.key_bits()) {
    // Each block of the permutation is a maximal run of bits that Apply
    // moves by one distance; find them bit by bit.
    for (int bit = 0; bit < 64;) {
      const int to = std::countr_zero(perm.Apply(uint64_t{1} << bit));
      int end = bit + 1;
      while (end < 64 && std::countr_zero(perm.Apply(uint64_t{1} << end)) == to + (end - bit)) ++end;
      const uint64_t mask = end - bit == 64 ? ~uint64_t{0} : ((uint64_t{1} << (end - bit)) - 1) << bit;
      masks_[blocks_] = mask;
      rotations_[blocks_] = (to - bit + 64) % 64;
      // The blocks that land in the leading key_bits form the key.
      const uint64_t key_region = key_bits_ >= 64 ? ~uint64_t{0} : ~(~uint64_t{0} >> key_bits_);
      if ((std::rotl(mask, rotations_[blocks_]) & key_region) != 0) {
        key_masks_[key_blocks_] = mask;
        key_rotations_[key_blocks_] = rotations_[blocks_];
        ++key_blocks_;
      }
      ++blocks_;
      bit = end;
    }
  }
  uint64_t Apply(uint64_t x) const {
    uint64_t out = 0;
    for (int i = 0; i < blocks_; ++i) out |= std::rotl(x & masks_[i], rotations_[i]);
    return out;
  }
  uint64_t Invert(uint64_t permuted) const {
    uint64_t out = 0;
    for (int i = 0; i < blocks_; ++i) out |= std::rotr(permuted, rotations_[i]) & masks_[i];
    return out;
  }
  // The table's key of a fingerprint: the leading key_bits of Apply, right
  // aligned, from the blocks that land there only.
  uint64_t Key(uint64_t x) const {
    uint64_t out = 0;
    for (int i = 0; i < key_blocks_; ++i) out |= std::rotl(x & key_masks_[i], key_rotations_[i]);
    return key_bits_ >= 64 ? out : out >> (64 - key_bits_);
  }
  int key_bits() const { return key_bits_; }

 private:
  int key_bits_;
  int blocks_ = 0;
  uint64_t masks_[64];
  int rotations_[64];
  int key_blocks_ = 0;
  uint64_t key_masks_[64];
  int key_rotations_[64];
};

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_DEDUP_PERMUTER_H_
