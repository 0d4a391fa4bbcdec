// The assembly of MinHash de-duplication that the one-machine run
// (minhash_dedup.cc) and the parts run apart (include/simdex/
// minhash_dedup_parts.h, step 4) share: from the items (each document's
// first copy) and the kept pairs of items, the document pairs and the
// pairs the clusters are made of. Defined in minhash_dedup_parts.cc.
#ifndef SIMDEX_ENGINE_PIPELINE_MINHASH_ASSEMBLY_H_
#define SIMDEX_ENGINE_PIPELINE_MINHASH_ASSEMBLY_H_

#include <cstdint>
#include <functional>

#include "simdex/confirm.h"
#include "simdex/minhash_dedup_parts.h"
#include "simdex/status.h"

namespace simdex::pipeline {

// Called with a document pair (ordinals a < b) and its estimate; the visit
// stops at the first error returned.
using DocumentPairVisitor = std::function<Status(uint64_t a, uint64_t b, double estimate)>;

// Visits the document pairs DocumentPairs gives, made as they are visited
// (an item of m documents has m(m - 1)/2 of them), item by item in the
// order of their first documents (members in ordinal order), then the kept
// pairs in their order.
Status ForEachDocumentPair(const MinHashItemsView& items, const DocumentPairVisitor& fn);

// Adds to `clusters` the pairs of the items' own clusters: each document
// with the first document of its signature, and each kept pair.
void AddItemPairs(const MinHashItemsView& items, PairClusters* clusters);

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_MINHASH_ASSEMBLY_H_
