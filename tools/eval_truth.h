// simdex eval --truth jaccard: fingerprints, confirmations and the MinHash-LSH
// baseline scored against the exact Jaccard truth (include/simdex/eval.h).
#ifndef SIMDEX_TOOLS_EVAL_TRUTH_H_
#define SIMDEX_TOOLS_EVAL_TRUTH_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/eval.h"
#include "simdex/fingerprint.h"
#include "simdex/minhash.h"

namespace simdex::tools {

struct TruthEvalArgs {
  std::vector<std::string> sets;
  std::vector<std::string> config_names;
  std::vector<EvalConfig> configs;
  std::string confirm;  // spec, or empty
  ShingleOptions shingles;
  TruthOptions truth;
  bool baseline = false;
  bool minhash = false;     // simdex's MinHash-LSH, with num_perm, baseline_threshold, bands, seed and:
  int signature_bits = kDefaultSignatureBits;  // bits of each value the estimate filter compares
  int num_perm = kDefaultNumPerm;
  double baseline_threshold = kDefaultMinHashThreshold;
  LshBands bands;  // {0, 0}: OptimalLshBands(baseline_threshold, num_perm)
  uint64_t seed = kDefaultMinHashSeed;
  // Files of pairs some run reported on the set (`simdex dedup --pairs`),
  // each scored as a row of its own (ReadReportedPairs); one set only.
  std::vector<std::string> reported;
  std::string list_path;  // listed pairs as JSON lines, or empty
  // The truth's positive pairs (J >= truth.positive) as JSON lines, or empty.
  std::string truth_pairs_path;
  std::string output = "-";
  bool quiet = false;
};

// out[i] = the fingerprint of texts[i] under config.options; an idf
// weighting without a table (the configuration "idf-auto") learns the table
// from the texts first, capped at config.max_idf.
Status FingerprintAll(const EvalConfig& config, std::span<const std::string_view> texts,
                      std::vector<FingerprintResult>* out);

// Runs the evaluation and writes its JSON lines and, unless quiet, a text
// summary on stderr (one line per scored row, tools/truth_summary.h);
// returns the exit code.
int RunTruthEval(const TruthEvalArgs& args);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_EVAL_TRUTH_H_
