// The first pass of `--idf auto` (`simdex dedup`, `simdex fingerprint`) and
// of `simdex idf`: the documents read once to learn the idf of their
// features (include/simdex/idf_learner.h), before they are read again to be
// fingerprinted or to have the learned terms written.
#ifndef SIMDEX_TOOLS_IDF_PASS_H_
#define SIMDEX_TOOLS_IDF_PASS_H_

#include <cstddef>
#include <memory>
#include <string>

#include "simdex/fingerprint.h"
#include "simdex/idf_learner.h"
#include "simdex/status.h"
#include "tools/pipeline_names.h"

namespace simdex::tools {

// InvalidArgument naming the first input that cannot be read twice
// (standard input, a pipe, a device): `what` needs two passes.
Status CheckTwoPasses(const DocumentInputArgs& input, const std::string& what);

// The directory sorts spill to: tmpdir, else $TMPDIR, else /tmp.
std::string SpillDirectory(const std::string& tmpdir);

// Reads every document of the inputs and learns their idf under options
// (tokenizer, normalization, stop words, seed) within memory_bytes, the
// documents' features found by the fingerprint pipeline's workers
// (engine/pipeline/batch_pipeline.h) on learn.threads threads.
// REQUIRES: CheckTwoPasses(input) is OK.
Status LearnIdf(const DocumentInputArgs& input, const FingerprintOptions& options, const IdfLearnerOptions& learn,
                std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats);

// The first pass as a command runs it: CheckTwoPasses(input, what), a
// progress line (unless quiet), LearnIdf; *summary gets the line for the
// command's stderr ("idf learned from N documents: ..., T s").
Status RunIdfPass(const char* command, const std::string& what, const DocumentInputArgs& input,
                  const FingerprintOptions& options, const IdfLearnerOptions& learn, bool quiet,
                  std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats, std::string* summary);

// "idf learned from N documents: ..." for a command's summary.
std::string DescribeLearnedIdf(const IdfLearnerStats& stats, const IdfTable& table);

// The bytes the learned table holds (counted against --memory).
inline size_t IdfTableBytes(const IdfTable& table) {
  return table.hash_entries().size() * sizeof(std::pair<uint64_t, double>);
}

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_IDF_PASS_H_
