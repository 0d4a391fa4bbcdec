// Batch jobs over documents, as the simdex command runs them, for every
// front end (the command, Python in process, the C API): the documents read
// from files or given as texts, worked on by a pool of threads, with
// bounded memory (what does not fit spills to a temporary directory).
//
//   MinHashDedupOptions options;                 // the command's defaults
//   options.threads = 4;
//   std::unique_ptr<MinHashDedupResult> result;
//   Status s = DeduplicateByMinHash(DocumentFiles{{"docs.jsonl"}}, options, nullptr, &result);
//   for (uint64_t o = 0; o < result->size(); ++o) ... result->Record(o) ...
//   s = result->WriteRecords("dedup.jsonl", {});  // what `simdex dedup -o` writes
//
// SimHash is the same with SimHashDedupOptions and DeduplicateBySimHash;
// both results are BatchDedupResults, which write the command's files.
//
// BatchProgress: what a long job reports as it runs, for a front end to
// show (the command's progress line; Python's callbacks). Its calls come
// from the thread that runs the job, between pieces of work: an
// implementation may be slow to draw, never to return.
#ifndef SIMDEX_BATCH_H_
#define SIMDEX_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/dedup.h"
#include "simdex/document_reader.h"
#include "simdex/fingerprint.h"
#include "simdex/idf_learner.h"
#include "simdex/index.h"
#include "simdex/lsh_index.h"
#include "simdex/minhash.h"
#include "simdex/minhash_join.h"
#include "simdex/status.h"

namespace simdex {

class BatchProgress {
 public:
  virtual ~BatchProgress() = default;
  // Documents read so far, and the bytes of input they took (decompressed).
  virtual void Update(uint64_t documents, uint64_t bytes) = 0;
  // A stage after the reading: "joining 1000000 documents", "confirming pairs".
  virtual void Update(std::string_view status) = 0;
};

// A BatchProgress that reports nothing.
class NoProgress : public BatchProgress {
 public:
  void Update(uint64_t, uint64_t) override {}
  void Update(std::string_view) override {}
};

// Documents read from files as `simdex dedup` reads them: JSON Lines or one
// document per line, .gz, .zst and .bz2 decompressed; ordinal ids
// (lines, IdMode::kOrdinal) continue from one file to the next.
struct DocumentFiles {
  std::vector<std::string> paths;  // "-": standard input (read once: no confirmation, no snippets)
  // Each path's format; empty: by its name (DocumentFormatFromPath).
  std::vector<DocumentFormat> formats;
  std::string id_field = "id";
  std::vector<std::string> text_fields;  // JSONL fields joined by newlines; empty: {"text"}
  IdMode id_mode = IdMode::kField;
  // Skip and count bad records (BatchDedupResult::skipped) instead of
  // stopping at the first.
  bool skip_bad = false;
  // JSONL: the numeric field KeepRule::kField ranks representatives by.
  std::string score_field;
  // JSONL: a field whose text names each document in WritePairs and
  // WriteClusters ("title"; "" for none). It is not read with the texts
  // but when those files are written, from the files read again: nothing
  // is kept for it during the run. A missing or null field gives "", and
  // no value makes a record bad (DocumentReaderOptions::title_field).
  std::string title_field;
};

// The directory a batch job spills to: tmpdir, else $TMPDIR (when set and
// not empty), else /tmp (the options' tmpdir "" is this).
std::string SpillDirectory(const std::string& tmpdir);

// Which document represents its cluster: the first in input order, the
// longest text (CodePointLength), or the largest score (a missing one is
// the smallest); the first among equals.
enum class KeepRule { kFirst, kLongest, kField };

// The one spelling of a keep rule, as `simdex dedup --keep`, `simdex serve
// --keep`, Python's keep= and Dask's take it: "first", "longest" or
// "max:FIELD" (kField, ranked by the numeric JSONL field FIELD, set in
// *field; "" for the others). InvalidArgument naming the spec otherwise.
Status ParseKeepRule(std::string_view spec, KeepRule* rule, std::string* field);
// The spec of a rule (ParseKeepRule's inverse): "first", "longest",
// "max:<field>".
std::string KeepRuleSpec(KeepRule rule, std::string_view field = "");

// The second stage's figures: candidate pairs confirmed on their texts.
struct ConfirmationStats {
  uint64_t candidates = 0;     // pairs the first stage found
  uint64_t in_range = 0;       // of those, within their pair's distance (SimHash's k_short)
  uint64_t confirmed = 0;      // accepted
  double seconds_texts = 0;    // reading the candidates' texts again
  // The documents whose texts were read again; 0 when none was needed
  // (MinHash's exact check with the signing's shingle hashes kept within
  // the memory bound).
  uint64_t texts_read_again = 0;
  double seconds_confirm = 0;  // the confirmer
  uint64_t bytes_spilled = 0;  // shingle hashes past the memory bound, written to tmpdir
};

// The outcome of a batch de-duplication, of either method
// (MinHashDedupResult, SimHashDedupResult): each document's id and place
// by ordinal (input order, from 0), the bad records skipped, the check of
// the ids, and the files `simdex dedup` writes. Each method's result adds
// its records, pairs and figures. Not thread-safe.
class BatchDedupResult {
 public:
  virtual ~BatchDedupResult();

  uint64_t size() const;
  // The document's id: a number, or (JSONL string ids) a string; as JSON
  // text ("7", "\"a-1\"").
  bool IdIsString(uint64_t ordinal) const;
  uint64_t IdNumber(uint64_t ordinal) const;
  std::string_view IdString(uint64_t ordinal) const;
  void AppendIdJson(uint64_t ordinal, std::string* out) const;
  // Where the document was read: "<input>:<line>".
  std::string Place(uint64_t ordinal) const;
  // Why an empty document (never clustered, never a duplicate) is empty:
  // "no-text", "no-features", "all-stop-words", "zero-weight" (SimHash's
  // EmptyReasonName), a fingerprint file's reason, or MinHash's "no-text"
  // (no shingles); "" for the others.
  std::string_view EmptyReason(uint64_t ordinal) const;

  // Bad records skipped (DocumentFiles::skip_bad), and the first of their
  // errors (up to five).
  uint64_t skipped() const;
  const std::vector<std::string>& first_errors() const;

  // OK when every document has an id of its own; else InvalidArgument
  // naming the first repeated id and both its places, and `how_to_allow`
  // (what the caller's option to keep them is called). The run checks it
  // unless allow_duplicate_ids; a caller that allows them may check later.
  Status CheckIdsAreUnique(std::string_view how_to_allow) const;

  // The files `simdex dedup` writes (docs/dedup.md, "Output"), each under
  // a temporary name renamed into place ("-": standard output):
  // one JSON line per document ({"id","cluster","duplicate", then
  // "distance" (SimHash) or "estimate" (MinHash), "against"?,"empty"?};
  // against_names names the `against` indexes, one each);
  Status WriteRecords(const std::string& path, const std::vector<std::string>& against_names) const;
  // the pairs (read once: InvalidArgument without keep_pairs, or once
  // read), with "a_title" and "b_title" under DocumentFiles::title_field
  // (the clustered documents' titles are read again from the files first,
  // and held while the pairs are written: at most 163 bytes of text each);
  Status WritePairs(const std::string& path);
  // the ids of the documents that are not duplicates;
  Status WriteKeepList(const std::string& path) const;
  // the clusters of two or more, with snippet_words words of each
  // member's text when the documents can be read again (its first words,
  // or from where the members differ when their first words are the
  // same), and its "title" under DocumentFiles::title_field (docs/dedup.md,
  // "Output").
  Status WriteClusters(const std::string& path, int snippet_words) const;

 protected:
  struct Rep;  // engine/pipeline/batch_result.h
  explicit BatchDedupResult(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;

 private:
  friend class MinHashDedupRunner;
  friend class SimHashDedupRunner;
};

// MinHash-LSH de-duplication (docs/minhash.md): every document's signature
// of its word 5-shingles (character 5-shingles for unspaced text), the band
// self-join over the batch's distinct signatures, the estimate filter on
// b-bit signatures, the confirmation of the pairs kept on their texts,
// clusters (connected components of the pairs confirmed) with a
// representative each. The defaults are `simdex dedup`'s.
struct MinHashDedupOptions {
  double threshold = kDefaultMinHashThreshold;  // the Jaccard similarity of a duplicate, in (0, 1]
  // Exact (the default): every pair the estimate keeps is confirmed by the
  // exact Jaccard similarity of the two texts' shingles (those the
  // signatures are made of: the truth's word 5-shingles,
  // "jaccard-shingles:<threshold>") against the threshold, so that every
  // pair reported is at or above it; the candidates come from bands and an
  // estimate filter chosen below it (ExactCandidateBands,
  // ExactEstimateFilter), so that few pairs at or above it are missed. The
  // texts are read again: files, not standard input. false: the b-bit
  // estimate decides, two standard errors below the threshold
  // (DefaultLshBands, DefaultEstimateFilter; `simdex dedup --approximate`).
  bool exact = true;
  int num_perm = kDefaultNumPerm;  // values per signature, 1..kMaxNumPerm
  uint64_t seed = kDefaultMinHashSeed;
  // How spaced text is cut into words for the shingles (include/simdex/
  // shingles.h): the signatures' and the exact check's, and a confirm
  // spec's "jaccard-shingles" without a definition of its own. Unset: the
  // first `against` index's (an index keeps the definition it was built
  // with), else ShingleOptions' default.
  std::optional<ShingleWords> shingle_words;
  // {0, 0}: ExactCandidateBands(threshold, num_perm), or (not exact)
  // DefaultLshBands(threshold, num_perm).
  LshBands bands;
  int signature_bits = kDefaultSignatureBits;  // bits of each value the estimate keeps: 1, 2, 4, 8, 16, 32
  // Band candidates whose b-bit estimate is below this are dropped: a J
  // in [0, 1] (0 keeps every candidate), or negative for
  // ExactEstimateFilter(threshold, num_perm) (not exact:
  // DefaultEstimateFilter). An `against` index's match needs
  // DefaultEstimateFilter in either mode (its texts are not at hand).
  double estimate_filter = -1;
  // Confirms each pair kept on the two texts by this ParseConfirmSpec spec
  // ("jaccard-shingles:0.9", "edit:0.8") instead of the exact mode's;
  // with exact false and "", nothing is confirmed.
  std::string confirm;
  KeepRule keep = KeepRule::kFirst;
  bool keep_pairs = false;  // MinHashDedupResult::ForEachPair and WritePairs
  // Two documents with one id are refused (InvalidArgument naming both
  // places) unless this is set.
  bool allow_duplicate_ids = false;
  int threads = 1;
  // The memory bound: a quarter for the documents' band keys, a quarter
  // for their b-bit signatures, half for the join and then the pairs; what
  // does not fit spills to tmpdir ("": $TMPDIR, else /tmp). At least
  // kMinHashMinMemoryBytes.
  size_t memory_bytes = size_t{1} << 30;
  std::string tmpdir;
  // Indexes of signatures made as the batch's (same num_perm and seed:
  // their profile is checked). A document whose best match in them (the
  // highest estimate at least the estimate filter, the first index among
  // equals) exists is a duplicate. They must outlive the call.
  std::vector<const LshIndexReader*> against;

  // InvalidArgument naming the first field out of range.
  Status Validate() const;
  // The options the batch is signed with: num_perm, seed and shingle_words
  // as resolved above.
  MinHashOptions Signing() const;
};

// The exact mode's candidates (MinHashDedupOptions::exact): bands chosen
// for threshold - 0.1 (21 x 6 for 0.8 and 128 values: a pair at 0.8 is a
// candidate 998 times in 1,000), and an estimate filter three standard
// errors below the threshold (0.694 for 0.8 and 128 values).
LshBands ExactCandidateBands(double threshold, int num_perm);
double ExactEstimateFilter(double threshold, int num_perm);

// The smallest MinHashDedupOptions::memory_bytes: twice the join's least.
inline constexpr size_t kMinHashMinMemoryBytes = 2 * kMinBandJoinMemoryBytes;

struct MinHashDedupStats {
  uint64_t documents = 0;
  uint64_t empty = 0;               // without shingles: never banded, never a duplicate
  uint64_t distinct_signatures = 0;
  uint64_t candidates = 0;          // pairs of distinct signatures sharing a band
  uint64_t kept = 0;                // of those, through the estimate filter
  uint64_t document_pairs = 0;      // document pairs before confirmation (identical signatures included)
  uint64_t clusters = 0;
  uint64_t clustered_documents = 0;
  // Documents Record() marks duplicate: not their cluster's representative,
  // or with a match in an `against` index (what the keep list leaves out;
  // SimHash's DedupStats::duplicates).
  uint64_t duplicates = 0;
  uint64_t against_duplicates = 0;  // documents with a match in an `against` index
  uint64_t bytes_spilled = 0;       // keys, signatures, sort runs written to tmpdir
  LshBands bands;                   // the bands used
  double estimate_filter = 0;       // the filter used (0: off)
  double seconds_join = 0;          // the band self-join
  double seconds_filter = 0;        // the estimate filter
  ConfirmationStats confirm;        // with a confirm spec
};

// One document's outcome, by ordinal (input order, from 0).
struct MinHashDedupRecord {
  uint64_t representative = 0;  // its cluster's representative's ordinal (itself when alone or empty)
  bool duplicate = false;       // not the representative, or an `against` index holds a match
  bool empty = false;           // no shingles
  // The estimated J with the representative (1 for itself), as the
  // command prints it (six significant digits); 0 when empty.
  float estimate = 0;
  int against_index = -1;       // the matching `against` index's number; -1 for none
  uint64_t against_id = 0;      // the matched document's id number in that index
  float against_estimate = 0;
};

// A pair kept (MinHashDedupOptions::keep_pairs): ordinals a < b, the
// estimate of their J, and with a confirm spec the confirmed similarity
// (-1 without).
struct MinHashDedupPair {
  uint64_t a = 0, b = 0;
  float estimate = 0;
  float similarity = -1;
};

class MinHashDedupResult : public BatchDedupResult {
 public:
  ~MinHashDedupResult() override;

  MinHashDedupRecord Record(uint64_t ordinal) const;
  const MinHashDedupStats& stats() const;
  // Calls fn with every pair, by a then b; stops at fn's first error.
  // InvalidArgument without keep_pairs; the pairs are read once (here or
  // by WritePairs).
  Status ForEachPair(const std::function<Status(const MinHashDedupPair&)>& fn);

 private:
  friend class MinHashDedupRunner;
  struct State;
  MinHashDedupResult(std::unique_ptr<Rep> rep, std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// De-duplicates the documents of `files`, or the texts given (document i:
// id i, text texts[i], score scores[i]; scores empty or of texts' size; the
// texts must outlive *out when it confirms or writes clusters). options are
// validated first (InvalidArgument); after that, an error is the input's
// (Corruption, InvalidArgument naming the file and line) or the system's
// (IOError). progress may be null.
Status DeduplicateByMinHash(const DocumentFiles& files, const MinHashDedupOptions& options, BatchProgress* progress,
                            std::unique_ptr<MinHashDedupResult>* out);
Status DeduplicateByMinHash(std::span<const std::string_view> texts, std::span<const double> scores,
                            const MinHashDedupOptions& options, BatchProgress* progress,
                            std::unique_ptr<MinHashDedupResult>* out);

// SimHash de-duplication (docs/dedup.md): every document's 64-bit
// fingerprint of its weighted features (include/simdex/fingerprint.h), or
// the fingerprints of fingerprint files; every pair within Hamming distance
// k (inclusive) by a self-join over permuted sorted tables (Deduplicator,
// include/simdex/dedup.h); optionally the pairs confirmed on their texts;
// clusters (connected components of the pairs) with a representative each,
// and each document's nearest entry within k of stored indexes. The
// defaults are `simdex dedup --method simhash`'s.
struct SimHashDedupOptions {
  // How a text becomes a fingerprint (tokenizer, normalization, stop
  // words, weights, idf table, seed): the command's text options, whose
  // defaults FingerprintOptions() holds. Fingerprint files ignore it.
  FingerprintOptions features;
  // Weigh by the idf learned from the batch itself (`--idf auto`): a first
  // pass reads every document to count its features (the texts are read
  // twice: files, not standard input), within memory_bytes; the table then
  // takes its bytes (at most half) from the bound of what follows.
  // REQUIRES: features.weighting kTfIdf or kLogTfIdf, features.idf null,
  // features.compat kNone.
  bool learn_idf = false;
  // With learn_idf: learned idf values above this are this
  // (IdfLearnerOptions::max_idf, `--idf-cap`); infinity: none.
  double max_idf = std::numeric_limits<double>::infinity();
  // The largest Hamming distance of a pair of near-duplicates, 0..64; -1:
  // 3, the scheme's k when a scheme is named, or kSimHashExactConfirmK when
  // confirm is "jaccard-shingles:T" and no scheme is named.
  int k = -1;
  // The tables of the self-join (Scheme::Parse: "t4", "t10", "t20",
  // "W,W,...:K"); "": t10, or a scheme covering the larger of k and
  // k_short when that is above 3 (Scheme::Covering).
  std::string scheme;
  // Confirms each pair on the two texts before it counts (ParseConfirmSpec:
  // "jaccard-shingles:0.8", "edit:0.9"); "" for none. Clusters are then
  // made of the pairs confirmed. The texts are read again: files, not
  // standard input.
  std::string confirm;
  // The k of a pair with a document shorter than short_length code points,
  // 0..64; -1: k. The self-join runs at the larger of the two, and a pair
  // counts within its own k (then confirmed, with a confirm spec).
  int k_short = -1;
  uint32_t short_length = kDefaultShortLength;
  KeepRule keep = KeepRule::kFirst;
  bool keep_pairs = false;  // SimHashDedupResult::ForEachPair and WritePairs
  // Two documents with one id are refused (InvalidArgument naming both
  // places) unless this is set.
  bool allow_duplicate_ids = false;
  int threads = 1;
  // The memory bound of the self-join's sorts and then of the confirmation
  // (shingle hashes) and the id check; what does not fit spills to tmpdir
  // ("": $TMPDIR, else /tmp). At least 64 KiB (128 KiB with learn_idf).
  size_t memory_bytes = size_t{1} << 30;
  std::string tmpdir;
  // Indexes of fingerprints of the batch's profile. A document whose
  // fingerprint has an entry within the index k of one of them (k when it
  // is given, else the named scheme's k, else 3; never confirmed: an index
  // holds no texts) is a duplicate, and its nearest entry is reported
  // (smallest distance, then first index, then smallest id). They must
  // outlive the call.
  std::vector<const IndexReader*> against;
  AgainstStrategy against_strategy = AgainstStrategy::kAuto;

  // InvalidArgument naming the first field out of range, a scheme that
  // cannot be parsed or does not reach k, a confirm spec that cannot be
  // parsed, or an index whose scheme does not reach the index k or whose
  // profile is not the batch's (known before the run unless learn_idf).
  Status Validate() const;
};

// The k of the pairs under confirm "jaccard-shingles:T" without k or a
// scheme: confirmed F1 against the Jaccard truth rises from k = 3 to 8 on
// every corpus of docs/quality.md; k = 10 gains more, at a self-join many
// times slower on the boilerplate-heavy corpus.
inline constexpr int kSimHashExactConfirmK = 8;

struct SimHashDedupStats {
  // The self-join and the index check (Deduplicator::stats()): under
  // confirmation or k_short, of the candidate pairs.
  DedupStats join;
  ConfirmationStats confirm;  // with confirm or k_short
  uint64_t duplicates = 0;    // documents Record() marks duplicate
  // The distances used: the pairs' k, the k of pairs with a short document,
  // the self-join's (the larger of the two with confirm or k_short), the
  // index k; and the self-join's tables (Scheme::Name).
  int k = 0;
  int k_short = 0;
  int join_k = 0;
  int against_k = 0;
  std::string scheme;
  // learn_idf: the first pass's figures, the learned table's bytes and the
  // pass's seconds.
  IdfLearnerStats idf;
  uint64_t idf_table_bytes = 0;
  double seconds_idf = 0;
  double seconds_read = 0;  // reading and fingerprinting (or reading fingerprint files)
};

// One document's outcome (Deduplicator's): its representative, its
// distance to it, its nearest index entry.
using SimHashDedupRecord = DedupResult;

// A pair kept (SimHashDedupOptions::keep_pairs): ordinals a < b, their
// distance, and with a confirm spec the confirmed similarity as the command
// prints it (six significant digits; -1 without).
struct SimHashDedupPair {
  uint64_t a = 0, b = 0;
  int distance = 0;
  float similarity = -1;
};

class SimHashDedupResult : public BatchDedupResult {
 public:
  ~SimHashDedupResult() override;

  SimHashDedupRecord Record(uint64_t ordinal) const;
  const SimHashDedupStats& stats() const;
  // The table learn_idf learned (null without): the one to fingerprint
  // other texts with, to compare them with this batch.
  std::shared_ptr<const IdfTable> learned_idf() const;
  // Calls fn with every pair, by a then b; stops at fn's first error.
  // InvalidArgument without keep_pairs; the pairs are read once (here or
  // by WritePairs).
  Status ForEachPair(const std::function<Status(const SimHashDedupPair&)>& fn);

 private:
  friend class SimHashDedupRunner;
  struct State;
  SimHashDedupResult(std::unique_ptr<Rep> rep, std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// Fingerprint files (include/simdex/fingerprint_file.h, text or binary), as
// `simdex dedup` reads them: each entry a document, in order.
struct FingerprintFiles {
  std::vector<std::string> paths;  // "-": standard input
  bool skip_bad = false;           // skip and count bad lines (BatchDedupResult::skipped)
};

// De-duplicates the documents of `files`, the texts given (document i: id
// i, text texts[i], score scores[i]; scores empty or of texts' size; the
// texts must outlive *out when it confirms or writes clusters), or the
// fingerprints of fingerprint files (no texts: options that need them are
// refused, and the files' profiles must agree with each other and with the
// indexes'). options are validated first (InvalidArgument); after that, an
// error is the input's (Corruption, InvalidArgument naming the file and
// line, or a profile that differs) or the system's (IOError). progress may
// be null.
Status DeduplicateBySimHash(const DocumentFiles& files, const SimHashDedupOptions& options, BatchProgress* progress,
                            std::unique_ptr<SimHashDedupResult>* out);
Status DeduplicateBySimHash(std::span<const std::string_view> texts, std::span<const double> scores,
                            const SimHashDedupOptions& options, BatchProgress* progress,
                            std::unique_ptr<SimHashDedupResult>* out);
Status DeduplicateBySimHash(const FingerprintFiles& files, const SimHashDedupOptions& options,
                            BatchProgress* progress, std::unique_ptr<SimHashDedupResult>* out);

}  // namespace simdex

#endif  // SIMDEX_BATCH_H_
