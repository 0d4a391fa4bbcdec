#include "engine/simhash/dedup/clusters.h"

#include <bit>
#include <vector>

#include "engine/util/large_memory.h"

namespace simdex::simhash {

namespace {
// set_of's mark of a fingerprint whose cluster is one document.
constexpr uint32_t kAlone = ~uint32_t{0};
}  // namespace

ClusterCounts AssignRepresentatives(const ClusterInput& in, util::UnionFind<uint32_t>* sets, uint32_t* representative,
                                    uint8_t* distance) {
  const uint32_t nd = static_cast<uint32_t>(in.distinct.size());
  ClusterCounts counts;
  // Each fingerprint's set (roots are the sets' smallest members, so this
  // walk reads the union-find almost in order), and each set's size.
  util::LargeVector<uint32_t> set_of(nd), size(nd, 0);
  for (uint32_t d = 0; d < nd; ++d) {
    set_of[d] = sets->Find(d);
    size[set_of[d]] += in.multiplicity[d];
  }
  // Representatives by set: the first document, or the best score.
  util::LargeVector<uint32_t> best(nd, kNoFingerprint);
  if (in.scores.empty()) {
    for (uint32_t d = 0; d < nd; ++d) {
      uint32_t& b = best[set_of[d]];
      if (b == kNoFingerprint || util::RepresentsBefore({}, in.first_document[d], b)) b = in.first_document[d];
    }
  } else {
    for (uint64_t o = 0; o < in.of_document.size(); ++o) {
      const uint32_t d = in.of_document[o];
      if (d == kNoFingerprint) continue;
      uint32_t& b = best[set_of[d]];
      if (b == kNoFingerprint || util::RepresentsBefore(in.scores, o, b)) b = static_cast<uint32_t>(o);
    }
  }
  for (uint32_t root = 0; root < nd; ++root) {
    if (size[root] >= 2) {
      ++counts.clusters;
      counts.clustered_documents += size[root];
    }
  }
  for (uint32_t d = 0; d < nd; ++d) {
    if (size[set_of[d]] == 1) set_of[d] = kAlone;
  }
  size = util::LargeVector<uint32_t>();
  for (uint64_t o = 0; o < in.of_document.size(); ++o) {
    const uint32_t d = in.of_document[o];
    if (d == kNoFingerprint) continue;
    const uint32_t set = set_of[d];
    if (set == kAlone) {
      representative[o] = static_cast<uint32_t>(o);
      distance[o] = 0;
      continue;
    }
    const uint32_t rep = best[set];
    representative[o] = rep;
    distance[o] = static_cast<uint8_t>(std::popcount(in.distinct[d] ^ in.distinct[in.of_document[rep]]));
  }
  return counts;
}

}  // namespace simdex::simhash
