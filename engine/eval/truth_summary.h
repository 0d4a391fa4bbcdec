// The text summary of `simdex eval --truth jaccard` (truth_rows.cc): one
// line per scored row, strict scoring first.
#ifndef SIMDEX_ENGINE_EVAL_TRUTH_SUMMARY_H_
#define SIMDEX_ENGINE_EVAL_TRUTH_SUMMARY_H_

#include <string>

#include "simdex/eval.h"

namespace simdex::eval {

// One line, ending in '\n', for bucket `all` of a row at k:
//   "edits.jsonl, default at k = 3: strict P/R/F1 0.833/0.909/0.870; lenient (0.5 <= J < 0.8 left out)
//    0.952/0.909/0.930; 120 pairs reported: 100 with J >= 0.8, 15 with 0.5 <= J < 0.8, 5 with J < 0.5"
// `what` names the row ("default at k = 3", "simdex MinHash-LSH, estimate filter").
std::string TruthSummaryLine(const std::string& set, const std::string& what, const TruthBucket& all, int k,
                             const TruthOptions& options);

}  // namespace simdex::eval

#endif  // SIMDEX_ENGINE_EVAL_TRUTH_SUMMARY_H_
