// The pieces of a de-duplication found elsewhere (include/simdex/dedup_parts.h),
// turned into the Deduplicator's own terms: indexes into its sorted distinct
// fingerprints, checked against the batch.
#ifndef SIMDEX_ENGINE_SIMHASH_DEDUP_EXTERNAL_PARTS_H_
#define SIMDEX_ENGINE_SIMHASH_DEDUP_EXTERNAL_PARTS_H_

#include <cstdint>
#include <span>
#include <vector>

#include "engine/simhash/dedup/against.h"
#include "engine/simhash/dedup/pair_sink.h"
#include "simdex/dedup.h"
#include "simdex/status.h"

namespace simdex::simhash {

// Each pair as distinct numbers (a < b). InvalidArgument when a fingerprint
// is not in `distinct`, the two are equal, or the distance is not theirs or
// above k.
Status ToDistinctPairs(std::span<const uint64_t> distinct, std::span<const NearPair> pairs, int k,
                       std::vector<DistinctPair>* out);

// The matches as hits sorted by distinct number. InvalidArgument when a
// fingerprint is not in `distinct` or comes twice, or a distance is above k.
Status ToAgainstHits(std::span<const uint64_t> distinct, std::span<const NearestEntry> matches, int k,
                     std::vector<AgainstHit>* out);

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_DEDUP_EXTERNAL_PARTS_H_
