// The tail of a query: merging what the probed tables found into the
// query's ordered matches.
//
// Each probed table reports the fingerprints within k of the query that
// share its key; a fingerprint whose leading blocks agree with the query in
// several tables is reported by each of them. MergeFound() reduces these
// reports to one per fingerprint; once the ids of each fingerprint are
// looked up, SortMatches() puts the matches in the order the public API
// promises (include/simdex/index.h: distance, then id, then fingerprint).
//
// Thread safety: the functions touch only their argument; concurrent calls
// on distinct vectors are safe.
#ifndef SIMDEX_ENGINE_SIMHASH_INDEX_RESULT_MERGE_H_
#define SIMDEX_ENGINE_SIMHASH_INDEX_RESULT_MERGE_H_

#include <cstdint>
#include <vector>

#include "simdex/index.h"

namespace simdex::simhash {

// A fingerprint (in stored, unpermuted form) that a table found within k of
// the query, and its Hamming distance to the query.
struct Found {
  uint64_t fingerprint;
  int distance;
};

// Sorts *found by fingerprint, ascending, and keeps one entry per
// fingerprint.
// REQUIRES: entries with equal fingerprints have equal distances (true of
// what the tables find: the permutations preserve Hamming distance), so the
// entry kept is theirs whichever it is.
void MergeFound(std::vector<Found>* found);

// Sorts *matches by distance, then id, then fingerprint, all ascending.
void SortMatches(std::vector<Match>* matches);

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_INDEX_RESULT_MERGE_H_
