// The documents of files (DocumentFiles, include/simdex/batch.h), read as
// the simdex command reads them, and the batch jobs over them that are not
// de-duplications: fingerprints (`simdex fingerprint`), MinHash signatures
// (`simdex fingerprint --method minhash`, `build`, `query` and `merge` of a
// MinHash-LSH index) and the idf of the batch's features (`--idf auto`,
// `simdex idf`).
//
//   std::vector<BatchFormat> formats;
//   std::vector<std::string> notes;  // for the user: inputs judged by content
//   Status s = ChooseBatchFormats(paths, "", &formats, &notes);
//   DocumentFiles files{paths};      // the formats, as DocumentFormat
//   DocumentFilesStats stats;
//   s = FingerprintDocuments(files, *fingerprinter, 4, nullptr,
//                            [&](const FingerprintedDocuments& b) { ...; return Status::OK(); }, &stats);
//
// The jobs read on one thread, work on `threads` workers and hand the
// documents back in input order, in batches, on the calling thread; at
// most 4 batches per worker are in memory at once. A job returns the first
// error: the reading's (an input that cannot be opened, or a bad record
// without DocumentFiles::skip_bad: Corruption or InvalidArgument naming the
// file and line; IOError), else the sink's, which ends it.
#ifndef SIMDEX_DOCUMENT_INPUTS_H_
#define SIMDEX_DOCUMENT_INPUTS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/batch.h"
#include "simdex/document_reader.h"
#include "simdex/fingerprint.h"
#include "simdex/idf_learner.h"
#include "simdex/minhash.h"
#include "simdex/status.h"

namespace simdex {

// What each input holds, decided once before anything is read, as the
// command decides it: `forced` ("jsonl", "lines" or "fingerprints": the
// command's --format) for every input; else the name (without .gz, .zst,
// .bz2: .jsonl, .json and .ndjson are JSONL, .fp and .fpb fingerprint
// files); else the content (DetectBatchFormat: standard input, "docs.txt").
// For each input the content decided to be JSONL or fingerprints, *notes
// gets "<input>: read as <what> (judged by its content; --format chooses)".
// A MinHash signature file (by its content) is InvalidArgument naming it,
// unless allow_signatures: then kSignatures. Errors: DetectBatchFormat's.
// REQUIRES: forced is "", "jsonl", "lines" or "fingerprints".
Status ChooseBatchFormats(const std::vector<std::string>& paths, std::string_view forced,
                          std::vector<BatchFormat>* formats, std::vector<std::string>* notes,
                          bool allow_signatures = false);

// What a job read: documents (bad records skipped are not documents), their
// bytes (decompressed), and the bad records skipped under
// DocumentFiles::skip_bad with the first of their errors (up to five).
// Set when the job returns OK.
struct DocumentFilesStats {
  uint64_t documents = 0;
  uint64_t bytes = 0;
  uint64_t skipped = 0;
  std::vector<std::string> first_errors;
  uint64_t blank_lines = 0;  // JSONL lines holding only white space (DocumentReaderStats')
};

// Calls fn with each document of files, in order, on the calling thread;
// stops at fn's first error, which it returns.
Status ForEachDocument(const DocumentFiles& files, const std::function<Status(const Document&)>& fn,
                       DocumentFilesStats* stats);

// A batch of documents, in input order, with each one's fingerprint.
struct FingerprintedDocuments {
  std::span<const Document> documents;
  std::span<const FingerprintResult> results;  // results[i]: documents[i]'s
};

// Fingerprints the documents of files with clones of `fingerprinter` on
// `threads` workers and calls sink with them (above). progress (may be
// null) gets the documents the sink has taken and the bytes read, after
// each batch and every 100 ms while the sink waits. REQUIRES: threads >= 1.
Status FingerprintDocuments(const DocumentFiles& files, const Fingerprinter& fingerprinter, int threads,
                            BatchProgress* progress,
                            const std::function<Status(const FingerprintedDocuments&)>& sink,
                            DocumentFilesStats* stats);

// A batch of documents, in input order, with each one's MinHash signature
// and its shingle set.
struct SignedDocuments {
  std::span<const Document> documents;
  size_t num_perm = 0;
  std::span<const uint32_t> signatures;  // num_perm values per document
  // Whether documents[i] has shingles; without, its signature is
  // meaningless (a `simdex query` reports it "no-text").
  std::span<const uint8_t> has_shingles;
  // documents[i]'s distinct shingle hashes (MinHasher::Sign's), for an
  // index's sketches.
  std::span<const std::vector<uint64_t>> shingles;

  const uint32_t* signature(size_t i) const { return signatures.data() + i * num_perm; }
};

// Signs the documents of files with MinHashers made with `options` on
// `threads` workers and calls sink with them (above). progress (may be
// null) as FingerprintDocuments'. InvalidArgument for options that
// MinHasher::Create refuses. REQUIRES: threads >= 1.
Status SignDocuments(const DocumentFiles& files, const MinHashOptions& options, int threads,
                     BatchProgress* progress, const std::function<Status(const SignedDocuments&)>& sink,
                     DocumentFilesStats* stats);

// The first pass of `--idf auto` and `simdex idf`: reads every document of
// files and learns the idf of their features under options (tokenizer,
// normalization, stop words, seed; IdfLearner::Create's errors) within
// learn.memory_bytes, each document's features found on learn.threads
// workers. progress (may be null) is told "learning idf (first pass)".
// The files are read once here: a caller that reads them again after
// checks that it can (CanReadTwice, include/simdex/front_end_text.h).
Status LearnIdf(const DocumentFiles& files, const FingerprintOptions& options, const IdfLearnerOptions& learn,
                BatchProgress* progress, std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats);

}  // namespace simdex

#endif  // SIMDEX_DOCUMENT_INPUTS_H_
