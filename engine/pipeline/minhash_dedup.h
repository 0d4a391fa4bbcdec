// `simdex dedup --method minhash` (docs/minhash.md): every document's
// MinHash signature (include/simdex/minhash.h) made on the worker threads,
// the band self-join over the batch's distinct signatures
// (include/simdex/minhash_join.h), the estimate filter on b-bit signatures,
// an optional exact confirmation from the texts (--confirm), and clusters
// with a representative each, in the terms `simdex dedup` writes
// (engine/pipeline/dedup_records.h).
#ifndef SIMDEX_ENGINE_PIPELINE_MINHASH_DEDUP_H_
#define SIMDEX_ENGINE_PIPELINE_MINHASH_DEDUP_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "simdex/batch.h"
#include "simdex/lsh_index.h"
#include "simdex/minhash.h"
#include "simdex/minhash_join.h"
#include "simdex/status.h"
#include "engine/pipeline/confirm_pairs.h"
#include "engine/pipeline/dedup_records.h"
#include "engine/pipeline/document_source.h"
#include "engine/pipeline/sorted_pairs.h"

namespace simdex::pipeline {

// The pipeline's arguments, made from MinHashDedupOptions (include/simdex/
// batch.h), whose defaults they start from.
struct MinHashDedupArgs {
  double threshold = kDefaultMinHashThreshold;  // the J a pair must reach; REQUIRES: 0 < threshold <= 1
  MinHashOptions signing;  // the documents are signed with these
  LshBands bands;  // {0, 0}: DefaultLshBands(threshold, num_perm)
  int signature_bits = kDefaultSignatureBits;
  bool estimate_filter = true;  // keep candidates whose b-bit estimate >= estimate_threshold
  double estimate_threshold = 0;  // the callers default it to DefaultEstimateFilter(threshold, num_perm)
  // --memory and --tmpdir: a quarter of the bound for the documents' band
  // keys, a quarter for their b-bit signatures, half for the join
  // (docs/minhash.md, "Memory and spilling"); what does not fit spills to
  // tmpdir. At least kMinHashMinMemoryBytes.
  size_t memory_bytes = size_t{1} << 30;
  std::string tmpdir = "/tmp";
  // --against: MinHash-LSH indexes whose signatures are made as the
  // batch's (the callers check their profiles). Each document is queried
  // in every one on the signing threads; its best match (highest estimate,
  // at least the estimate filter, or any band candidate with the filter
  // off; the first index among equals) makes it a duplicate.
  std::vector<const LshIndexReader*> against;
  // The least estimate of an `against` match; negative: the estimate
  // filter's (estimate_threshold, or 0 with the filter off).
  double against_min_estimate = -1;
  // Where an `against` index stores sketches and the documents' texts are
  // in hand: the least sketch estimate of a match (LshQueryOptions::
  // min_sketch_estimate; negative: against_min_estimate's rule), and
  // whether the signature estimate decides all the same (--approximate).
  double against_min_sketch_estimate = -1;
  bool against_approximate = false;
};

// InvalidArgument naming the first argument out of range (by its field
// name; the command checks its flags first, naming them).
Status CheckMinHashDedupArgs(const MinHashDedupArgs& args);

// Reads, signs (on `threads` workers) and de-duplicates the documents
// (and queries args.against; outcomes->against_estimates then holds each
// document's estimate with its index match).
// batch gets their ids, places and empty ones; outcomes one result per
// document (replaced, and estimates: each document's estimated J with its
// representative); with keep_pairs, *pairs the document pairs (a < b, by a
// then b) with their estimates (and similarities under confirm), sorted
// within half the memory bound and spilled past it (engine/pipeline/sorted_pairs.h;
// the join's half, free by then). The candidate pairs are made as they are
// confirmed or sorted, never held. The arguments are checked first
// (CheckMinHashDedupArgs); after that, an error is the input's or the
// system's, never the command line's. The output does not depend on the
// memory bound.
Status RunMinHashDedup(const MinHashDedupArgs& args, DocumentSource* documents, int threads, KeepRule score_by,
                       const std::string& confirm, bool keep_pairs, BatchProgress* progress, DedupBatch* batch,
                       DedupOutcomes* outcomes, std::unique_ptr<SortedPairs>* pairs, MinHashDedupStats* stats);

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_MINHASH_DEDUP_H_
