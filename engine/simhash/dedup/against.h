// A batch against a stored index: for each of the batch's distinct
// fingerprints, its nearest entry within k in the index (smallest distance,
// then smallest id), by either of two strategies with the same answers.
//
// Probe: IndexReader::Search for every distinct fingerprint. Each probe
// reads the few blocks its keys name in every table; best when the batch is
// small against the index.
//
// Merge join (the source documents' inverted direction): for each table the
// index needs for k, the batch is sorted by that table's key (key_groups.h)
// and a TableCursor walks the index's table forward, decoding only the
// blocks that hold keys the batch has, each at most once. Candidates within
// k are kept; the ids of their fingerprints are then looked up in one batch
// of exact searches. Best when the batch holds many keys per index block.
#ifndef SIMDEX_ENGINE_SIMHASH_DEDUP_AGAINST_H_
#define SIMDEX_ENGINE_SIMHASH_DEDUP_AGAINST_H_

#include <cstdint>
#include <span>
#include <vector>

#include "engine/simhash/dedup/key_groups.h"
#include "simdex/dedup.h"
#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::simhash {

// The nearest index entry of one distinct batch fingerprint.
struct AgainstHit {
  uint32_t distinct;  // index into the batch's distinct fingerprints
  uint32_t distance;
  uint64_t id;
};

struct AgainstStats {
  uint64_t blocks_decoded = 0;  // merge join
  KeyGroupStats sort;
};

// Fills *hits (sorted by distinct, one per batch fingerprint that has an
// entry within k) by probing. REQUIRES: k <= index.scheme().k().
Status ProbeIndex(std::span<const uint64_t> distinct, const IndexReader& index, int k, int threads,
                  std::vector<AgainstHit>* hits);

// The same hits by the merge join. With only_table >= 0, only that table
// (one of TablesForDistance(k)) is walked: the hits are then the nearest
// entries among those that agree with the batch fingerprint on that
// table's key, and the nearest over every table's hits is the answer.
Status MergeJoinIndex(std::span<const uint64_t> distinct, const IndexReader& index, int k,
                      const KeyGroupOptions& sort, std::vector<AgainstHit>* hits, AgainstStats* stats,
                      int only_table = -1);

// kProbe or kMergeJoin for a batch of `distinct` fingerprints against
// `index` (docs/benchmarks.md measures the crossover this follows). The
// index's pages are taken to come from the disk when the file is larger
// than half of physical memory (as ReaderOptions::Access::kAuto judges).
AgainstStrategy ChooseStrategy(uint64_t distinct, const IndexReader& index, int k);
// The same with the pages' residency given: from_disk, each probe of a
// table waits for a page, and the merge join reads the blocks it decodes
// from the disk at sequential speed.
AgainstStrategy ChooseStrategy(uint64_t distinct, const IndexReader& index, int k, bool from_disk);

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_DEDUP_AGAINST_H_
