// The document pairs `simdex dedup --method minhash` writes (--pairs),
// sorted by (a, b) within a memory bound: 16 bytes per pair through the
// external sorter, which spills sorted runs to the temporary directory past
// the bound, the way the Deduplicator keeps SimHash's pairs. Before, the
// pairs were held in memory, quadratic in a cluster's size: 8,000 identical
// documents made 32 million pairs and a 2.0 GB peak at --memory 64M.
//
// A pair keeps its estimate and similarity as they are printed: rounded to
// six significant digits (the "%.6g" of engine/pipeline/dedup_records.cc), each in a
// float, which holds any six-digit decimal exactly (FLT_DIG is 6); the
// output is byte for byte what the doubles gave.
#ifndef SIMDEX_ENGINE_PIPELINE_SORTED_PAIRS_H_
#define SIMDEX_ENGINE_PIPELINE_SORTED_PAIRS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/pipeline/confirm_pairs.h"
#include "engine/util/radix_sort.h"
#include "simdex/status.h"

namespace simdex::util {
template <class Record>
class ExternalSorter;
}  // namespace simdex::util

namespace simdex::pipeline {

// v as the result files print it ("%.6g"), read back into a float (exact:
// a float holds every six-digit decimal).
float AsPrinted(double v);

// Not thread-safe. Errors: the first is kept and returned by every later call.
class SortedPairs {
 public:
  // memory_bytes: the sorter's bound (at least its minimum of 64 KiB is
  // used); tmpdir: an existing directory for its runs.
  SortedPairs(size_t memory_bytes, const std::string& tmpdir, int threads);
  ~SortedPairs();
  SortedPairs(const SortedPairs&) = delete;
  SortedPairs& operator=(const SortedPairs&) = delete;

  // Adds a pair (a < b; no two alike). Its distance is not kept.
  // REQUIRES: ForEach() has not been called.
  Status Add(const AcceptedPair& pair);
  // Calls fn with every pair, by a then b, then frees the sorter.
  // REQUIRES: called at most once.
  Status ForEach(const PairVisitor& fn);

  // Bytes written to sorted runs, merge passes included (after ForEach).
  uint64_t bytes_spilled() const { return bytes_spilled_; }

 private:
  Status Flush();

  std::unique_ptr<util::ExternalSorter<util::FingerprintIdPair>> sorter_;
  std::vector<util::FingerprintIdPair> pending_;
  uint64_t bytes_spilled_ = 0;
  Status status_;
};

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_SORTED_PAIRS_H_
