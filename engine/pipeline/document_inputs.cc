// The batch jobs of include/simdex/document_inputs.h: DocumentInputs
// (document_files.h) on the worker pipeline (batch_pipeline.h).
#include "simdex/document_inputs.h"

#include <functional>
#include <memory>

#include "engine/pipeline/batch_pipeline.h"
#include "engine/pipeline/document_files.h"
#include "engine/pipeline/idf_pass.h"

namespace simdex {

namespace {

using pipeline::DocumentBatch;
using pipeline::DocumentInputs;

void SetStats(const DocumentInputs& inputs, uint64_t documents, DocumentFilesStats* stats) {
  stats->documents = documents;
  stats->bytes = inputs.bytes_read();
  stats->skipped = inputs.skipped();
  stats->first_errors = inputs.first_errors();
  stats->blank_lines = inputs.blank_lines();
}

std::span<const Document> DocumentsOf(const DocumentBatch& b) { return {b.docs.data(), b.size}; }

// Runs the pipeline (batch_pipeline.h) over the documents of files, on
// `threads` of make_worker's workers: sink gets each batch in input order,
// progress the documents it took and the bytes read.
Status RunJob(const DocumentFiles& files, int threads, BatchProgress* progress,
              const pipeline::WorkerFactory& make_worker, const pipeline::BatchSink& sink, DocumentFilesStats* stats) {
  DocumentInputs inputs(files);
  uint64_t documents = 0;  // taken by the sink: the calling thread's
  auto source = [&inputs](DocumentBatch* b, bool* eof) { return inputs.Fill(b, eof); };
  auto counted = [&](const DocumentBatch& b) {
    SIMDEX_RETURN_IF_ERROR(sink(b));
    documents += b.size;
    return Status::OK();
  };
  auto tick = [&] {
    if (progress != nullptr) progress->Update(documents, inputs.bytes_read());
  };
  SIMDEX_RETURN_IF_ERROR(pipeline::RunWorkerPipeline(threads, source, make_worker, counted, tick));
  SetStats(inputs, documents, stats);
  return Status::OK();
}

}  // namespace

Status ForEachDocument(const DocumentFiles& files, const std::function<Status(const Document&)>& fn,
                       DocumentFilesStats* stats) {
  DocumentInputs inputs(files);
  DocumentBatch batch;
  uint64_t documents = 0;
  for (bool eof = false; !eof;) {
    batch.size = 0;
    SIMDEX_RETURN_IF_ERROR(inputs.Fill(&batch, &eof));
    for (size_t i = 0; i < batch.size; ++i) SIMDEX_RETURN_IF_ERROR(fn(batch.docs[i]));
    documents += batch.size;
  }
  SetStats(inputs, documents, stats);
  return Status::OK();
}

Status FingerprintDocuments(const DocumentFiles& files, const Fingerprinter& fingerprinter, int threads,
                            BatchProgress* progress,
                            const std::function<Status(const FingerprintedDocuments&)>& sink,
                            DocumentFilesStats* stats) {
  auto fingerprinted = [&sink](const DocumentBatch& b) {
    return sink(FingerprintedDocuments{DocumentsOf(b), {b.results.data(), b.size}});
  };
  return RunJob(files, threads, progress, pipeline::FingerprintWorkers(fingerprinter), fingerprinted, stats);
}

Status SignDocuments(const DocumentFiles& files, const MinHashOptions& options, int threads,
                     BatchProgress* progress, const std::function<Status(const SignedDocuments&)>& sink,
                     DocumentFilesStats* stats) {
  std::unique_ptr<MinHasher> prototype;
  SIMDEX_RETURN_IF_ERROR(MinHasher::Create(options, &prototype));
  const size_t num_perm = static_cast<size_t>(prototype->num_perm());
  const pipeline::WorkerFactory make_worker = [&]() -> pipeline::WorkerWork {
    std::shared_ptr<MinHasher> hasher = prototype->Clone();
    return [hasher, num_perm](DocumentBatch* b) {
      b->signatures.resize(b->size * num_perm);
      b->has_shingles.resize(b->size);
      if (b->feature_hashes.size() < b->size) b->feature_hashes.resize(b->size);
      for (size_t i = 0; i < b->size; ++i) {
        b->has_shingles[i] = hasher->Sign(b->docs[i].text, b->signatures.data() + i * num_perm,
                                          &b->feature_hashes[i]) != ShingleKind::kNone;
      }
    };
  };
  auto signed_documents = [&sink, num_perm](const DocumentBatch& b) {
    return sink(SignedDocuments{.documents = DocumentsOf(b),
                                .num_perm = num_perm,
                                .signatures = {b.signatures.data(), b.size * num_perm},
                                .has_shingles = {b.has_shingles.data(), b.size},
                                .shingles = {b.feature_hashes.data(), b.size}});
  };
  return RunJob(files, threads, progress, make_worker, signed_documents, stats);
}

Status LearnIdf(const DocumentFiles& files, const FingerprintOptions& options, const IdfLearnerOptions& learn,
                BatchProgress* progress, std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats) {
  NoProgress quiet;
  DocumentInputs documents(files);
  return pipeline::LearnIdf(&documents, options, learn, progress != nullptr ? progress : &quiet, table, stats);
}

}  // namespace simdex
