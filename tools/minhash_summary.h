// The command-line side of `simdex dedup --method minhash`
// (DeduplicateByMinHash, include/simdex/batch.h): --estimate-filter, and the
// summary.
#ifndef SIMDEX_TOOLS_MINHASH_SUMMARY_H_
#define SIMDEX_TOOLS_MINHASH_SUMMARY_H_

#include <cstdint>
#include <string>

#include "simdex/batch.h"

namespace simdex::tools {

// The flags of `--method minhash` (the fields of the options they fill)
// checked, naming them (usage errors).
Status CheckMinHashDedupFlags(const MinHashDedupOptions& options);

// "%g" of a J (0.8, 0.729289).
std::string FormatJ(double v);

// --estimate-filter into MinHashDedupOptions::estimate_filter: "" (the
// options' default, left as it is), "off" (0), or a J in [0, 1]. False
// for anything else.
bool ParseEstimateFilter(const std::string& spec, double* estimate_filter);

// The summary lines on stderr of a run with `options` (confirm: the
// --confirm spec, or empty; exact: the pairs were checked on their
// shingles, not --approximate).
void PrintMinHashSummary(const MinHashDedupOptions& options, const MinHashDedupStats& stats, uint64_t skipped,
                         double seconds);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_MINHASH_SUMMARY_H_
