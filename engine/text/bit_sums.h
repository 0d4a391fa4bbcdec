// Per-bit weighted sums of SimHash: the accumulators behind
// CombineWeightedHashes and Fingerprinter.
#ifndef SIMDEX_ENGINE_TEXT_BIT_SUMS_H_
#define SIMDEX_ENGINE_TEXT_BIT_SUMS_H_

#include <cstdint>
#include <vector>

namespace simdex::text {

// Exact integer sums for integral weights (tf, binary).
//
// sum_i = sum of w over hashes with bit i set - sum of w over the others
//       = 2 * set_i - total.
// set_i is accumulated eight bits at a time in byte lanes: a 256-entry table
// spreads a hash byte into eight 0/1 bytes of a uint64, which is multiplied by
// w (< 256) and added, so one feature costs 8 lookups, multiplies and adds.
// The lanes are flushed into 64-bit counters before any lane can exceed 255.
class IntegerBitSums {
 public:
  IntegerBitSums() { Clear(); }
  void Clear();
  // REQUIRES: weight >= 0.
  void Add(uint64_t hash, uint64_t weight);
  // Bit i (i < bits) set iff sum_i > 0. REQUIRES: 1 <= bits <= 64.
  uint64_t Fingerprint(int bits);

 private:
  void Flush();

  uint64_t lanes_[8];
  uint64_t pending_;  // total weight added to lanes_ since the last flush
  int64_t set_[64];
  int64_t total_;
};

// Double sums for real weights (log-tf, tf-idf, caller weights), added in
// the order given.
class RealBitSums {
 public:
  RealBitSums() { Clear(); }
  void Clear();
  void Add(uint64_t hash, double weight);
  uint64_t Fingerprint(int bits) const;
  void Sums(int bits, std::vector<double>* sums) const;

 private:
  double sums_[64];
};

}  // namespace simdex::text

#endif  // SIMDEX_ENGINE_TEXT_BIT_SUMS_H_
