// TruthSummaryLine (engine/eval/truth_summary.h).
#include "engine/eval/truth_summary.h"

#include <cstdio>

namespace simdex::eval {
namespace {

std::string Fixed(double v, const char* format = "%.3f") {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string Scores(const TruthBucket& b, int k, Scoring s) {
  return Fixed(b.Precision(k, s)) + "/" + Fixed(b.Recall(k)) + "/" + Fixed(b.F1(k, s));
}

}  // namespace

std::string TruthSummaryLine(const std::string& set, const std::string& what, const TruthBucket& all, int k,
                             const TruthOptions& options) {
  const std::string positive = Fixed(options.positive, "%g"), negative = Fixed(options.negative, "%g");
  const size_t i = static_cast<size_t>(k);
  const uint64_t reported = all.tp[i] + all.between_predicted[i] + all.fp[i];
  return set + ", " + what + ": strict P/R/F1 " + Scores(all, k, Scoring::kStrict) + "; lenient (" + negative +
         " <= J < " + positive + " left out) " + Scores(all, k, Scoring::kLenient) + "; " +
         std::to_string(reported) + " pairs reported: " + std::to_string(all.tp[i]) + " with J >= " + positive +
         ", " + std::to_string(all.between_predicted[i]) + " with " + negative + " <= J < " + positive + ", " +
         std::to_string(all.fp[i]) + " with J < " + negative + "\n";
}

}  // namespace simdex::eval
