// Works on a stream of documents on several threads and hands the results
// back in input order: fingerprints (FingerprintWorkers), or any other work
// on the documents' texts (signatures, the feature hashes of the idf pass).
//
//   reader thread: source() fills batches of documents
//   N workers:     each works on whole batches with state of its own (such
//                  as its own Clone() of the prototype Fingerprinter)
//   calling thread: sink() receives the batches in the order source() made
//                  them; tick() is called after each batch and every 100 ms
//                  while waiting, for progress
//
// At most 4 batches per worker are in memory at once. Batches are recycled,
// so documents' text buffers are reused.
#ifndef SIMDEX_ENGINE_PIPELINE_BATCH_PIPELINE_H_
#define SIMDEX_ENGINE_PIPELINE_BATCH_PIPELINE_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "simdex/document_reader.h"
#include "simdex/fingerprint.h"
#include "simdex/lsh_index.h"
#include "simdex/status.h"

namespace simdex::pipeline {

struct DocumentBatch {
  std::vector<Document> docs;  // docs[0, size) are this batch's documents
  size_t size = 0;
  std::vector<FingerprintResult> results;  // results[i] for docs[i]
  // feature_hashes[i]: the distinct feature hashes of docs[i], for work
  // that finds them (Fingerprinter::FeatureHashes; MinHash index work: its
  // shingle set, for its sketch).
  std::vector<std::vector<uint64_t>> feature_hashes;
  // MinHash work (engine/pipeline/minhash_dedup.h): per document, its band keys and
  // packed signature (a fixed number of each per document) and whether it
  // has shingles.
  std::vector<uint64_t> band_keys;
  std::vector<uint8_t> packed_signatures;
  std::vector<uint8_t> has_shingles;
  // MinHash index work (`simdex build --method minhash`, `fingerprint
  // --method minhash`): each document's whole signature, num_perm values
  // per document.
  std::vector<uint32_t> signatures;
  // `dedup --method minhash --against`: each document's best index match.
  std::vector<LshBestMatch> index_matches;
};

// Fills batch->docs[0, batch->size) (reusing the Document objects present,
// adding more as needed) and sets *eof when the input is exhausted; a batch
// may be both non-empty and last. Called on the reader thread only.
using BatchSource = std::function<Status(DocumentBatch* batch, bool* eof)>;
// Called on the calling thread, in input order.
using BatchSink = std::function<Status(const DocumentBatch& batch)>;
using Tick = std::function<void()>;

// One worker's work on a batch, with state of its own; a factory makes one
// per worker thread (called on the calling thread, before the workers start).
using WorkerWork = std::function<void(DocumentBatch* batch)>;
using WorkerFactory = std::function<WorkerWork()>;

// Runs the pipeline to the end of the input or to the first error, which is
// returned (a source error, else a sink error), each worker doing its own
// make_worker()'s work. REQUIRES: threads >= 1.
Status RunWorkerPipeline(int threads, const BatchSource& source, const WorkerFactory& make_worker,
                         const BatchSink& sink, const Tick& tick);
// Workers that each fingerprint every document into the batch's results
// with their own Clone() of the prototype (which must outlive them).
WorkerFactory FingerprintWorkers(const Fingerprinter& prototype);

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_BATCH_PIPELINE_H_
