// The command side of the idf pass (LearnIdf, include/simdex/document_inputs.h) of
// `--idf auto` (`simdex fingerprint`) and of `simdex idf`: the progress
// line and the summary.
#ifndef SIMDEX_TOOLS_IDF_PASS_H_
#define SIMDEX_TOOLS_IDF_PASS_H_

#include <memory>
#include <string>

#include "simdex/fingerprint.h"
#include "simdex/idf_learner.h"
#include "simdex/status.h"
#include "tools/input_options.h"

namespace simdex::tools {

// The first pass as a command runs it: CheckTwoPasses(input, what), a
// progress line (unless quiet), LearnIdf; *summary gets the line for the
// command's stderr ("idf learned from N documents: ..., T s").
Status RunIdfPass(const char* command, const std::string& what, const DocumentInputArgs& input,
                  const FingerprintOptions& options, const IdfLearnerOptions& learn, bool quiet,
                  std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats, std::string* summary);

// "idf learned from N documents: ..." for a command's summary; table_bytes:
// IdfTableBytes of the table, default_idf its default_idf().
std::string DescribeLearnedIdf(const IdfLearnerStats& stats, size_t table_bytes, double default_idf);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_IDF_PASS_H_
