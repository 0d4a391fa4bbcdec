// What a BatchDedupResult (include/simdex/batch.h) holds for both methods:
// the documents (to read again), their ids, places and outcomes, the pairs
// (read once), and what the result files need of the `against` indexes.
// Each method's runner fills it, and keeps its own state (the pairs' store,
// its figures) in its derived result.
#ifndef SIMDEX_ENGINE_PIPELINE_BATCH_RESULT_H_
#define SIMDEX_ENGINE_PIPELINE_BATCH_RESULT_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/pipeline/confirm_pairs.h"
#include "engine/pipeline/dedup_records.h"
#include "engine/pipeline/document_files.h"
#include "engine/pipeline/document_source.h"
#include "simdex/batch.h"
#include "simdex/status.h"

namespace simdex {

struct BatchDedupResult::Rep {
  // Files: what `documents` reads (again); it refers to this, which must
  // therefore stay where it is (the Rep is never moved).
  DocumentFiles input;
  // The documents, read again for titles and snippets; null for
  // fingerprint files, which hold no texts.
  std::unique_ptr<pipeline::DocumentSource> documents;
  pipeline::DedupBatch batch;
  pipeline::DedupOutcomes outcomes;
  // The pairs kept, to be read once; null without keep_pairs, and once
  // read. pairs_read (may be null) is called after they are read: it frees
  // them and counts what they spilled in the method's figures.
  pipeline::PairSource pairs;
  std::function<void()> pairs_read;
  // The `against` indexes: how many, and their ids as JSON.
  size_t against = 0;
  pipeline::AppendIndexId against_ids;
  // The id check's memory bound, spill directory and threads.
  size_t memory_bytes = size_t{1} << 30;
  std::string tmpdir;
  int threads = 1;

  // A Rep whose documents are those of the files or, files null, the texts
  // (which the caller keeps; InvalidArgument unless scores is empty or one
  // per text).
  static Status Of(const DocumentFiles* files, std::span<const std::string_view> texts,
                   std::span<const double> scores, std::unique_ptr<Rep>* out);

  // The end of a run of options o (either method's): the id check's
  // memory bound, spill directory and threads, the indexes checked against
  // (for WriteRecords; they must outlive this), then the id check unless
  // o.allow_duplicate_ids.
  template <class Options>
  Status Finish(const Options& o, size_t memory, std::string dir) {
    memory_bytes = memory;
    tmpdir = std::move(dir);
    threads = o.threads;
    against = o.against.size();
    against_ids = pipeline::IndexIds(o.against);
    return o.allow_duplicate_ids ? Status::OK() : CheckIds("allow_duplicate_ids keeps every document");
  }
  // CheckIdsAreUnique (pipeline/duplicate_ids.h) of the batch.
  Status CheckIds(std::string_view how_to_allow) const {
    return pipeline::CheckIdsAreUnique(batch.ids, batch.places, memory_bytes, tmpdir, threads, how_to_allow);
  }

  // Calls fn with every pair kept, then pairs_read; InvalidArgument when
  // there are none to read.
  Status ReadPairs(const pipeline::PairVisitor& fn);
};

}  // namespace simdex

#endif  // SIMDEX_ENGINE_PIPELINE_BATCH_RESULT_H_
