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
#ifndef SIMDEX_EVAL_H_
#define SIMDEX_EVAL_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/confirm.h"
#include "simdex/fingerprint.h"
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
// ignored). A line that is not such an object is an InvalidArgument naming
// file and line; a missing file is an IOError.
Status ReadLabelledSet(const std::string& path, std::vector<LabelledDocument>* out);

// Parses a fingerprint configuration: comma-separated words, the first the
// tokenizer ("words", "chars<N>" for character N-grams, "shingles<N>" for
// word N-grams, "default" for the library's defaults, or "python-simhash"
// alone), then any of the weighting ("tf",
// "binary", "log-tf"), "stop" (the built-in English and Chinese stop words)
// or "no-stop", and "no-normalize". Unnamed options keep the library's
// defaults. Example: "chars3,log-tf,no-stop". InvalidArgument otherwise.
Status ParseEvalConfig(std::string_view spec, FingerprintOptions* out);

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

}  // namespace simdex

#endif  // SIMDEX_EVAL_H_
