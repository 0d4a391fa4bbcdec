// SimHash fingerprints of text: start here to turn documents into 64-bit
// fingerprints whose Hamming distance tracks how near-duplicate they are.
//
// Pipeline (docs/fingerprint.md walks through it with an example):
//   UTF-8 text -> cleaned (optional, on by default: markup removed, character
//                 references and percent-escapes decoded, URLs made host and
//                 path words, e-mail addresses one word)
//     -> (invalid sequences replaced by U+FFFD and counted)
//     -> NFKC + case folding (optional, on by default)
//     -> features: ICU words (CJK by dictionary), character n-grams, or word n-grams
//     -> stop words dropped (optional)
//     -> weights: tf (default), binary, log-tf, tf-idf, log-tf-idf; a word without a
//        letter (a number) counts once (optional, on by default); tf capped
//        at tf_cap (optional, off) and each weight at max_share of the
//        total (optional, 0.1 by default)
//     -> XXH3-64(feature UTF-8 bytes, seed) per feature
//     -> sum of +w / -w per bit -> bit i set iff sum_i > 0 (bit 0 = least significant).
//
// A document with no features gets no fingerprint: it is reported as empty
// with a reason, never given a constant that would match every other empty
// document.
#ifndef SIMDEX_FINGERPRINT_H_
#define SIMDEX_FINGERPRINT_H_

#include <bit>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "simdex/status.h"

namespace simdex {

// Version of the default fingerprint profile: the fingerprints that
// FingerprintOptions() gives (tokenizer, normalization, stop words, weights,
// feature hash, seed and combine). It is raised whenever a change of a
// default, or of the code, changes the fingerprint of any text: fingerprints,
// indexes and service state made under another version are not comparable
// with new ones. docs/fingerprint.md ("Changelog of the defaults") lists the
// versions; tests/golden/fingerprints_v<version>.tsv pins the fingerprints
// of this one, from a reference written apart from the engine.
inline constexpr int kDefaultFingerprintProfileVersion = 4;

// Number of differing bits: popcount(a XOR b).
inline int HammingDistance(uint64_t a, uint64_t b) { return std::popcount(a ^ b); }

// The largest weight a feature may be given (an idf value, a default idf,
// a weight passed to Fingerprinter::FromFeatures). A document's per-bit sum
// adds at most 2^64 occurrences' weights (counts are 64-bit), so with every
// weight at most 1e288 no sum exceeds 2^64 x 1e288 = 1.8e307, a tenth of
// the largest double: a sum never overflows to infinity (which, opposed by
// another, made NaN and a fingerprint of zero bits). docs/fingerprint.md,
// step 5 (weights).
inline constexpr double kMaxFeatureWeight = 1e288;

// The one rule for every weight the caller supplies, wherever it comes from
// (idf files, idf tables, Python, the service's options, FromFeatures): a
// finite number from 0 to kMaxFeatureWeight. OK, or InvalidArgument
// "<what> is <weight>: a weight must be a finite number from 0 to 1e+288",
// where `what` names it ("idf of 'apache'", "a.idf:3: #default-idf").
Status CheckWeight(double weight, std::string_view what);

// One hashed feature and its weight.
struct WeightedHash {
  uint64_t hash;
  double weight;
};

// The weighted combine at the heart of SimHash (Charikar 2002). For each bit
// position i < bits: sum_i = sum over features of (+weight if bit i of the
// hash is 1, else -weight); bit i of the result is 1 iff sum_i > 0. Bits at
// positions >= bits are 0. If sums is not null it receives the `bits` sums,
// sums[i] for bit i (bit 0 = least significant).
// REQUIRES: 1 <= bits <= 64. The weights are used as given: weights that
// CheckWeight() refuses may make a sum infinite or NaN (a bit of 0).
uint64_t CombineWeightedHashes(std::span<const WeightedHash> hashes, int bits = 64,
                               std::vector<double>* sums = nullptr);

// A feature given by the caller, with its weight (the "build_by_features"
// case: {"Apache", 20}, {"hadoop", 25}).
struct WeightedFeature {
  std::string text;
  double weight;
};

enum class Tokenizer {
  kWords,       // ICU word break iterator; CJK by dictionary; punctuation and space dropped
  kCharNgrams,  // overlapping n-grams of code points, white space and punctuation removed
  kWordNgrams,  // overlapping n-word shingles over the kWords tokens
};

enum class Weighting {
  kTermFrequency,  // weight = count of the feature in the document (the source documents' choice)
  kBinary,         // weight = 1 for every distinct feature
  kLogTf,          // weight = 1 + ln(count)
  kTfIdf,          // weight = count * idf(feature); needs FingerprintOptions::idf
  kLogTfIdf,       // weight = (1 + ln(count)) * idf(feature); needs FingerprintOptions::idf
};

enum class Compat {
  kNone,
  // Reproduces the fingerprints of the Python `simhash` package
  // (Simhash(text).value and Simhash(features).value); see docs/fingerprint.md.
  // Ignores tokenizer, normalization, stop words, weighting and seed.
  kPythonSimhash,
};

// Why a document produced no fingerprint.
enum class EmptyReason {
  kNotEmpty = 0,
  kNoText,          // zero bytes, or only white space
  kNoFeatures,      // text, but nothing the tokenizer keeps (punctuation, symbols, too short)
  kAllStopWords,    // every feature was a stop word
  kZeroWeight,      // features exist but all weights are <= 0 (e.g. idf 0)
};
// A short stable name: "no-text", "no-features", "all-stop-words", "zero-weight" ("" for kNotEmpty).
const char* EmptyReasonName(EmptyReason reason);

// idf values loaded from a `term<TAB>idf` file, or learned from a batch
// (include/simdex/idf_learner.h: then keyed by the features' hashes).
class IdfTable {
 public:
  // Reads one `term<TAB>idf` pair per line (UTF-8; blank lines and lines
  // starting with '#' ignored, except one `#default-idf<TAB>X` line, which
  // sets default_idf(): the idf of every term the file does not list).
  // Terms are normalized with `normalize` as the fingerprinter would. A
  // malformed line, an idf CheckWeight() refuses, or a term (after
  // normalization) or #default-idf line given twice is an InvalidArgument
  // naming file and line.
  static Status Load(const std::string& path, bool normalize, IdfTable* out);
  // A table keyed by feature hash (XXH3-64 of the feature with `seed`, as
  // Fingerprinter::FeatureHashes gives them): the idf of the feature of
  // hash h is idf[i].second where idf[i].first == h, else default_idf.
  // REQUIRES: idf sorted by hash, hashes distinct.
  static IdfTable FromHashes(std::vector<std::pair<uint64_t, double>> idf, uint64_t seed, double default_idf);
  // This table keyed by feature hash under `seed` (each term's key XXH3-64
  // of its UTF-8 bytes with seed): the same weights for the features of that
  // seed, and the same ContentHash(seed). A Fingerprinter looks a term table
  // up this way, without keeping each feature's text. REQUIRES: a table keyed
  // by hash is of that seed.
  IdfTable KeyedByHash(uint64_t seed) const;
  void Set(std::string term, double idf);
  // idf of term, or default_idf() when the file does not list it.
  // REQUIRES: !keyed_by_hash().
  double Lookup(std::string_view term) const;
  // True for a table made by FromHashes: LookupHash, under hash_seed().
  bool keyed_by_hash() const;
  uint64_t hash_seed() const;
  double LookupHash(uint64_t hash) const;
  // A FromHashes table's entries, sorted by hash (empty for other tables).
  std::span<const std::pair<uint64_t, double>> hash_entries() const;
  double default_idf() const { return default_idf_; }
  void set_default_idf(double v) { default_idf_ = v; }
  size_t size() const;
  // OK when default_idf() and every idf the table holds pass CheckWeight();
  // else InvalidArgument naming the first one refused (its term, or its
  // feature hash for a table keyed by hash). Fingerprinter::Create checks
  // its idf table with it.
  Status Check() const;
  // XXH3-64 of what the fingerprints of `seed` read from the table: its
  // entries keyed by feature hash (a term's key is XXH3-64 of its UTF-8
  // bytes with `seed`, as a table made by FromHashes is keyed), sorted, with
  // their idf values and default_idf(). A file that `simdex idf` wrote and
  // the table `--idf auto` learned for the same batch hash alike. The
  // profile names the table by it (include/simdex/profile.h).
  uint64_t ContentHash(uint64_t seed) const;

  IdfTable();
  ~IdfTable();
  IdfTable(IdfTable&&) noexcept;
  IdfTable& operator=(IdfTable&&) noexcept;

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
  double default_idf_ = 1.0;
};

// Short built-in stop-word lists: lang is "en" or "zh"; anything else
// returns an empty list.
std::vector<std::string> BuiltinStopWords(std::string_view lang);
// Every built-in list, English then Chinese: FingerprintOptions' default.
std::vector<std::string> DefaultStopWords();

struct FingerprintOptions {
  Compat compat = Compat::kNone;
  Tokenizer tokenizer = Tokenizer::kWords;
  // n for kCharNgrams (code points) and kWordNgrams (words). REQUIRES: 1..16.
  int ngram = 3;
  // NFKC normalization followed by case folding (so full-width/half-width
  // and case variants give the same features).
  bool normalize = true;
  // Step 0 of docs/fingerprint.md, before decoding: HTML/XML markup (tags,
  // comments, script and style elements) removed, character references
  // (&amp; &#160; &#xA0;) and percent-escapes (%62a%6E) decoded, URLs
  // rewritten as their host and path words and e-mail addresses as one word.
  // Default since profile version 3; false gives version 2's features.
  bool clean_text = true;
  // kWords only: a word without a letter (a number such as 1, 2024 or 3.14)
  // counts once however often it occurs, so that number lists and the (1) of
  // every `cmp(1)` cannot outweigh the words. Default since profile version
  // 3; false gives version 2's weights.
  bool cap_numbers = true;
  // Features to drop, compared after normalization. Default: every
  // built-in list (DefaultStopWords(): English and Chinese), as the
  // evaluation in docs/quality.md chose; clear it to keep every feature. See
  // BuiltinStopWords() and LoadStopWords().
  std::vector<std::string> stop_words = DefaultStopWords();
  Weighting weighting = Weighting::kTermFrequency;
  // Capped tf: a feature counts at most tf_cap times in the tf of every
  // weighting that has one (tf, log-tf, tf-idf, log-tf-idf; binary counts
  // once anyway), e.g. with 3 the weights are min(count, 3) (x idf). 0: no
  // cap (the default). Recorded in the profile as "tf-cap:N".
  uint32_t tf_cap = 0;
  // Share cap: after weighting, no feature weighs more than max_share of the
  // document's total weight. The heaviest features are lowered to one level
  // c, the largest for which c = max_share x (the weights, each capped at
  // c, summed), and the others keep theirs; a document whose n features
  // cannot be capped so (max_share < 1/n) gets equal weights. 0: no cap
  // (profile 3's weights); else REQUIRES 0 < max_share <= 1. Default 0.1
  // since profile version 4, so that no one feature decides every bit.
  // Recorded in the profile as "max-share:S". docs/fingerprint.md, step 5,
  // gives an example.
  double max_share = 0.1;
  // Required when weighting is kTfIdf or kLogTfIdf; shared, read-only.
  std::shared_ptr<const IdfTable> idf;
  // Seed for XXH3-64 of every feature.
  uint64_t seed = 0;
};

// Reads one stop word per line (UTF-8; blank lines and '#' comments ignored).
Status LoadStopWords(const std::string& path, std::vector<std::string>* out);

struct FingerprintResult {
  uint64_t fingerprint = 0;      // valid only when reason == kNotEmpty
  EmptyReason reason = EmptyReason::kNoText;
  uint32_t features = 0;         // distinct features that contributed
  uint32_t occurrences = 0;      // feature occurrences before de-duplication
  uint32_t invalid_utf8 = 0;     // invalid UTF-8 sequences replaced by U+FFFD

  bool empty() const { return reason != EmptyReason::kNotEmpty; }
};

// Computes fingerprints with one fixed set of options.
//
// Thread safety: a Fingerprinter holds ICU iterators and scratch buffers and
// is NOT safe for concurrent use. Clone() one per thread; clones are cheap
// and independent.
class Fingerprinter {
 public:
  // Validates options (ngram range, idf present for kTfIdf, every idf
  // value by CheckWeight(), ...) and prepares the ICU objects. On error
  // *out is untouched.
  static Status Create(const FingerprintOptions& options, std::unique_ptr<Fingerprinter>* out);

  ~Fingerprinter();
  std::unique_ptr<Fingerprinter> Clone() const;
  const FingerprintOptions& options() const;
  // The profile of this fingerprinter's fingerprints
  // (include/simdex/profile.h), e.g. "simdex-fp/3 words ... seed:0".
  const std::string& profile() const;

  // Fingerprint of UTF-8 text. Never fails: invalid UTF-8 is replaced and
  // counted; a text with no features comes back empty with a reason.
  FingerprintResult Fingerprint(std::string_view utf8_text);

  // Fingerprint of caller-supplied weighted features, hashed as given (no
  // normalization, no stop words, weights used as they are; equal features
  // have their weights added) into *out. Features with weight 0 are
  // ignored; the result is empty (kNoFeatures) when the list is empty. A
  // weight CheckWeight() refuses (negative, not finite, above
  // kMaxFeatureWeight) is InvalidArgument naming the feature, and *out is
  // untouched.
  Status FromFeatures(std::span<const WeightedFeature> features, FingerprintResult* out);

  // The weighted features Fingerprint() would combine for this text, in
  // first-occurrence order; for explaining and testing.
  void ExtractFeatures(std::string_view utf8_text, std::vector<WeightedFeature>* out);

  // The distinct features Fingerprint() would weigh for this text (stop
  // words dropped), in first-occurrence order: their hashes into *hashes
  // and, when texts is not null, their UTF-8 bytes into *texts. Empty for
  // the python-simhash profile (its features are not weighted by idf).
  void FeatureHashes(std::string_view utf8_text, std::vector<uint64_t>* hashes,
                     std::vector<std::string>* texts = nullptr);

  // Hash of one feature's UTF-8 bytes as this fingerprinter hashes it
  // (XXH3-64 with the seed, or the compatibility profile's hash).
  uint64_t HashFeature(std::string_view feature) const;

 private:
  struct Rep;
  explicit Fingerprinter(std::unique_ptr<Rep> rep);
  FingerprintResult FromCheckedFeatures(std::span<const WeightedFeature> features);
  std::unique_ptr<Rep> rep_;
};

// Parses 1 to 16 hex digits (either case, no prefix) into *out.
bool ParseHexFingerprint(std::string_view hex, uint64_t* out);
// 16 lower-case hex digits.
std::string FormatHexFingerprint(uint64_t fingerprint);

}  // namespace simdex

#endif  // SIMDEX_FINGERPRINT_H_
