// Evaluating near-duplicate detection against labelled documents: the
// precision, recall and F1 of pairs per length bucket and per k, for one
// fingerprint configuration (docs/quality.md).
//
// A labelled set is a list of documents, each with a cluster label: two
// documents of one set are near-duplicates (a positive pair) iff they have
// the same cluster; every other pair of the set is a negative. A document
// may name a topic: a negative pair of two documents with the same
// non-empty topic is a hard negative (same template or subject, different
// content), counted on its own as well.
//
// Every pair of a set is predicted positive at k iff both documents have a
// fingerprint, their distance is <= k and, with a Confirmer, the confirmer
// confirms the texts. A pair falls in the length bucket of its shorter text
// (code points). Evaluate() is a brute-force pass over all n(n-1)/2 pairs;
// sets of some thousands of documents take well under a second.
//
// Not installed, and not in libsimdex.so: the evaluation is how the project
// measures itself (`simdex eval`, docs/quality.md), not a product feature.
// It is the library simdex_eval (engine/eval/), which the CLI, the tests
// and the benchmarks link, as the docId service is simdex_service.
#ifndef SIMDEX_EVAL_H_
#define SIMDEX_EVAL_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/confirm.h"
#include "simdex/fingerprint.h"
#include "simdex/minhash.h"
#include "simdex/shingles.h"
#include "simdex/status.h"

namespace simdex {

struct LabelledDocument {
  std::string id;
  std::string text;
  std::string cluster;
  std::string topic;  // empty: none
};

// Reads a labelled set: JSON Lines, one object per document with the string
// fields "id", "text" and "cluster" and optionally "topic" (other fields are
// ignored). With require_cluster false, "cluster" is optional too (empty
// when absent): a batch evaluated against the Jaccard truth needs no labels.
// A line that is not such an object is an InvalidArgument naming file and
// line; a missing file is an IOError.
Status ReadLabelledSet(const std::string& path, std::vector<LabelledDocument>* out, bool require_cluster = true);

// Parses a fingerprint configuration: comma-separated words, the first the
// tokenizer ("words", "chars<N>" for character N-grams, "shingles<N>" for
// word N-grams, "default" for the library's defaults, or "python-simhash"
// alone), then any of the weighting ("tf",
// "binary", "log-tf"), "stop" (the built-in English and Chinese stop words)
// or "no-stop", "no-normalize", "no-clean-text" and "no-cap-numbers" (profile 2's
// text and number weights), "idf-auto" (tf-idf, or log-tf-idf with "log-tf",
// with the idf learned from the set evaluated, as `--idf auto` learns it from
// a batch: the options come back with that weighting and no table, which the
// caller learns; include/simdex/idf_learner.h) and "idf-cap<C>" with it (the
// cap on the learned idf, IdfLearnerOptions::max_idf; C a number > 0),
// "tf-cap<N>" (FingerprintOptions::tf_cap, N > 0) and "max-share<S>"
// (FingerprintOptions::max_share, 0 <= S <= 1, 0 for none). Unnamed options keep the library's defaults. Example: "chars3,log-tf,no-stop".
// InvalidArgument otherwise.
struct EvalConfig {
  FingerprintOptions options;
  double max_idf = std::numeric_limits<double>::infinity();  // "idf-cap<C>"
};
Status ParseEvalConfig(std::string_view spec, EvalConfig* out);

// Counts of one length bucket. Index k of tp, fp and hard_fp counts the
// pairs predicted positive at distance <= k.
struct EvalBucket {
  std::string name;        // "short", "medium", "long", "all"
  uint32_t min_length = 0; // code points of the shorter text, inclusive
  uint32_t max_length = 0; // exclusive; UINT32_MAX: no bound
  uint64_t positives = 0;
  uint64_t negatives = 0;
  uint64_t hard_negatives = 0;
  std::vector<uint64_t> tp, fp, hard_fp;  // max_k + 1 entries each
  // Distances of the pairs whose documents both have a fingerprint.
  double positive_distance_sum = 0;
  uint64_t positive_distance_count = 0;
  double negative_distance_sum = 0;
  uint64_t negative_distance_count = 0;
  // Pairs given to the confirmer, and those it confirmed.
  uint64_t confirm_calls = 0;
  uint64_t confirmed = 0;

  double Precision(int k) const;  // tp / (tp + fp); 1 when nothing is predicted
  double Recall(int k) const;     // tp / positives; 1 when there are no positives
  double F1(int k) const;         // harmonic mean; 0 when both are 0
};

struct EvalOptions {
  // Bucket bounds in code points: {140, 500} gives < 140, 140-499, >= 500.
  std::vector<uint32_t> bounds = {140, 500};
  int max_k = 8;  // REQUIRES: 0..64
  // Optional second stage: a pair within k counts only if confirmed. Not
  // owned; used by one thread.
  Confirmer* confirmer = nullptr;
};

// Evaluates one set: fingerprints[i] is document i's result under the
// configuration evaluated. *out gets one bucket per range and a last one,
// "all", summing them. REQUIRES: fingerprints.size() == documents.size().
Status Evaluate(std::span<const LabelledDocument> documents, std::span<const FingerprintResult> fingerprints,
                const EvalOptions& options, std::vector<EvalBucket>* out);

// Adds the counts of `from` to `into` bucket by bucket. REQUIRES: both come
// from Evaluate with the same options.
void AddBuckets(const std::vector<EvalBucket>& from, std::vector<EvalBucket>* into);

// ---------------------------------------------------------------------------
// The field's pairwise truth: exact Jaccard similarity of shingle sets
// (docs/quality.md, "The pairwise truth"). No labels are needed: a pair is a
// near-duplicate when J >= 0.8; a reported pair below 0.8 is a false
// positive (Scoring::kStrict), or, leniently, only one below 0.5.
//
// A text's set is its shingle hashes (ShingleMaker, include/simdex/shingles.h).
// J(A, B) = |A ∩ B| / |A ∪ B| of those hash sets; J = 0 when either is
// empty. Computed on hashes, J differs from J on the shingles themselves
// only where two distinct shingles collide: with s distinct shingles in a
// batch, the expected number of colliding shingle pairs is s^2 / 2^65
// (5 x 10^-7 for s = 10^8: far below one changed pair in any batch here).

// A pair of documents (a < b, indexes into the batch) and its shingle counts.
struct JaccardPair {
  uint32_t a = 0;
  uint32_t b = 0;
  uint32_t intersection = 0;  // shingles in both
  uint32_t union_size = 0;    // shingles in either
  double jaccard() const { return union_size == 0 ? 0.0 : static_cast<double>(intersection) / union_size; }
};

// Every pair (a < b) of `sets` (each sorted and distinct) whose Jaccard is
// >= min_jaccard, sorted by (a, b); exact, not sampled. An inverted index
// over the shingle hashes enumerates only the pairs that share a shingle
// (the others have J = 0), and counts each pair's intersection exactly: the
// cost is the sum over shingles of (documents holding it)^2 / 2.
// REQUIRES: 0 < min_jaccard <= 1; sets.size() < 2^32.
Status FindJaccardPairs(std::span<const std::vector<uint64_t>> sets, double min_jaccard,
                        std::vector<JaccardPair>* out);

// How a reported pair counts against the truth: two scorings, both computed
// in every evaluation (TruthBucket).
//   kStrict:  a reported pair is true iff J >= positive, false otherwise
//             (J < positive): the way a user reads "threshold 0.8". The
//             scoring defaults are chosen on (docs/quality.md).
//   kLenient: a reported pair is true iff J >= positive, false iff
//             J < negative; a pair in between (negative <= J < positive) is
//             left out of precision, as the field's benchmarks often do.
// Both have the same positives (J >= positive), so the same recall.
enum class Scoring { kStrict, kLenient };

// How a pair counts against the truth.
struct TruthOptions {
  double positive = 0.8;   // J >= positive: a near-duplicate pair
  double negative = 0.5;   // J < negative: not one; in between: false under Scoring::kStrict, left out under kLenient
  double unrelated = 0.2;  // J < unrelated: clearly unrelated (a subset of the negatives)
  // Length buckets in code points of the pair's shorter text, as EvalOptions.
  std::vector<uint32_t> bounds = {140, 500};
  int max_k = 10;  // REQUIRES: 0..64
  // Optional second stage: a pair within k counts only if confirmed. Not
  // owned; used by one thread.
  Confirmer* confirmer = nullptr;
  // Pairs to list (EvaluateAgainstTruth's `listed`): negative pairs (J <
  // negative, the unrelated among them) within list_negative_within bits and
  // positive pairs farther than list_positive_beyond bits; -1 / 65 lists
  // none (list_positive_beyond -1 lists every positive pair). At most
  // list_limit.
  int list_negative_within = -1;
  int list_positive_beyond = 65;
  size_t list_limit = 100000;
};

// Counts of one length bucket against the truth.
struct TruthBucket {
  std::string name;  // "short", "medium", "long", "all"
  uint32_t min_length = 0;
  uint32_t max_length = 0;  // exclusive; UINT32_MAX: no bound
  uint64_t positives = 0;   // J >= positive
  uint64_t between = 0;     // negative <= J < positive
  uint64_t negatives = 0;   // J < negative
  uint64_t unrelated = 0;   // J < unrelated (also counted in negatives)
  // Distances of the pairs whose documents both have a fingerprint, by
  // class: index d counts the pairs d bits apart (0..64). Empty for
  // predicted pairs (EvaluatePairsAgainstTruth).
  std::vector<uint64_t> positive_distances, between_distances, negative_distances, unrelated_distances;
  // Index k: pairs predicted at <= k (and confirmed, with a confirmer), by
  // class: tp J >= positive, between_predicted negative <= J < positive, fp
  // J < negative, unrelated_predicted J < unrelated (also counted in fp).
  std::vector<uint64_t> tp, fp, between_predicted, unrelated_predicted;
  uint64_t confirm_calls = 0;
  uint64_t confirmed = 0;

  // The false positives at k: fp[k] + between_predicted[k] under kStrict,
  // fp[k] under kLenient.
  uint64_t FalsePositives(int k, Scoring scoring) const;
  // tp / (tp + FalsePositives); 1 when nothing counted is predicted.
  double Precision(int k, Scoring scoring) const;
  double Recall(int k) const;  // tp / positives, under both scorings; 1 when there are no positives
  double F1(int k, Scoring scoring) const;  // harmonic mean; 0 when both are 0
  // Of unrelated_distances; NaN when it is empty. The median is the lower
  // median (distances are integers).
  double MeanUnrelatedDistance() const;
  double MedianUnrelatedDistance() const;
};

// A pair listed for inspection.
struct ListedPair {
  uint32_t a = 0, b = 0;
  int distance = 0;
  double jaccard = 0;
};

// Scores SimHash fingerprints against the truth: every pair of the batch
// (n(n-1)/2), its class from `truth` (which must list every pair with
// J >= options.unrelated, as FindJaccardPairs(sets, min <= unrelated) does;
// unlisted pairs have J < unrelated) and its distance. *out gets one bucket
// per length range and a last one, "all". `listed` (optional) gets the
// pairs options ask for, in (a, b) order.
// REQUIRES: texts.size() == fingerprints.size(); truth sorted by (a, b).
Status EvaluateAgainstTruth(std::span<const std::string_view> texts, std::span<const FingerprintResult> fingerprints,
                            std::span<const JaccardPair> truth, const TruthOptions& options,
                            std::vector<TruthBucket>* out, std::vector<ListedPair>* listed = nullptr);

// Scores a set of predicted pairs (a < b, sorted, distinct) against the
// truth, as EvaluateAgainstTruth does with every predicted pair at distance
// 0 and every other pair out of reach: the counts are at index k = 0 only
// (max_k and the confirmer of options are not used).
Status EvaluatePairsAgainstTruth(std::span<const std::string_view> texts, std::span<const uint64_t> predicted,
                                 std::span<const JaccardPair> truth, const TruthOptions& options,
                                 std::vector<TruthBucket>* out);

// A pair (a < b) packed for EvaluatePairsAgainstTruth: a in the high 32 bits.
inline uint64_t PackPair(uint32_t a, uint32_t b) { return (static_cast<uint64_t>(a) << 32) | b; }

// Reads pairs reported by some run on a set's documents, e.g. `simdex dedup
// --pairs`: JSON Lines, one object per pair with the ids of its documents in
// "a" and "b" (a JSON string, or a number matching an id's decimal text;
// other fields are ignored), as PackPair of their places in docs, sorted and
// distinct (a pair given twice, or as (b, a), counts once): what
// EvaluatePairsAgainstTruth scores. InvalidArgument naming the file and line
// for a line that is not such an object, an id docs does not hold, a pair
// of one document, or docs holding one id twice; IOError for a file that
// cannot be read. REQUIRES: docs.size() < 2^32.
Status ReadReportedPairs(const std::string& path, std::span<const LabelledDocument> docs, std::vector<uint64_t>* out);

// `simdex eval --truth jaccard` over one set: its truth, and every row
// the options ask for scored against it.
struct TruthEvalOptions {
  // The SimHash fingerprint configurations scored, each a row, by the name
  // its row carries (the ParseEvalConfig spec it came from).
  std::vector<std::string> config_names;
  std::vector<EvalConfig> configs;  // REQUIRES: config_names.size() entries
  std::string confirm;  // the spec of the confirmer passed (ParseConfirmSpec), named in the rows; "" for none
  ShingleOptions shingles;  // the truth's shingles
  TruthOptions truth;       // its confirmer is the one EvaluateSetAgainstTruth is given
  // The MinHash-LSH baseline (BaselineMinHash, LshCandidatePairs) on the
  // truth's shingle sets: two rows, its band candidates and those its
  // estimate keeps at baseline_threshold.
  bool baseline = false;
  // simdex's MinHash-LSH on the same sets, as `simdex dedup --method
  // minhash` runs it: four rows ("none", "estimate", "exact", "default";
  // engine/eval/truth_rows.cc says which is which).
  bool minhash = false;
  int signature_bits = kDefaultSignatureBits;  // the estimate filter's b-bit signatures (minhash)
  int num_perm = kDefaultNumPerm;              // both; 1..1024
  double baseline_threshold = kDefaultMinHashThreshold;
  // {0, 0}: OptimalLshBands(baseline_threshold, num_perm) for the
  // baseline, DefaultLshBands for simdex's; else both, bands * rows <=
  // num_perm.
  LshBands bands;
  uint64_t seed = kDefaultMinHashSeed;
  // Files of pairs some run reported on the set (`simdex dedup --pairs`),
  // each scored as it is, a row of its own (ReadReportedPairs).
  std::vector<std::string> reported;
  bool list = false;         // fill TruthEvalOutput::listed
  bool truth_pairs = false;  // fill TruthEvalOutput::truth_pairs
};

// What one set's evaluation appends (engine/eval/truth_rows.cc gives the
// lines' fields).
struct TruthEvalOutput {
  std::string rows;         // JSON lines: the truth's, then one per row scored
  std::string listed;       // with list: the pairs TruthOptions lists, per configuration
  std::string truth_pairs;  // with truth_pairs: {"set","a","b","jaccard"} for each pair at J >= positive
  std::string summary;      // one text line per row scored, strict scoring first
};

// Reads the set (ReadLabelledSet; clusters are not needed), finds its
// truth (FindJaccardPairs over ShingleMaker sets), scores each row and
// appends the lines to *out. confirmer (may be null) is the second stage of
// the SimHash rows, made from options.confirm. Errors: reading the set or
// a reported file, a document over 2 GiB (InvalidArgument naming it), and
// the options the parts refuse.
Status EvaluateSetAgainstTruth(const std::string& set, const TruthEvalOptions& options, Confirmer* confirmer,
                               TruthEvalOutput* out);

// out[i] = the fingerprint of texts[i] under config.options; an idf
// weighting without a table (the configuration "idf-auto") learns the table
// from the texts first (spilling to SpillDirectory("")), capped at
// config.max_idf. Errors: Fingerprinter::Create's and IdfLearner's.
Status FingerprintAll(const EvalConfig& config, std::span<const std::string_view> texts,
                      std::vector<FingerprintResult>* out);

// ---------------------------------------------------------------------------
// BASELINE, not a product feature: MinHash-LSH as the field runs it, for
// comparison in `simdex eval --baseline` and docs/quality.md. The same
// shingle sets as the truth; num_perm independent min-hashes; b bands of r
// rows; candidates are the pairs that share a band's bucket; optionally
// only candidates whose estimated Jaccard reaches the threshold are kept.

// The hash family: h_i(x) = (a_i * (x mod p) + b_i) mod p with p = 2^61 - 1,
// a_i in [1, p) and b_i in [0, p) drawn from SplitMix64(seed); a signature
// holds min over the set of h_i for i < num_perm. An empty set's signature
// is all UINT64_MAX (never a min-hash value), and is never banded.
class BaselineMinHash {
 public:
  // REQUIRES: 1 <= num_perm <= 1024.
  static Status Create(int num_perm, uint64_t seed, std::unique_ptr<BaselineMinHash>* out);
  int num_perm() const { return static_cast<int>(a_.size()); }
  // Writes num_perm() values to signature.
  void Sign(std::span<const uint64_t> shingles, uint64_t* signature) const;
  // The share of equal positions of two signatures: the estimate of J.
  static double Estimate(const uint64_t* x, const uint64_t* y, int num_perm);

 private:
  std::vector<uint64_t> a_, b_;
};

// Bands and rows: LshBands and OptimalLshBands (include/simdex/minhash.h).

// The candidate pairs of signatures (n x num_perm values, row-major): every
// pair whose r values of some band are all equal, packed (PackPair), sorted
// and distinct. REQUIRES: bands * rows <= num_perm.
Status LshCandidatePairs(std::span<const uint64_t> signatures, int num_perm, LshBands bands,
                         std::vector<uint64_t>* out);

}  // namespace simdex

#endif  // SIMDEX_EVAL_H_
