// `simdex dedup --method simhash` (docs/dedup.md): every document's SimHash
// fingerprint made on the worker threads (after a first pass that learns
// the batch's idf, when asked), or the fingerprints of fingerprint files;
// the self-join within k and the check against indexes (Deduplicator,
// include/simdex/dedup.h); with a confirm spec or k_short the second stage
// (engine/pipeline/confirm_pairs.h); in the terms `simdex dedup` writes
// (engine/pipeline/dedup_records.h).
#ifndef SIMDEX_ENGINE_PIPELINE_SIMHASH_DEDUP_H_
#define SIMDEX_ENGINE_PIPELINE_SIMHASH_DEDUP_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "engine/pipeline/confirm_pairs.h"
#include "engine/pipeline/dedup_records.h"
#include "engine/pipeline/document_source.h"
#include "simdex/batch.h"
#include "simdex/dedup.h"
#include "simdex/fingerprint.h"
#include "simdex/idf_learner.h"
#include "simdex/index.h"
#include "simdex/status.h"

namespace simdex::pipeline {

// A run's arguments, resolved from SimHashDedupOptions
// (engine/pipeline/simhash_batch.cc).
struct SimHashDedupArgs {
  // The self-join's: the scheme, k (the candidates': with the second stage
  // the larger of k and k_short), the index k, the memory bound, tmpdir,
  // threads, keep_pairs (set with the second stage), the index strategy.
  DedupOptions dedup;
  int k = Scheme::Default().k();  // the pairs' k (of long documents)
  SecondStageArgs second;  // confirm, k_short, short_length; the run sets the rest
  FingerprintOptions features;
  bool learn_idf = false;
  IdfLearnerOptions learn;  // with learn_idf
  KeepRule keep = KeepRule::kFirst;
  std::vector<const IndexReader*> against;
};

// What a run leaves besides the batch's ids, places and outcomes.
struct SimHashDedupState {
  std::unique_ptr<Deduplicator> dedup;  // its results and (keep_pairs, no second stage) pairs
  std::vector<AcceptedPair> accepted;   // the second stage's pairs, by a then b
  SimHashDedupStats stats;
  std::shared_ptr<const IdfTable> learned_idf;  // with learn_idf
  size_t memory_bytes = 0;  // the bound after the learned table took its bytes
};

// The name messages give index i of args.against ("index 1 to check
// against").
std::string AgainstName(size_t i);

// Reads and fingerprints the documents of *documents (after reading them
// once to learn their idf, with learn_idf) on args.dedup.threads workers,
// de-duplicates them and, with args.second.active(), confirms the pairs
// (the texts read again). batch gets their ids, places, empty reasons and
// skipped records; outcomes one result per document (outcomes->dedup
// points into *state). The indexes' profiles must be the batch's
// (InvalidArgument naming them otherwise). REQUIRES: args resolved from
// options that Validate() accepted; *documents unread; with learn_idf or a
// confirm spec, documents->CanReadAgain().
Status RunSimHashDedup(const SimHashDedupArgs& args, DocumentSource* documents, BatchProgress* progress,
                       DedupBatch* batch, DedupOutcomes* outcomes, SimHashDedupState* state);

// The same over the fingerprints of fingerprint files (no texts: no idf
// pass, no second stage, no scores); each file's profile must be the
// indexes' and the other files'.
Status RunSimHashDedupOfFingerprints(const SimHashDedupArgs& args, const std::vector<std::string>& paths,
                                     bool skip_bad, BatchProgress* progress, DedupBatch* batch,
                                     DedupOutcomes* outcomes, SimHashDedupState* state);

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_SIMHASH_DEDUP_H_
