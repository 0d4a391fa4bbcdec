// Merges the fingerprints the tables found and orders the matches.
#include "engine/simhash/index/result_merge.h"

#include <algorithm>

namespace simdex::simhash {

void MergeFound(std::vector<Found>* found) {
  std::sort(found->begin(), found->end(),
            [](const Found& a, const Found& b) { return a.fingerprint < b.fingerprint; });
  found->erase(std::unique(found->begin(), found->end(),
                           [](const Found& a, const Found& b) { return a.fingerprint == b.fingerprint; }),
               found->end());
}

void SortMatches(std::vector<Match>* matches) {
  std::sort(matches->begin(), matches->end(), [](const Match& a, const Match& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.id != b.id) return a.id < b.id;
    return a.fingerprint < b.fingerprint;
  });
}

}  // namespace simdex::simhash
