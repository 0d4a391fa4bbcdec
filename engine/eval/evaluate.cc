// Evaluate (include/simdex/eval.h): every pair of a labelled set, counted
// by the bucket of its shorter text and the distances it is predicted at.
#include <algorithm>
#include <limits>

#include "engine/eval/scores.h"
#include "simdex/document_reader.h"
#include "simdex/eval.h"

namespace simdex {
namespace {

void AddCounts(const EvalBucket& f, EvalBucket* t) {
  t->positives += f.positives;
  t->negatives += f.negatives;
  t->hard_negatives += f.hard_negatives;
  for (size_t k = 0; k < f.tp.size() && k < t->tp.size(); ++k) {
    t->tp[k] += f.tp[k];
    t->fp[k] += f.fp[k];
    t->hard_fp[k] += f.hard_fp[k];
  }
  t->positive_distance_sum += f.positive_distance_sum;
  t->positive_distance_count += f.positive_distance_count;
  t->negative_distance_sum += f.negative_distance_sum;
  t->negative_distance_count += f.negative_distance_count;
  t->confirm_calls += f.confirm_calls;
  t->confirmed += f.confirmed;
}

}  // namespace

double EvalBucket::Precision(int k) const { return eval::Precision(tp[k], fp[k]); }
double EvalBucket::Recall(int k) const { return eval::Recall(tp[k], positives); }
double EvalBucket::F1(int k) const { return eval::F1(Precision(k), Recall(k)); }

Status Evaluate(std::span<const LabelledDocument> documents, std::span<const FingerprintResult> fingerprints,
                const EvalOptions& options, std::vector<EvalBucket>* out) {
  if (documents.size() != fingerprints.size()) {
    return Status::InvalidArgument("evaluate: " + std::to_string(documents.size()) + " documents but " +
                                   std::to_string(fingerprints.size()) + " fingerprints");
  }
  if (options.max_k < 0 || options.max_k > 64) return Status::InvalidArgument("evaluate: max_k must be 0..64");
  if (!std::is_sorted(options.bounds.begin(), options.bounds.end())) {
    return Status::InvalidArgument("evaluate: bucket bounds must increase");
  }
  const size_t kn = static_cast<size_t>(options.max_k) + 1;
  auto make = [kn](std::string name, uint32_t min_length, uint32_t max_length) {
    EvalBucket bucket;
    bucket.name = std::move(name);
    bucket.min_length = min_length;
    bucket.max_length = max_length;
    for (auto* v : {&bucket.tp, &bucket.fp, &bucket.hard_fp}) v->assign(kn, 0);
    return bucket;
  };
  static const char* const kNames[] = {"short", "medium", "long"};
  std::vector<EvalBucket> buckets;
  for (size_t b = 0; b <= options.bounds.size(); ++b) {
    buckets.push_back(make(options.bounds.size() == 2 ? kNames[b] : "bucket" + std::to_string(b),
                           b == 0 ? 0 : options.bounds[b - 1],
                           b < options.bounds.size() ? options.bounds[b] : std::numeric_limits<uint32_t>::max()));
  }
  std::vector<uint32_t> length(documents.size());
  for (size_t i = 0; i < documents.size(); ++i) length[i] = static_cast<uint32_t>(CodePointLength(documents[i].text));

  for (size_t i = 0; i < documents.size(); ++i) {
    for (size_t j = i + 1; j < documents.size(); ++j) {
      const LabelledDocument& a = documents[i];
      const LabelledDocument& b = documents[j];
      const uint32_t shorter = std::min(length[i], length[j]);
      const size_t which = static_cast<size_t>(
          std::upper_bound(options.bounds.begin(), options.bounds.end(), shorter) - options.bounds.begin());
      EvalBucket& bucket = buckets[which];
      const bool positive = a.cluster == b.cluster;
      const bool hard = !positive && !a.topic.empty() && a.topic == b.topic;
      positive ? ++bucket.positives : ++bucket.negatives;
      bucket.hard_negatives += hard;
      if (fingerprints[i].empty() || fingerprints[j].empty()) continue;
      const int d = HammingDistance(fingerprints[i].fingerprint, fingerprints[j].fingerprint);
      if (positive) {
        bucket.positive_distance_sum += d;
        ++bucket.positive_distance_count;
      } else {
        bucket.negative_distance_sum += d;
        ++bucket.negative_distance_count;
      }
      if (d > options.max_k) continue;
      if (options.confirmer != nullptr) {
        ++bucket.confirm_calls;
        if (!options.confirmer->Confirms(a.text, b.text)) continue;
        ++bucket.confirmed;
      }
      std::vector<uint64_t>& counts = positive ? bucket.tp : bucket.fp;
      for (size_t k = static_cast<size_t>(d); k < kn; ++k) ++counts[k];
      if (hard) {
        for (size_t k = static_cast<size_t>(d); k < kn; ++k) ++bucket.hard_fp[k];
      }
    }
  }
  EvalBucket all = make("all", 0, std::numeric_limits<uint32_t>::max());
  for (const EvalBucket& bucket : buckets) AddCounts(bucket, &all);
  buckets.push_back(std::move(all));
  *out = std::move(buckets);
  return Status::OK();
}

void AddBuckets(const std::vector<EvalBucket>& from, std::vector<EvalBucket>* into) {
  for (size_t b = 0; b < from.size() && b < into->size(); ++b) AddCounts(from[b], &(*into)[b]);
}

}  // namespace simdex
