// Learning idf weights from the batch being fingerprinted (`--idf auto`,
// `simdex idf`): text that much of the batch repeats (a licence, a footer,
// a navigation bar) gets a small weight, so that unrelated documents sharing
// it are no longer near each other (docs/fingerprint.md, "IDF learned from
// the batch").
//
// A first pass counts, for every feature of the fingerprint options (after
// normalization and stop words, as Fingerprint() weighs them), the number of
// documents that hold it, df, exactly: each document's distinct feature
// hashes go to an external sorter (engine/util/external_sorter.h) bounded
// by half of memory_bytes, which spills sorted runs to tmpdir when they do
// not fit; the sorted stream gives each hash's df. AddBatch() finds the
// features of several documents on `threads` threads (the sorter takes them
// in whatever order they come; the counts, and so the table, are the same
// for every number of threads). With N the documents added (empty ones
// included):
//
//   idf(f) = ln((N + 1) / df(f))   for a feature two or more documents hold,
//   idf    = ln(N + 1)             for a feature one document holds, and for
//                                  one the batch never held (default_idf).
//
// The + 1 keeps a feature held by every document at a small positive weight,
// so that a batch of one document, or of copies of one, still gets
// fingerprints. The table keeps 16 bytes (hash, idf) per feature held by two
// or more documents, in the other half of memory_bytes.
//
// With a cap (IdfLearnerOptions::max_idf = C), every idf above C is C: the
// features fewer than (N + 1) / e^C documents hold weigh alike, and only
// those a larger share of the batch repeats weigh less (C = ln 2: those more
// than half the documents hold). The table then keeps only the features
// below the cap, and default_idf is min(ln(N + 1), C).
//
//   std::unique_ptr<IdfLearner> learner;
//   IdfLearner::Create(options, {.memory_bytes = 1 << 30, .tmpdir = "/tmp"}, &learner);
//   for (doc : batch) learner->Add(doc.text);
//   std::shared_ptr<const IdfTable> idf;
//   learner->Finish(&idf);
//   options.weighting = Weighting::kTfIdf;
//   options.idf = idf;  // then fingerprint the batch again
#ifndef SIMDEX_IDF_LEARNER_H_
#define SIMDEX_IDF_LEARNER_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "simdex/fingerprint.h"
#include "simdex/status.h"

namespace simdex {

struct IdfLearnerOptions {
  // Bound on the learner's memory: half for the sorter, half for the table.
  // REQUIRES: at least 128 KiB.
  size_t memory_bytes = size_t{256} << 20;
  // Existing directory for the sorter's spilled runs.
  std::string tmpdir = "/tmp";
  // Threads of AddBatch() (each holds one document's feature hashes at a
  // time, besides its Fingerprinter clone) and of the sorter's in-memory
  // sorts. REQUIRES: >= 1.
  int threads = 1;
  // The cap on idf values (above); infinity: none. REQUIRES: > 0.
  double max_idf = std::numeric_limits<double>::infinity();
};

struct IdfLearnerStats {
  uint64_t documents = 0;           // N
  uint64_t document_features = 0;   // distinct features per document, summed
  uint64_t features = 0;            // distinct features of the batch
  uint64_t kept = 0;                // held by two or more documents, idf below the cap: in the table
  uint64_t capped = 0;              // held by two or more documents, idf at the cap: not in the table
  uint64_t runs_spilled = 0;        // the sorter's
  uint64_t bytes_spilled = 0;
};

// The bytes a learned table holds in memory (16 per feature): what it takes
// from the memory bound of the work that follows the pass
// (SimHashDedupStats::idf_table_bytes, the commands' summaries).
inline size_t IdfTableBytes(const IdfTable& table) {
  return table.hash_entries().size() * sizeof(std::pair<uint64_t, double>);
}

// Thread safety: one thread calls it (AddBatch() runs its own threads).
class IdfLearner {
 public:
  // The options' tokenizer, normalization, stop words and seed decide the
  // features (their weighting is not used). The python-simhash profile has
  // no idf weighting: NotSupported. A bad memory bound or tmpdir is an error
  // naming it.
  static Status Create(const FingerprintOptions& options, const IdfLearnerOptions& learn,
                       std::unique_ptr<IdfLearner>* out);
  ~IdfLearner();

  // Counts one document. REQUIRES: Finish() not called.
  Status Add(std::string_view utf8_text);
  // Counts each of the documents, as Add() does, with their features found
  // on up to options.threads threads. REQUIRES: Finish() not called.
  Status AddBatch(std::span<const std::string_view> utf8_texts);
  // Counts one document whose features were found elsewhere (on the
  // caller's threads): `distinct` is what FeatureHashes() of a clone of
  // features() gives for its text. REQUIRES: Finish() not called.
  Status AddFeatureHashes(std::span<const uint64_t> distinct);
  // The Fingerprinter whose FeatureHashes() Add() counts (the options'
  // features, tf weights); Clone() it for other threads.
  const Fingerprinter& features() const;
  // Ends the pass; *table is keyed by feature hash under the options' seed
  // (IdfTable::FromHashes). A table larger than half the memory bound is an
  // InvalidArgument naming both sizes. REQUIRES: called once.
  Status Finish(std::shared_ptr<const IdfTable>* table);
  const IdfLearnerStats& stats() const;

 private:
  struct Rep;
  explicit IdfLearner(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// Writes a learned table as the `term<TAB>idf` file IdfTable::Load reads
// (so that a service can load what a batch learned): a `#default-idf` line,
// then one line per feature of the table, in the order the documents first
// hold them. The table holds hashes only, so the features' texts come from
// the documents, given again in any order. Loaded with the same options,
// the file gives the same weights as the table, for every feature whose
// text can be written on a line of its own; a feature whose text holds a
// tab, a line break or leading or trailing blanks, or starts with '#', is
// left out and counted (it then weighs default_idf). Thread safety: one thread.
class IdfTermWriter {
 public:
  // REQUIRES: table keyed by hash, under options.seed (IdfLearner's).
  static Status Create(const FingerprintOptions& options, std::shared_ptr<const IdfTable> table,
                       std::unique_ptr<IdfTermWriter>* out);
  ~IdfTermWriter();
  // Appends the head of the file: comments naming the batch, and the
  // #default-idf line.
  void Head(uint64_t documents, std::string* out) const;
  // Appends the lines of the table's features this document holds that no
  // earlier document gave.
  void Add(std::string_view utf8_text, std::string* out);
  uint64_t written() const;
  uint64_t left_out() const;

 private:
  struct Rep;
  explicit IdfTermWriter(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex

#endif  // SIMDEX_IDF_LEARNER_H_
