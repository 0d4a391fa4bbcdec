// EvaluateSetAgainstTruth and FingerprintAll (include/simdex/eval.h): `simdex
// eval --truth jaccard`, one set at a time. Per set, JSON lines:
//   {"kind":"truth","set":..,"positive":0.8,"negative":0.5,"unrelated":0.2,"documents":..,"word_documents":..,
//    "char_documents":..,"empty_documents":..,"shingles":..,"shingle_seconds":..,"pairs_seconds":..,
//    "pairs_from_unrelated":..}
//   {"kind":"simhash","config":..,"confirm":..,"set":..,"fingerprint_seconds":..,"evaluate_seconds":..,
//    "buckets":[{"bucket":..,"positives":..,"between":..,"negatives":..,"unrelated":..,
//                "mean_unrelated_distance":..,"median_unrelated_distance":..,"confirm_calls":..,"confirmed":..,
//                "distances":{"positive":[65 counts],"between":..,"negative":..,"unrelated":..},
//                "k":[{"k":0,"tp":..,"fn":..,
//                      "strict_fp":..,"strict_precision":..,"strict_recall":..,"strict_f1":..,"between":..,
//                      "lenient_fp":..,"lenient_precision":..,"lenient_recall":..,"lenient_f1":..,
//                      "unrelated":..},..]},..]}
//    Strict first: a reported pair with J < positive is false (strict_fp = lenient_fp + between); lenient:
//    "between" (reported pairs with negative <= J < positive) is left out (Scoring, include/simdex/eval.h).
//   {"kind":"baseline","method":"minhash-lsh","filter":"none"|"estimate",.., "buckets":[.. "k":[{"k":0,..}]]}
//   {"kind":"minhash","method":"simdex","filter":"none"|"estimate"|"exact"|"default",..}: simdex's own
//    MinHash-LSH (`simdex dedup --method minhash`; "estimate": its --approximate mode; "exact": those
//    candidates confirmed by the truth's Jaccard, as --confirm jaccard-shingles:T does; "default": the
//    command's default, its candidates for the exact check confirmed by the truth's Jaccard)
//   {"kind":"reported","file":..,"set":..,"pairs":..,"buckets":[.. "k":[{"k":0,..}]]}: the pairs of a
//    --reported file (`simdex dedup --pairs`), scored as they are
//   --truth-pairs: {"set":..,"a":id,"b":id,"jaccard":J} for every pair at J >= positive, in (a, b) order
//   The truth row names its shingles ("shingles_words": "word-chars"|"space-split", "shingle_n").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string_view>

#include "base/timing.h"
#include "engine/eval/truth_summary.h"
#include "simdex/batch.h"
#include "simdex/confirm.h"
#include "simdex/eval.h"
#include "simdex/front_end_text.h"
#include "simdex/idf_learner.h"
#include "simdex/minhash.h"
#include "simdex/minhash_join.h"

namespace simdex {
namespace {

using eval::TruthSummaryLine;

// The SimHash rows' k in the text summary: the default k of `simdex dedup --method simhash` and the t10 index.
constexpr int kSummaryK = 3;

void AppendNumber(std::string* out, double v) {
  if (std::isnan(v)) {
    out->append("null");
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  out->append(buf);
}

void AppendField(std::string* out, const char* name, double v) {
  out->append(",\"").append(name).append("\":");
  AppendNumber(out, v);
}

void AppendCount(std::string* out, const char* name, uint64_t v) {
  out->append(",\"").append(name).append("\":").append(std::to_string(v));
}

void AppendHistogram(std::string* out, const char* name, const std::vector<uint64_t>& h, bool first) {
  if (!first) out->push_back(',');
  out->append("\"").append(name).append("\":[");
  for (size_t i = 0; i < h.size(); ++i) {
    if (i > 0) out->push_back(',');
    out->append(std::to_string(h[i]));
  }
  out->push_back(']');
}

// "<scoring>_fp", "_precision", "_recall" and "_f1" of bucket b at k.
void AppendScores(std::string* out, const char* scoring, const TruthBucket& b, int k, Scoring s) {
  const std::string name(scoring);
  AppendCount(out, (name + "_fp").c_str(), b.FalsePositives(k, s));
  AppendField(out, (name + "_precision").c_str(), b.Precision(k, s));
  AppendField(out, (name + "_recall").c_str(), b.Recall(k));
  AppendField(out, (name + "_f1").c_str(), b.F1(k, s));
}

void AppendBuckets(const std::vector<TruthBucket>& buckets, std::string* out) {
  out->append(",\"buckets\":[");
  for (size_t i = 0; i < buckets.size(); ++i) {
    const TruthBucket& b = buckets[i];
    if (i > 0) out->push_back(',');
    out->append("{\"bucket\":");
    AppendJsonString(out, b.name);
    AppendCount(out, "min_length", b.min_length);
    out->append(",\"max_length\":");
    out->append(b.max_length == UINT32_MAX ? "null" : std::to_string(b.max_length));
    AppendCount(out, "positives", b.positives);
    AppendCount(out, "between", b.between);
    AppendCount(out, "negatives", b.negatives);
    AppendCount(out, "unrelated", b.unrelated);
    if (!b.unrelated_distances.empty()) {
      AppendField(out, "mean_unrelated_distance", b.MeanUnrelatedDistance());
      AppendField(out, "median_unrelated_distance", b.MedianUnrelatedDistance());
      out->append(",\"distances\":{");
      AppendHistogram(out, "positive", b.positive_distances, true);
      AppendHistogram(out, "between", b.between_distances, false);
      AppendHistogram(out, "negative", b.negative_distances, false);
      AppendHistogram(out, "unrelated", b.unrelated_distances, false);
      out->push_back('}');
    }
    AppendCount(out, "confirm_calls", b.confirm_calls);
    AppendCount(out, "confirmed", b.confirmed);
    out->append(",\"k\":[");
    for (size_t k = 0; k < b.tp.size(); ++k) {
      const int ki = static_cast<int>(k);
      if (k > 0) out->push_back(',');
      out->append("{\"k\":").append(std::to_string(k));
      AppendCount(out, "tp", b.tp[k]);
      AppendCount(out, "fn", b.positives - b.tp[k]);
      AppendScores(out, "strict", b, ki, Scoring::kStrict);
      AppendCount(out, "between", b.between_predicted[k]);
      AppendScores(out, "lenient", b, ki, Scoring::kLenient);
      AppendCount(out, "unrelated", b.unrelated_predicted[k]);
      out->push_back('}');
    }
    out->append("]}");
  }
  out->append("]}\n");
}

void AppendHead(std::string* out, const char* kind, const std::string& set) {
  out->append("{\"kind\":\"").append(kind).append("\",\"set\":");
  AppendJsonString(out, set);
}

// The MinHash-LSH baseline over one set's shingles: two lines, candidates as
// they come from the bands and candidates kept by the estimate.
Status RunBaseline(const TruthEvalOptions& o, const std::string& set, std::span<const std::string_view> texts,
                   std::span<const std::vector<uint64_t>> sets, double shingle_seconds,
                   std::span<const JaccardPair> truth, std::string* out, std::string* text) {
  std::unique_ptr<BaselineMinHash> minhash;
  SIMDEX_RETURN_IF_ERROR(BaselineMinHash::Create(o.num_perm, o.seed, &minhash));
  const LshBands bands =
      o.bands.bands > 0 ? o.bands : OptimalLshBands(o.baseline_threshold, o.num_perm);
  const size_t k = static_cast<size_t>(o.num_perm);
  auto start = base::Clock::now();
  std::vector<uint64_t> signatures(sets.size() * k);
  for (size_t d = 0; d < sets.size(); ++d) minhash->Sign(sets[d], signatures.data() + d * k);
  const double sign_seconds = base::Seconds(start);
  start = base::Clock::now();
  std::vector<uint64_t> candidates;
  SIMDEX_RETURN_IF_ERROR(LshCandidatePairs(signatures, o.num_perm, bands, &candidates));
  const double band_seconds = base::Seconds(start);
  start = base::Clock::now();
  std::vector<uint64_t> kept;
  for (uint64_t p : candidates) {
    const uint64_t* x = signatures.data() + (p >> 32) * k;
    const uint64_t* y = signatures.data() + (p & 0xffffffffu) * k;
    if (BaselineMinHash::Estimate(x, y, o.num_perm) >= o.baseline_threshold) kept.push_back(p);
  }
  const double filter_seconds = base::Seconds(start);
  for (const bool filtered : {false, true}) {
    std::vector<TruthBucket> buckets;
    SIMDEX_RETURN_IF_ERROR(EvaluatePairsAgainstTruth(texts, filtered ? kept : candidates, truth, o.truth, &buckets));
    AppendHead(out, "baseline", set);
    out->append(",\"method\":\"minhash-lsh\",\"filter\":\"").append(filtered ? "estimate" : "none").append("\"");
    AppendCount(out, "num_perm", static_cast<uint64_t>(o.num_perm));
    AppendCount(out, "bands", static_cast<uint64_t>(bands.bands));
    AppendCount(out, "rows", static_cast<uint64_t>(bands.rows));
    AppendCount(out, "seed", o.seed);
    AppendField(out, "threshold", o.baseline_threshold);
    AppendCount(out, "documents", texts.size());
    AppendCount(out, "candidates", candidates.size());
    AppendCount(out, "kept", filtered ? kept.size() : candidates.size());
    AppendField(out, "shingle_seconds", shingle_seconds);
    AppendField(out, "sign_seconds", sign_seconds);
    AppendField(out, "band_seconds", band_seconds);
    AppendField(out, "filter_seconds", filtered ? filter_seconds : 0.0);
    AppendBuckets(buckets, out);
    text->append(TruthSummaryLine(set, filtered ? "baseline MinHash-LSH, estimate filter" : "baseline MinHash-LSH, no filter",
                                  buckets.back(), 0, o.truth));
  }
  return Status::OK();
}

// The band candidates of signatures under bands, and those of them whose
// b-bit estimate is at least filter.
struct BandedPairs {
  LshBands bands;
  double estimate_filter = 0;
  std::vector<uint64_t> candidates, kept;
  double band_seconds = 0, filter_seconds = 0;
};

Status FindBanded(std::span<const uint32_t> signatures, std::span<const uint8_t> packed,
                  std::span<const uint8_t> banded, const TruthEvalOptions& o, BandedPairs* out) {
  const size_t n = banded.size(), nb = static_cast<size_t>(out->bands.bands);
  const size_t k = static_cast<size_t>(o.num_perm);
  const size_t sb = PackedSignatureBytes(o.num_perm, o.signature_bits);
  SIMDEX_RETURN_IF_ERROR(CheckLshBands(out->bands, o.num_perm));
  auto start = base::Clock::now();
  std::vector<uint64_t> keys(n * nb), row(nb);  // keys band after band
  for (size_t d = 0; d < n; ++d) {
    BandKeys(&signatures[d * k], out->bands, row.data());
    for (size_t j = 0; j < nb; ++j) keys[j * n + d] = row[j];
  }
  BandJoinStats join;
  SIMDEX_RETURN_IF_ERROR(FindBandPairs(keys, out->bands.bands, banded, 1, &out->candidates, &join));
  out->band_seconds = base::Seconds(start);
  start = base::Clock::now();
  for (uint64_t p : out->candidates) {
    const size_t a = p >> 32, b = p & 0xffffffffu;
    if (EstimateJaccardPacked(&packed[a * sb], &packed[b * sb], o.num_perm, o.signature_bits) >=
        out->estimate_filter) {
      out->kept.push_back(p);
    }
  }
  out->filter_seconds = base::Seconds(start);
  return Status::OK();
}

// simdex's MinHash-LSH (include/simdex/minhash.h) over the same shingle
// sets, as `simdex dedup --method minhash` runs it: four lines.
//   "none", "estimate", "exact": the --approximate mode's bands (as given,
//     else DefaultLshBands), their candidates, those kept by the b-bit
//     estimate filter (`--approximate`), and the candidates whose exact
//     Jaccard is >= the threshold (`--approximate --confirm
//     jaccard-shingles:T`);
//   "default": the command's default, exact mode: candidates from
//     ExactCandidateBands kept by ExactEstimateFilter, then by their exact
//     Jaccard (include/simdex/batch.h).
Status RunMinHash(const TruthEvalOptions& o, const std::string& set, std::span<const std::string_view> texts,
                  std::span<const std::vector<uint64_t>> sets, std::span<const JaccardPair> truth, std::string* out,
                  std::string* text) {
  MinHashOptions options;
  options.num_perm = o.num_perm;
  options.seed = o.seed;
  options.shingles = o.shingles;
  std::unique_ptr<MinHasher> hasher;
  SIMDEX_RETURN_IF_ERROR(MinHasher::Create(options, &hasher));
  const double t = o.baseline_threshold;
  const size_t n = sets.size(), k = static_cast<size_t>(o.num_perm);
  const size_t sb = PackedSignatureBytes(o.num_perm, o.signature_bits);
  auto start = base::Clock::now();
  std::vector<uint32_t> signatures(n * k);
  std::vector<uint8_t> packed(n * sb), banded(n);
  for (size_t d = 0; d < n; ++d) {
    hasher->SignShingles(sets[d], &signatures[d * k]);
    banded[d] = !sets[d].empty();
    PackSignature(&signatures[d * k], o.num_perm, o.signature_bits, &packed[d * sb]);
  }
  const double sign_seconds = base::Seconds(start);
  BandedPairs approximate, exact_mode;
  approximate.bands = o.bands.bands > 0 ? o.bands : DefaultLshBands(t, o.num_perm);
  approximate.estimate_filter = DefaultEstimateFilter(t, o.num_perm);
  SIMDEX_RETURN_IF_ERROR(FindBanded(signatures, packed, banded, o, &approximate));
  exact_mode.bands = ExactCandidateBands(t, o.num_perm);
  exact_mode.estimate_filter = ExactEstimateFilter(t, o.num_perm);
  SIMDEX_RETURN_IF_ERROR(FindBanded(signatures, packed, banded, o, &exact_mode));
  auto confirmed = [&](const std::vector<uint64_t>& pairs) {
    std::vector<uint64_t> kept;
    for (uint64_t p : pairs) {
      if (Confirmer::JaccardOfShingles(sets[p >> 32], sets[p & 0xffffffffu]) >= t) kept.push_back(p);
    }
    return kept;
  };
  const std::vector<uint64_t> exact = confirmed(approximate.candidates), checked = confirmed(exact_mode.kept);
  for (const char* filter : {"none", "estimate", "exact", "default"}) {
    const std::string_view f = filter;
    const BandedPairs& from = f == "default" ? exact_mode : approximate;
    const std::vector<uint64_t>& predicted = f == "none"       ? approximate.candidates
                                             : f == "estimate" ? approximate.kept
                                             : f == "exact"    ? exact
                                                               : checked;
    std::vector<TruthBucket> buckets;
    SIMDEX_RETURN_IF_ERROR(EvaluatePairsAgainstTruth(texts, predicted, truth, o.truth, &buckets));
    AppendHead(out, "minhash", set);
    out->append(",\"method\":\"simdex\",\"filter\":\"").append(filter).append("\"");
    AppendCount(out, "num_perm", static_cast<uint64_t>(o.num_perm));
    AppendCount(out, "signature_bits", static_cast<uint64_t>(o.signature_bits));
    AppendCount(out, "bands", static_cast<uint64_t>(from.bands.bands));
    AppendCount(out, "rows", static_cast<uint64_t>(from.bands.rows));
    AppendCount(out, "seed", o.seed);
    AppendField(out, "threshold", t);
    AppendField(out, "estimate_filter", from.estimate_filter);
    AppendCount(out, "documents", texts.size());
    AppendCount(out, "candidates", from.candidates.size());
    AppendCount(out, "kept", predicted.size());
    AppendField(out, "sign_seconds", sign_seconds);
    AppendField(out, "band_seconds", from.band_seconds);
    AppendField(out, "filter_seconds", f == "estimate" || f == "default" ? from.filter_seconds : 0.0);
    AppendBuckets(buckets, out);
    const char* name = f == "none"       ? "simdex MinHash-LSH, no filter"
                       : f == "estimate" ? "simdex MinHash-LSH, estimate filter (--approximate)"
                       : f == "exact"    ? "simdex MinHash-LSH, exact Jaccard of every candidate"
                                         : "simdex MinHash-LSH, defaults (exact check)";
    text->append(TruthSummaryLine(set, name, buckets.back(), 0, o.truth));
  }
  return Status::OK();
}

}  // namespace

Status EvaluateSetAgainstTruth(const std::string& set, const TruthEvalOptions& o, Confirmer* confirmer,
                               TruthEvalOutput* result) {
  std::string* out = &result->rows;
  std::string* list = &result->listed;
  std::string* positives = &result->truth_pairs;
  std::string* text = &result->summary;
  std::vector<LabelledDocument> docs;
  SIMDEX_RETURN_IF_ERROR(ReadLabelledSet(set, &docs, /*require_cluster=*/false));
  std::vector<std::string_view> texts;
  for (const LabelledDocument& d : docs) {
    if (d.text.size() > INT32_MAX) return Status::InvalidArgument(set + ": document '" + d.id + "' is over 2 GiB");
    texts.push_back(d.text);
  }
  // The truth.
  std::unique_ptr<ShingleMaker> maker;
  SIMDEX_RETURN_IF_ERROR(ShingleMaker::Create(o.shingles, &maker));
  auto start = base::Clock::now();
  std::vector<std::vector<uint64_t>> sets(docs.size());
  uint64_t kinds[3] = {0, 0, 0}, shingles = 0;
  for (size_t i = 0; i < docs.size(); ++i) {
    ++kinds[static_cast<int>(maker->Make(texts[i], &sets[i]))];
    shingles += sets[i].size();
  }
  const double shingle_seconds = base::Seconds(start);
  start = base::Clock::now();
  std::vector<JaccardPair> truth;
  // Every pair the scoring must class is listed: those with J >= unrelated
  // (a threshold of 0 would list every pair sharing a shingle).
  SIMDEX_RETURN_IF_ERROR(FindJaccardPairs(sets, std::max(o.truth.unrelated, 1e-12), &truth));
  const double pairs_seconds = base::Seconds(start);
  if (o.truth_pairs) {
    for (const JaccardPair& p : truth) {
      if (p.jaccard() < o.truth.positive) continue;
      AppendHead(positives, "pair", set);
      positives->append(",\"a\":");
      AppendJsonString(positives, docs[p.a].id);
      positives->append(",\"b\":");
      AppendJsonString(positives, docs[p.b].id);
      AppendField(positives, "jaccard", p.jaccard());
      positives->append("}\n");
    }
  }
  AppendHead(out, "truth", set);
  AppendField(out, "positive", o.truth.positive);
  AppendField(out, "negative", o.truth.negative);
  AppendField(out, "unrelated", o.truth.unrelated);
  AppendCount(out, "documents", docs.size());
  AppendCount(out, "word_documents", kinds[static_cast<int>(ShingleKind::kWords)]);
  AppendCount(out, "char_documents", kinds[static_cast<int>(ShingleKind::kChars)]);
  AppendCount(out, "empty_documents", kinds[static_cast<int>(ShingleKind::kNone)]);
  AppendCount(out, "shingles", shingles);
  out->append(",\"shingles_words\":");
  AppendJsonString(out, ShingleWordsName(o.shingles.words));
  AppendCount(out, "shingle_n", static_cast<uint64_t>(o.shingles.word_n));
  AppendCount(out, "pairs_from_unrelated", truth.size());
  AppendField(out, "shingle_seconds", shingle_seconds);
  AppendField(out, "pairs_seconds", pairs_seconds);
  out->append("}\n");

  std::vector<FingerprintResult> fingerprints;
  TruthOptions truth_options = o.truth;
  truth_options.confirmer = confirmer;
  for (size_t c = 0; c < o.configs.size(); ++c) {
    start = base::Clock::now();
    SIMDEX_RETURN_IF_ERROR(FingerprintAll(o.configs[c], texts, &fingerprints));
    const double fingerprint_seconds = base::Seconds(start);
    start = base::Clock::now();
    std::vector<TruthBucket> buckets;
    std::vector<ListedPair> listed;
    SIMDEX_RETURN_IF_ERROR(EvaluateAgainstTruth(texts, fingerprints, truth, truth_options, &buckets,
                                                o.list ? &listed : nullptr));
    const double evaluate_seconds = base::Seconds(start);
    AppendHead(out, "simhash", set);
    out->append(",\"config\":");
    AppendJsonString(out, o.config_names[c]);
    out->append(",\"confirm\":");
    if (o.confirm.empty()) out->append("null");
    else AppendJsonString(out, o.confirm);
    AppendCount(out, "documents", docs.size());
    AppendField(out, "fingerprint_seconds", fingerprint_seconds);
    AppendField(out, "evaluate_seconds", evaluate_seconds);
    AppendBuckets(buckets, out);
    const int k = std::min(o.truth.max_k, kSummaryK);
    text->append(TruthSummaryLine(set, o.config_names[c] + (o.confirm.empty() ? "" : " + " + o.confirm) +
                                           " at k = " + std::to_string(k),
                                  buckets.back(), k, o.truth));
    for (const ListedPair& p : listed) {
      AppendHead(list, "pair", set);
      list->append(",\"config\":");
      AppendJsonString(list, o.config_names[c]);
      list->append(",\"a\":");
      AppendJsonString(list, docs[p.a].id);
      list->append(",\"b\":");
      AppendJsonString(list, docs[p.b].id);
      AppendCount(list, "distance", static_cast<uint64_t>(p.distance));
      AppendField(list, "jaccard", p.jaccard);
      AppendCount(list, "a_fingerprint", fingerprints[p.a].fingerprint);
      AppendCount(list, "b_fingerprint", fingerprints[p.b].fingerprint);
      list->append("}\n");
    }
  }
  if (o.baseline) SIMDEX_RETURN_IF_ERROR(RunBaseline(o, set, texts, sets, shingle_seconds, truth, out, text));
  if (o.minhash) SIMDEX_RETURN_IF_ERROR(RunMinHash(o, set, texts, sets, truth, out, text));
  for (const std::string& file : o.reported) {
    std::vector<uint64_t> predicted;
    SIMDEX_RETURN_IF_ERROR(ReadReportedPairs(file, docs, &predicted));
    std::vector<TruthBucket> buckets;
    SIMDEX_RETURN_IF_ERROR(EvaluatePairsAgainstTruth(texts, predicted, truth, o.truth, &buckets));
    AppendHead(out, "reported", set);
    out->append(",\"file\":");
    AppendJsonString(out, file);
    AppendCount(out, "documents", texts.size());
    AppendCount(out, "pairs", predicted.size());
    AppendBuckets(buckets, out);
    text->append(TruthSummaryLine(set, "pairs of " + file, buckets.back(), 0, o.truth));
  }
  return Status::OK();
}

Status FingerprintAll(const EvalConfig& config, std::span<const std::string_view> texts,
                      std::vector<FingerprintResult>* out) {
  FingerprintOptions options = config.options;
  const bool idf = options.weighting == Weighting::kTfIdf || options.weighting == Weighting::kLogTfIdf;
  if (idf && options.idf == nullptr) {  // "idf-auto": learned from the set
    std::unique_ptr<IdfLearner> learner;
    SIMDEX_RETURN_IF_ERROR(
        IdfLearner::Create(options, {.tmpdir = SpillDirectory(""), .max_idf = config.max_idf}, &learner));
    for (std::string_view t : texts) SIMDEX_RETURN_IF_ERROR(learner->Add(t));
    SIMDEX_RETURN_IF_ERROR(learner->Finish(&options.idf));
  }
  std::unique_ptr<Fingerprinter> fingerprinter;
  SIMDEX_RETURN_IF_ERROR(Fingerprinter::Create(options, &fingerprinter));
  out->clear();
  for (std::string_view t : texts) out->push_back(fingerprinter->Fingerprint(t));
  return Status::OK();
}

}  // namespace simdex
