// The idf pass (engine/pipeline/idf_pass.h).
#include "engine/pipeline/idf_pass.h"

#include <algorithm>

#include "engine/io/input_stream.h"
#include "engine/pipeline/batch_pipeline.h"

namespace simdex::pipeline {

Status CheckTwoPasses(const DocumentFiles& files, const std::string& what) {
  for (const std::string& path : files.paths) {
    if (io::CanReadTwice(path)) continue;
    return Status::InvalidArgument(what + " reads the documents twice: give files, not " +
                                   (path == "-" ? std::string("standard input") : path + " (not a regular file)"));
  }
  return Status::OK();
}

Status LearnIdf(DocumentSource* documents, const FingerprintOptions& options, const IdfLearnerOptions& learn,
                BatchProgress* progress, std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats) {
  std::unique_ptr<IdfLearner> learner;
  SIMDEX_RETURN_IF_ERROR(IdfLearner::Create(options, learn, &learner));
  // The pipeline's reader and workers, each worker finding the documents'
  // features with its own clone of the learner's fingerprinter; the
  // learner counts them in input order.
  const BatchSource source = [documents](DocumentBatch* b, bool* eof) { return documents->Fill(b, eof); };
  const WorkerFactory features = [&learner]() -> WorkerWork {
    std::shared_ptr<Fingerprinter> f = learner->features().Clone();
    return [f](DocumentBatch* b) {
      b->feature_hashes.resize(std::max(b->feature_hashes.size(), b->size));
      for (size_t i = 0; i < b->size; ++i) f->FeatureHashes(b->docs[i].text, &b->feature_hashes[i]);
    };
  };
  const BatchSink count = [&](const DocumentBatch& b) {
    for (size_t i = 0; i < b.size; ++i) SIMDEX_RETURN_IF_ERROR(learner->AddFeatureHashes(b.feature_hashes[i]));
    return Status::OK();
  };
  const Tick tick = [progress] { progress->Update("learning idf (first pass)"); };
  tick();
  SIMDEX_RETURN_IF_ERROR(RunWorkerPipeline(learn.threads, source, features, count, tick));
  SIMDEX_RETURN_IF_ERROR(learner->Finish(table));
  *stats = learner->stats();
  return Status::OK();
}

}  // namespace simdex::pipeline
