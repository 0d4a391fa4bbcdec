// Clusters: each document's representative and its distance to it, from
// the union-find over a batch's distinct fingerprints.
//
// A cluster is a set of the union-find: the documents of its fingerprints.
// Its representative is the document with the largest score, the first
// (smallest ordinal) among equals; without scores, the first document of
// the cluster (util::RepresentsBefore, engine/util/union_find.h, the rule
// PairClusters follows too). Walking the distinct fingerprints in order
// finds each one's set once and the first documents without touching the
// documents; only with scores is every document's score looked at.
#ifndef SIMDEX_ENGINE_SIMHASH_DEDUP_CLUSTERS_H_
#define SIMDEX_ENGINE_SIMHASH_DEDUP_CLUSTERS_H_

#include <cstdint>
#include <span>

#include "engine/util/union_find.h"

namespace simdex::simhash {

// of_document's mark of a document without a fingerprint.
inline constexpr uint32_t kNoFingerprint = ~uint32_t{0};

struct ClusterInput {
  std::span<const uint64_t> distinct;        // sorted distinct fingerprints
  std::span<const uint32_t> multiplicity;    // documents per distinct fingerprint
  std::span<const uint32_t> first_document;  // smallest ordinal per distinct fingerprint
  std::span<const uint32_t> of_document;     // distinct number per ordinal, or kNoFingerprint
  std::span<const double> scores;            // per ordinal, or empty: all 0
};

struct ClusterCounts {
  uint64_t clusters = 0;             // of two or more documents
  uint64_t clustered_documents = 0;  // in those
};

// Sets representative[o] and distance[o] for every document with a
// fingerprint (the others are left alone). REQUIRES: both arrays hold
// of_document.size() entries.
ClusterCounts AssignRepresentatives(const ClusterInput& in, util::UnionFind<uint32_t>* sets, uint32_t* representative,
                                    uint8_t* distance);

}  // namespace simdex::simhash

#endif  // SIMDEX_ENGINE_SIMHASH_DEDUP_CLUSTERS_H_
