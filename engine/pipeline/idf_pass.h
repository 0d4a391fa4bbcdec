// The first pass of a batch weighed by the idf of its own features (`simdex
// dedup` and `simdex fingerprint` with `--idf auto`, `simdex idf`, and
// SimHashDedupOptions::learn_idf): the documents read once to learn the idf
// of their features (include/simdex/idf_learner.h), before they are read
// again to be fingerprinted or to have the learned terms written.
#ifndef SIMDEX_ENGINE_PIPELINE_IDF_PASS_H_
#define SIMDEX_ENGINE_PIPELINE_IDF_PASS_H_

#include <memory>
#include <string>

#include "engine/pipeline/document_source.h"
#include "simdex/batch.h"
#include "simdex/fingerprint.h"
#include "simdex/idf_learner.h"
#include "simdex/status.h"

namespace simdex::pipeline {

// InvalidArgument "<what> reads the documents twice: give files, not
// <input>" for the first input that cannot be read twice (standard input,
// a pipe, a device).
Status CheckTwoPasses(const DocumentFiles& files, const std::string& what);

// Reads every document of *documents (from the first; it is read to its
// end) and learns the idf of their features under options (tokenizer,
// normalization, stop words, seed) within learn.memory_bytes, each
// document's features found on learn.threads workers
// (engine/pipeline/batch_pipeline.h) and counted in input order. progress
// (not null) is told "learning idf (first pass)" while it runs.
Status LearnIdf(DocumentSource* documents, const FingerprintOptions& options, const IdfLearnerOptions& learn,
                BatchProgress* progress, std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats);

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_IDF_PASS_H_
