// Documents for the MinHash-LSH index tests: synthetic signatures in
// clusters (copies of a base signature with some values redrawn, so that
// their estimates spread over [0, 1]), empty signatures and repeated ids;
// and the brute-force oracle of LshIndexReader::Query.
#ifndef SIMDEX_TESTS_LSH_LSH_DATA_H_
#define SIMDEX_TESTS_LSH_LSH_DATA_H_

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "simdex/lsh_index.h"

namespace simdex::testing {

struct LshDocument {
  uint64_t id = 0;
  std::string string_id;  // used when the test builds with string ids
  std::vector<uint32_t> signature;
};

// n documents of num_perm values: clusters of up to 8 copies, each copy
// with a random share (0..60%) of its values redrawn; about 1 in 20 empty
// (kEmptyMinimum everywhere); ids mostly distinct, some repeated.
std::vector<LshDocument> ClusteredDocuments(size_t n, int num_perm, uint64_t seed);

// Builds an index of docs at path (numeric ids, or string ids when
// string_ids); adds them in the given order.
Status BuildLshIndex(const std::string& path, const LshBuildOptions& options, const std::vector<LshDocument>& docs,
                     bool string_ids = false);

// What Query must answer: every document whose band key agrees with the
// query's in some band on the bits the file keeps (64 - ordinal_bits;
// ordinal_bits from the number of documents), whose signature is not
// empty, and whose b-bit estimate is at least min_estimate; in the order
// of (id, b-bit signature, kept band keys), as the file orders documents.
// For string ids the match's id is the string's rank among the distinct
// strings. Each document's kept keys and b-bit signature are computed once;
// a query compares the query with every document.
class BruteForceLsh {
 public:
  BruteForceLsh(const std::vector<LshDocument>& docs, const LshBuildOptions& options, bool string_ids);
  std::vector<LshMatch> Query(const uint32_t* query, double min_estimate) const;

 private:
  struct Row {
    uint64_t id;
    std::vector<uint8_t> packed;
    std::vector<uint64_t> keys;  // kept bits
    bool operator<(const Row& o) const {
      return std::tie(id, packed, keys) < std::tie(o.id, o.packed, o.keys);
    }
  };
  LshBands bands_;
  int num_perm_;
  int bits_;
  uint64_t keep_;
  std::vector<Row> rows_;  // the banded documents, in the file's order
};

}  // namespace simdex::testing

#endif  // SIMDEX_TESTS_LSH_LSH_DATA_H_
