// Confirming near-duplicates by an exact similarity of their texts: the
// second stage of de-duplication for short texts (docs/quality.md).
//
// SimHash fingerprints narrow the candidates (pairs within some distance);
// a Confirmer then decides each candidate pair from the texts themselves:
//
//   kJaccard:      |A ∩ B| / |A ∪ B| of the two texts' shingle sets, where
//                  a shingle is n consecutive words (ICU words, as the
//                  fingerprints' words tokenizer), n consecutive code
//                  points (letters, marks and numbers only, as the char
//                  n-gram tokenizer), or the Jaccard truth's shingle
//                  (ShingleUnit::kTruthShingles), after NFKC + case folding.
//                  Shingles are compared by their 64-bit XXH3 hashes: each
//                  text becomes its sorted distinct hashes, and two sorted
//                  lists are merged to count the shared ones (exact on the
//                  hashes; include/simdex/eval.h bounds the collisions).
//   kEditDistance: 1 - d / max(|a|, |b|), d the Levenshtein distance of the
//                  two texts as code points, after NFKC + case folding and
//                  with every run of white space made one space (leading and
//                  trailing white space dropped).
//
// A pair is confirmed iff its similarity is >= threshold. Two texts without
// shingles (or both empty for kEditDistance) have similarity 0: empty texts
// confirm nothing.
//
//   ConfirmOptions options;
//   ParseConfirmSpec("jaccard:0.5", &options);   // or set the fields
//   std::unique_ptr<Confirmer> confirmer;
//   Confirmer::Create(options, &confirmer);
//   bool same = confirmer->Confirms(text_a, text_b);
//
// PairClusters groups documents by the pairs a caller accepted (after
// confirmation) into clusters with one representative each, as
// Deduplicator does for pairs of fingerprints.
#ifndef SIMDEX_CONFIRM_H_
#define SIMDEX_CONFIRM_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/shingles.h"
#include "simdex/status.h"

namespace simdex {

enum class ConfirmMeasure {
  kJaccard,
  kEditDistance,
};

enum class ShingleUnit {
  kWords,       // n consecutive ICU words
  kCodePoints,  // n consecutive letters, marks or numbers
  // The shingles of `simdex eval --truth jaccard` (ShingleMaker in
  // include/simdex/shingles.h, word_n = char_n = n, words by
  // ConfirmOptions::words): n words for spaced text, n code points without
  // the spaces for unspaced text (Chinese, Japanese, Thai, ...). With n = 5
  // the confirmer's similarity is the truth's Jaccard.
  kTruthShingles,
};

struct ConfirmOptions {
  ConfirmMeasure measure = ConfirmMeasure::kJaccard;
  ShingleUnit unit = ShingleUnit::kCodePoints;
  // Shingle length, 1..16; a text shorter than n gives one shingle of all
  // of it.
  int n = 3;
  // Smallest similarity (inclusive) that confirms a pair; 0..1.
  double threshold = 0.5;
  // kTruthShingles: how spaced text is cut into words.
  ShingleWords words = ShingleOptions{}.words;
};

// Parses "jaccard:T" (shingles of 3 code points), "jaccard-chars:T" (the
// same), "jaccard-words:T" (shingles of 2 words), "jaccard-shingles:T" (the
// Jaccard truth's shingles of 5 words, or of 5 code points for unspaced
// text) or "edit:T", with T a number in [0, 1], and an optional shingle
// length after the measure ("jaccard-chars4:0.6", "jaccard-words3:0.5",
// "jaccard-shingles5:0.8"); jaccard-shingles takes the word definition
// after a slash ("jaccard-shingles/space-split:0.8",
// "jaccard-shingles5/word-chars:0.8"; without one ShingleOptions'
// default). InvalidArgument naming the spec otherwise; *out is untouched
// then.
Status ParseConfirmSpec(std::string_view spec, ConfirmOptions* out);
// The spec ParseConfirmSpec would read back ("jaccard-chars3:0.5"; the
// word definition of jaccard-shingles named when it is not the default).
std::string ConfirmSpecName(const ConfirmOptions& options);

// Thread safety: a Confirmer holds ICU iterators and scratch buffers and is
// NOT safe for concurrent use; Clone() one per thread.
class Confirmer {
 public:
  // Validates the options (n in 1..16, threshold in [0, 1]); prepares ICU.
  static Status Create(const ConfirmOptions& options, std::unique_ptr<Confirmer>* out);
  ~Confirmer();
  std::unique_ptr<Confirmer> Clone() const;
  const ConfirmOptions& options() const;

  // The similarity of two UTF-8 texts, in [0, 1] (invalid UTF-8 is
  // replaced by U+FFFD first). Symmetric; 1 for equal non-empty texts.
  double Similarity(std::string_view a, std::string_view b);
  // Similarity(a, b) >= threshold. May stop early when the lengths alone
  // rule the pair out (the answer is the same).
  bool Confirms(std::string_view a, std::string_view b);

  // For comparing a text with many others without shingling it each time
  // (the Jaccard measures): replaces *out with the sorted distinct shingle
  // hashes of the UTF-8 text. JaccardOfShingles of two such lists equals
  // Similarity of the two texts. REQUIRES: options().measure == kJaccard.
  void Shingles(std::string_view text, std::vector<uint64_t>* out);
  // |a ∩ b| / |a ∪ b| of two sorted lists of distinct hashes, by one merge
  // (O(|a| + |b|)); 0 when both are empty.
  static double JaccardOfShingles(std::span<const uint64_t> a, std::span<const uint64_t> b);

 private:
  struct Rep;
  explicit Confirmer(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// Clusters of documents from accepted pairs: the connected components.
// Each cluster's representative is its document with the largest score, the
// smallest ordinal among equals (Deduplicator's rule).
//
// Thread safety: one thread.
class PairClusters {
 public:
  // `documents` ordinals 0..documents-1; scores per ordinal, or empty for
  // all 0 (the first document of each cluster represents it).
  // REQUIRES: scores is empty or holds `documents` values.
  PairClusters(uint64_t documents, std::vector<double> scores);
  ~PairClusters();

  // Accepts the pair (a, b). REQUIRES: a, b < documents; Finish() not called.
  void Add(uint64_t a, uint64_t b);
  // Chooses the representatives. REQUIRES: called once, after every Add().
  void Finish();

  // REQUIRES: Finish() called; ordinal < documents.
  uint64_t Representative(uint64_t ordinal) const;
  // Clusters of two or more documents, and the documents in them.
  uint64_t clusters() const { return clusters_; }
  uint64_t clustered_documents() const { return clustered_; }

 private:
  uint64_t Find(uint64_t x);
  std::vector<uint64_t> parent_;
  std::vector<double> scores_;
  std::vector<uint64_t> representative_;
  uint64_t clusters_ = 0;
  uint64_t clustered_ = 0;
};

}  // namespace simdex

#endif  // SIMDEX_CONFIRM_H_
