// Ids given to more than one document of a batch (simdex dedup refuses
// them unless --allow-duplicate-ids), and where each document was read, to
// name both places.
#ifndef SIMDEX_ENGINE_PIPELINE_DUPLICATE_IDS_H_
#define SIMDEX_ENGINE_PIPELINE_DUPLICATE_IDS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "simdex/status.h"
#include "engine/pipeline/document_ids.h"

namespace simdex::pipeline {

// The input and line of each document of a batch, by ordinal. Lines are
// kept as the places where they stop running on by one (a new input, a blank
// line, a skipped record): 16 bytes each, nothing for the documents between.
class DocumentPlaces {
 public:
  // The next document (ordinal: the count so far) was read at `line`.
  void Add(uint64_t line);
  // The inputs' names and how many documents each gave, in order, once
  // every document has been added. REQUIRES: the counts sum to the
  // documents added.
  void SetInputs(std::vector<std::string> names, std::vector<uint64_t> documents);

  // "<input>:<line>" of ordinal's document.
  std::string Describe(uint64_t ordinal) const;

 private:
  uint64_t size_ = 0;
  uint64_t last_line_ = 0;
  std::vector<std::pair<uint64_t, uint64_t>> runs_;  // (first ordinal, its line), by ordinal
  std::vector<std::string> names_;
  std::vector<uint64_t> ends_;  // ends_[i]: one past the last ordinal of input i
};

struct DuplicateIds {
  uint64_t ids = 0;  // distinct ids given to two or more documents; 0 when none
  // Of those, the id whose second document comes first in input order: its
  // first and second documents' ordinals.
  uint64_t first = 0;
  uint64_t second = 0;
  uint64_t spilled_runs = 0;  // sorted runs the check wrote to tmpdir
};

// Finds the ids given to more than one document: a number equals a number,
// a string a string. One (key, ordinal) record per document (16 bytes; the
// key is the number, or a 64-bit hash of the string) goes through the
// external sorter within memory_bytes, spilling sorted runs to tmpdir beyond
// it; documents of equal keys are then compared exactly. Costs nothing when
// the ids are consecutive numbers (record numbers, --id ordinal).
Status FindDuplicateIds(const DocumentIds& ids, size_t memory_bytes, const std::string& tmpdir, int threads,
                        DuplicateIds* out);

// OK when every document of the batch has an id of its own; else
// InvalidArgument naming the first repeated id and both its places ("<input>:<line>:
// duplicate id '7' (first at <input>:<line>)"), how many more ids repeat,
// and `how_to_allow` ("--allow-duplicate-ids keeps every document").
Status CheckIdsAreUnique(const DocumentIds& ids, const DocumentPlaces& places, size_t memory_bytes,
                         const std::string& tmpdir, int threads, std::string_view how_to_allow);

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_DUPLICATE_IDS_H_
