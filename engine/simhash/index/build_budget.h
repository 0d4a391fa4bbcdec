// What the index builder keeps in memory under its budget
// (BuildOptions::memory_bytes) and what it sorts on disk instead. The
// builder decides by these rules, and the scheme planner (engine/simhash/plan)
// predicts a build's peak memory and scratch disk from them. What an
// ExternalSorter holds before it spills is the sorter's own rule
// (ExternalSortCapacity, engine/util/external_sorter.h).
#ifndef SIMDEX_ENGINE_SIMHASH_INDEX_BUILD_BUDGET_H_
#define SIMDEX_ENGINE_SIMHASH_INDEX_BUILD_BUDGET_H_

#include <cstddef>
#include <cstdint>

namespace simdex::simhash {

// Table 0's sorted fingerprints stay in memory (else a mapped scratch file)
// when they, a table's permuted values and the sort's scratch fit: 24 bytes
// per entry.
constexpr bool FingerprintsFitInMemory(uint64_t entries, size_t memory_bytes) {
  return entries <= memory_bytes / 24;
}

// A table's permuted values are radix-sorted in memory (else by an
// ExternalSorter into a mapped scratch file) when they and the sort's
// scratch fit: 16 bytes per entry.
constexpr bool TableSortFitsInMemory(uint64_t entries, size_t memory_bytes) {
  return entries <= memory_bytes / 16;
}

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_INDEX_BUILD_BUDGET_H_
