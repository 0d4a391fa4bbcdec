// EvaluateAgainstTruth and EvaluatePairsAgainstTruth (include/simdex/eval.h):
// every pair of a batch, classed by its exact Jaccard and counted by the
// bucket of its shorter text and by whether it was predicted.
//
// The truth lists only the pairs with J >= unrelated (few); the walk goes
// row by row, spreading row a's listed pairs into a dense array of classes
// so that each of the n(n-1)/2 pairs costs a lookup, a popcount and a count.
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/eval/scores.h"
#include "simdex/document_reader.h"
#include "simdex/eval.h"

namespace simdex {
namespace {

enum PairClass : uint8_t { kUnrelated, kNegative, kBetween, kPositive };

PairClass Classify(double j, const TruthOptions& o) {
  if (j >= o.positive) return kPositive;
  if (j >= o.negative) return kBetween;
  return j >= o.unrelated ? kNegative : kUnrelated;
}

void Add(const std::vector<uint64_t>& from, std::vector<uint64_t>* to) {
  for (size_t i = 0; i < from.size() && i < to->size(); ++i) (*to)[i] += from[i];
}

void AddBucket(const TruthBucket& f, TruthBucket* t) {
  t->positives += f.positives;
  t->between += f.between;
  t->negatives += f.negatives;
  t->unrelated += f.unrelated;
  Add(f.positive_distances, &t->positive_distances);
  Add(f.between_distances, &t->between_distances);
  Add(f.negative_distances, &t->negative_distances);
  Add(f.unrelated_distances, &t->unrelated_distances);
  Add(f.tp, &t->tp);
  Add(f.fp, &t->fp);
  Add(f.between_predicted, &t->between_predicted);
  Add(f.unrelated_predicted, &t->unrelated_predicted);
  t->confirm_calls += f.confirm_calls;
  t->confirmed += f.confirmed;
}

TruthBucket EmptyBucket(std::string name, uint32_t min_length, uint32_t max_length, size_t ks, bool distances) {
  TruthBucket b;
  b.name = std::move(name);
  b.min_length = min_length;
  b.max_length = max_length;
  if (distances) {
    for (auto* h : {&b.positive_distances, &b.between_distances, &b.negative_distances, &b.unrelated_distances}) {
      h->assign(65, 0);
    }
  }
  for (auto* v : {&b.tp, &b.fp, &b.between_predicted, &b.unrelated_predicted}) v->assign(ks, 0);
  return b;
}

Status CheckOptions(const TruthOptions& o, size_t documents, std::span<const JaccardPair> truth) {
  if (!(o.unrelated <= o.negative && o.negative <= o.positive && o.unrelated >= 0 && o.positive <= 1)) {
    return Status::InvalidArgument("truth: thresholds must satisfy 0 <= unrelated <= negative <= positive <= 1");
  }
  if (o.max_k < 0 || o.max_k > 64) return Status::InvalidArgument("truth: max_k must be 0..64");
  if (!std::is_sorted(o.bounds.begin(), o.bounds.end())) {
    return Status::InvalidArgument("truth: bucket bounds must increase");
  }
  for (size_t i = 0; i < truth.size(); ++i) {
    const JaccardPair& p = truth[i];
    if (p.a >= p.b || p.b >= documents) return Status::InvalidArgument("truth: a pair is out of range");
    if (i > 0 && (truth[i - 1].a > p.a || (truth[i - 1].a == p.a && truth[i - 1].b >= p.b))) {
      return Status::InvalidArgument("truth: pairs must be sorted by (a, b) and distinct");
    }
  }
  return Status::OK();
}

// The walk shared by both scorers. Predict(a, b) returns the pair's
// distance (0..64), or -1 when neither fingerprint exists; Accept(a, b, d)
// the second stage's verdict for a pair within max_k.
template <typename Predict, typename Accept>
void Walk(std::span<const std::string_view> texts, std::span<const JaccardPair> truth, const TruthOptions& o,
          int max_k, bool distances, Predict predict, Accept accept, std::vector<TruthBucket>* out,
          std::vector<ListedPair>* listed) {
  static const char* const kNames[] = {"short", "medium", "long"};
  const size_t ks = static_cast<size_t>(max_k) + 1;
  std::vector<TruthBucket> buckets;
  for (size_t b = 0; b <= o.bounds.size(); ++b) {
    buckets.push_back(EmptyBucket(o.bounds.size() == 2 ? kNames[b] : "bucket" + std::to_string(b),
                                  b == 0 ? 0 : o.bounds[b - 1],
                                  b < o.bounds.size() ? o.bounds[b] : std::numeric_limits<uint32_t>::max(), ks,
                                  distances));
  }
  const size_t n = texts.size();
  std::vector<uint32_t> length(n);
  for (size_t i = 0; i < n; ++i) length[i] = static_cast<uint32_t>(CodePointLength(texts[i]));
  std::vector<uint8_t> row(n, kUnrelated);
  std::vector<double> row_j(n, 0.0);
  size_t t = 0;
  for (size_t a = 0; a < n; ++a) {
    const size_t row_begin = t;
    for (; t < truth.size() && truth[t].a == a; ++t) {
      row[truth[t].b] = Classify(truth[t].jaccard(), o);
      row_j[truth[t].b] = truth[t].jaccard();
    }
    for (size_t b = a + 1; b < n; ++b) {
      const uint32_t shorter = std::min(length[a], length[b]);
      TruthBucket& bucket = buckets[static_cast<size_t>(
          std::upper_bound(o.bounds.begin(), o.bounds.end(), shorter) - o.bounds.begin())];
      const PairClass c = static_cast<PairClass>(row[b]);
      switch (c) {
        case kPositive: ++bucket.positives; break;
        case kBetween: ++bucket.between; break;
        case kNegative: ++bucket.negatives; break;
        case kUnrelated: ++bucket.negatives, ++bucket.unrelated; break;
      }
      const int d = predict(a, b);
      if (d < 0) continue;
      if (distances) {
        std::vector<uint64_t>& h = c == kPositive  ? bucket.positive_distances
                                   : c == kBetween ? bucket.between_distances
                                                   : bucket.negative_distances;
        ++h[d];
        if (c == kUnrelated) ++bucket.unrelated_distances[d];
      }
      if (listed != nullptr && listed->size() < o.list_limit &&
          (((c == kUnrelated || c == kNegative) && d <= o.list_negative_within) ||
           (c == kPositive && d > o.list_positive_beyond))) {
        listed->push_back({static_cast<uint32_t>(a), static_cast<uint32_t>(b), d, row_j[b]});
      }
      if (d > max_k || !accept(a, b, &bucket)) continue;
      std::vector<uint64_t>& counts = c == kPositive  ? bucket.tp
                                      : c == kBetween ? bucket.between_predicted
                                                      : bucket.fp;
      for (size_t k = static_cast<size_t>(d); k < ks; ++k) ++counts[k];
      if (c == kUnrelated) {
        for (size_t k = static_cast<size_t>(d); k < ks; ++k) ++bucket.unrelated_predicted[k];
      }
    }
    for (size_t i = row_begin; i < t; ++i) {
      row[truth[i].b] = kUnrelated;
      row_j[truth[i].b] = 0.0;
    }
  }
  TruthBucket all = EmptyBucket("all", 0, std::numeric_limits<uint32_t>::max(), ks, distances);
  for (const TruthBucket& b : buckets) AddBucket(b, &all);
  buckets.push_back(std::move(all));
  *out = std::move(buckets);
}

}  // namespace

uint64_t TruthBucket::FalsePositives(int k, Scoring scoring) const {
  return scoring == Scoring::kStrict ? fp[k] + between_predicted[k] : fp[k];
}
double TruthBucket::Precision(int k, Scoring scoring) const {
  return eval::Precision(tp[k], FalsePositives(k, scoring));
}
double TruthBucket::Recall(int k) const { return eval::Recall(tp[k], positives); }
double TruthBucket::F1(int k, Scoring scoring) const { return eval::F1(Precision(k, scoring), Recall(k)); }

double TruthBucket::MeanUnrelatedDistance() const {
  double sum = 0, count = 0;
  for (size_t d = 0; d < unrelated_distances.size(); ++d) {
    sum += static_cast<double>(d) * static_cast<double>(unrelated_distances[d]);
    count += static_cast<double>(unrelated_distances[d]);
  }
  return count == 0 ? std::nan("") : sum / count;
}

double TruthBucket::MedianUnrelatedDistance() const {
  uint64_t count = 0;
  for (uint64_t c : unrelated_distances) count += c;
  if (count == 0) return std::nan("");
  const uint64_t half = (count + 1) / 2;  // the lower median's rank
  uint64_t seen = 0;
  for (size_t d = 0; d < unrelated_distances.size(); ++d) {
    seen += unrelated_distances[d];
    if (seen >= half) return static_cast<double>(d);
  }
  return std::nan("");
}

Status EvaluateAgainstTruth(std::span<const std::string_view> texts, std::span<const FingerprintResult> fingerprints,
                            std::span<const JaccardPair> truth, const TruthOptions& options,
                            std::vector<TruthBucket>* out, std::vector<ListedPair>* listed) {
  if (texts.size() != fingerprints.size()) {
    return Status::InvalidArgument("truth: " + std::to_string(texts.size()) + " texts but " +
                                   std::to_string(fingerprints.size()) + " fingerprints");
  }
  SIMDEX_RETURN_IF_ERROR(CheckOptions(options, texts.size(), truth));
  if (listed != nullptr) listed->clear();
  auto predict = [&](size_t a, size_t b) {
    if (fingerprints[a].empty() || fingerprints[b].empty()) return -1;
    return HammingDistance(fingerprints[a].fingerprint, fingerprints[b].fingerprint);
  };
  // A Jaccard confirmer shingles each text once, when a pair first needs it.
  Confirmer* confirmer = options.confirmer;
  const bool by_shingles = confirmer != nullptr && confirmer->options().measure == ConfirmMeasure::kJaccard;
  std::vector<std::vector<uint64_t>> shingles(by_shingles ? texts.size() : 0);
  std::vector<bool> shingled(shingles.size(), false);
  auto shingles_of = [&](size_t d) -> const std::vector<uint64_t>& {
    if (!shingled[d]) confirmer->Shingles(texts[d], &shingles[d]);
    shingled[d] = true;
    return shingles[d];
  };
  auto accept = [&](size_t a, size_t b, TruthBucket* bucket) {
    if (confirmer == nullptr) return true;
    ++bucket->confirm_calls;
    const bool yes = by_shingles ? Confirmer::JaccardOfShingles(shingles_of(a), shingles_of(b)) >=
                                       confirmer->options().threshold
                                 : confirmer->Confirms(texts[a], texts[b]);
    bucket->confirmed += yes;
    return yes;
  };
  Walk(texts, truth, options, options.max_k, /*distances=*/true, predict, accept, out, listed);
  return Status::OK();
}

Status EvaluatePairsAgainstTruth(std::span<const std::string_view> texts, std::span<const uint64_t> predicted,
                                 std::span<const JaccardPair> truth, const TruthOptions& options,
                                 std::vector<TruthBucket>* out) {
  SIMDEX_RETURN_IF_ERROR(CheckOptions(options, texts.size(), truth));
  for (size_t i = 0; i < predicted.size(); ++i) {
    const uint64_t a = predicted[i] >> 32, b = predicted[i] & 0xffffffffu;
    if (a >= b || b >= texts.size() || (i > 0 && predicted[i - 1] >= predicted[i])) {
      return Status::InvalidArgument("truth: predicted pairs must be in range, sorted and distinct");
    }
  }
  size_t next = 0;  // the walk asks for pairs in increasing packed order
  auto predict = [&](size_t a, size_t b) {
    const uint64_t key = PackPair(static_cast<uint32_t>(a), static_cast<uint32_t>(b));
    while (next < predicted.size() && predicted[next] < key) ++next;
    return next < predicted.size() && predicted[next] == key ? 0 : -1;
  };
  auto accept = [](size_t, size_t, TruthBucket*) { return true; };
  Walk(texts, truth, options, /*max_k=*/0, /*distances=*/false, predict, accept, out, nullptr);
  return Status::OK();
}

}  // namespace simdex
