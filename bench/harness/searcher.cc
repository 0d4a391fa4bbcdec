#include "bench/harness/searcher.h"

#include "engine/simhash/index/result_merge.h"

namespace simdex::bench {

// The order IndexReader uses, from the engine's own merge step.
void SortMatches(std::vector<Match>* matches) { simhash::SortMatches(matches); }

}  // namespace simdex::bench
