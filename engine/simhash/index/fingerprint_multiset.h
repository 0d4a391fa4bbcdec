// FingerprintMultiset: an order-independent hash of a multiset of
// fingerprints, for checking that the tables of an index agree. Every table
// holds the index's fingerprints, each permuted by its table's
// BlockPermutation; summed over the inverted values, two sound tables give
// one hash, and a table whose values were changed (a block rewritten with a
// recomputed checksum) almost surely another. IndexReader::Verify compares
// the tables with it, and IndexMerger compares each old table as it streams
// it, so that a merge never copies such a table into a new file.
#ifndef SIMDEX_ENGINE_SIMHASH_INDEX_FINGERPRINT_MULTISET_H_
#define SIMDEX_ENGINE_SIMHASH_INDEX_FINGERPRINT_MULTISET_H_

#include <cstdint>

namespace simdex::simhash {

class FingerprintMultiset {
 public:
  void Add(uint64_t fingerprint) { sum_ += Mix(fingerprint); }
  bool operator==(const FingerprintMultiset& o) const { return sum_ == o.sum_; }

 private:
  // SplitMix64's finalizer: sums of mixed values, unlike sums of the values,
  // do not cancel out between two changed fingerprints.
  static uint64_t Mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
  }

  uint64_t sum_ = 0;
};

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_INDEX_FINGERPRINT_MULTISET_H_
