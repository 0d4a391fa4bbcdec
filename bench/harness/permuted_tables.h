// PermutedTablesSearcher ("permuted"): simdex's table scheme without the
// compression. Against SimdexSearcher it shows the price (bytes) and the
// gain (no decoding) of the compressed blocks.
#ifndef SIMDEX_BENCH_HARNESS_PERMUTED_TABLES_H_
#define SIMDEX_BENCH_HARNESS_PERMUTED_TABLES_H_

#include <span>
#include <vector>

#include "bench/harness/searcher.h"
#include "simdex/scheme.h"

namespace simdex::bench {

// Keeps, in memory, one table per table of the scheme: every fingerprint
// permuted by the table's BlockPermutation, sorted, in one array, with the
// ids in a parallel array (4-byte ids when n < 2^32, else 8-byte ids).
// Search(q, k) probes the tables of scheme.TablesForDistance(k): in each, a
// binary search finds the run of values whose key (leading blocks) equals
// the query's, and every value of the run within k of the permuted query is
// a match. A fingerprint found through several tables is reported once.
//
// Bytes() is the size of the key and id arrays (12 or 16 bytes per entry per
// table). MaxK() is the scheme's k.
//
// Thread safety: concurrent Search() calls are safe.
class PermutedTablesSearcher : public Searcher {
 public:
  explicit PermutedTablesSearcher(const Scheme& scheme) : scheme_(scheme) {}

  std::string Name() const override { return "permuted"; }
  Status Build(std::span<const uint64_t> fps) override;
  size_t Bytes() const override;
  int MaxK() const override { return scheme_.k(); }
  Status Search(uint64_t q, int k, std::vector<Match>* out) const override;

 private:
  struct Table {
    std::vector<uint64_t> keys;  // permuted fingerprints, ascending
    std::vector<uint32_t> ids32;  // ids beside keys, when n < 2^32
    std::vector<uint64_t> ids64;  // otherwise
  };

  Scheme scheme_;
  std::vector<Table> tables_;
  bool wide_ids_ = false;
};

}  // namespace simdex::bench

#endif  // SIMDEX_BENCH_HARNESS_PERMUTED_TABLES_H_
