#include "bench/harness/searcher.h"

#include <algorithm>
#include <tuple>

namespace simdex::bench {

void SortMatches(std::vector<Match>* matches) {
  std::sort(matches->begin(), matches->end(), [](const Match& a, const Match& b) {
    return std::tie(a.distance, a.id, a.fingerprint) < std::tie(b.distance, b.id, b.fingerprint);
  });
}

}  // namespace simdex::bench
