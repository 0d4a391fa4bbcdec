// The command-line side of `simdex dedup --method minhash`
// (engine/pipeline/minhash_dedup.h): --estimate-filter, and the summary.
#ifndef SIMDEX_TOOLS_MINHASH_SUMMARY_H_
#define SIMDEX_TOOLS_MINHASH_SUMMARY_H_

#include <cstdint>
#include <string>

#include "tools/pipeline_names.h"

namespace simdex::tools {

using pipeline::MinHashDedupArgs;
using pipeline::MinHashDedupStats;

// The flags of `--method minhash` checked, naming them (usage errors).
Status CheckMinHashDedupFlags(const MinHashDedupArgs& args);

// "%g" of a J (0.8, 0.729289).
std::string FormatJ(double v);

// --estimate-filter: "" (the default, DefaultEstimateFilter of args'
// threshold and num_perm), "off", or a J in [0, 1]; sets
// args->estimate_filter and estimate_threshold. False for anything else.
bool ParseEstimateFilter(const std::string& spec, MinHashDedupArgs* args);

// The summary lines on stderr (confirm: the --confirm spec, or empty;
// exact: the pairs were checked on their shingles, not --approximate).
void PrintMinHashSummary(const MinHashDedupArgs& args, const MinHashDedupStats& stats, uint64_t skipped,
                         const std::string& confirm, bool exact, double seconds);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_MINHASH_SUMMARY_H_
