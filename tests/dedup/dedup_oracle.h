// A brute-force oracle for de-duplication, shared by the library and the
// command-line tests: every pair of a batch compared, clusters by a plain
// union-find, representatives by the largest score then the first document,
// and the nearest entry of each index by a scan.
#ifndef SIMDEX_TESTS_DEDUP_DEDUP_ORACLE_H_
#define SIMDEX_TESTS_DEDUP_DEDUP_ORACLE_H_

#include <cstdint>
#include <vector>

#include "simdex/dedup.h"
#include "tests/index/test_data.h"

namespace simdex::testing {

struct Doc {
  bool empty = false;
  uint64_t fingerprint = 0;
  double score = 0;
};

struct OraclePair {
  uint64_t a, b;  // ordinals, a < b
  int distance;
  friend bool operator==(const OraclePair&, const OraclePair&) = default;
};

struct Oracle {
  std::vector<OraclePair> pairs;      // ordered by a, then b
  std::vector<DedupResult> results;   // by ordinal
  uint64_t clusters = 0;              // of two or more documents
};

// The expected results for `docs` at distance k against the entries of
// `indexes` (in AddIndex order), index matches within against_k (-1: k).
Oracle ExpectedDedup(const std::vector<Doc>& docs, int k, const std::vector<const std::vector<Entry>*>& indexes,
                     int against_k = -1);

}  // namespace simdex::testing

#endif  // SIMDEX_TESTS_DEDUP_DEDUP_ORACLE_H_
