// ParseConfirmSpec and ConfirmSpecName (include/simdex/confirm.h).
#include <charconv>
#include <cstdio>

#include "simdex/confirm.h"

namespace simdex {

Status ParseConfirmSpec(std::string_view spec, ConfirmOptions* out) {
  auto bad = [spec](const std::string& why) {
    return Status::InvalidArgument("confirm spec '" + std::string(spec) + "': " + why +
                                   " (expected jaccard:T, jaccard-words:T, jaccard-chars:T, jaccard-shingles:T or edit:T)");
  };
  const size_t colon = spec.rfind(':');
  if (colon == std::string_view::npos) return bad("no ':' before the threshold");
  std::string_view measure = spec.substr(0, colon);
  const std::string threshold_text(spec.substr(colon + 1));
  ConfirmOptions o;
  const size_t slash = measure.find('/');
  if (slash != std::string_view::npos) {
    if (!measure.starts_with("jaccard-shingles")) return bad("only jaccard-shingles takes a word definition ('/')");
    if (!ParseShingleWords(measure.substr(slash + 1), &o.words)) {
      return bad("word definition '" + std::string(measure.substr(slash + 1)) + "' is not word-chars or space-split");
    }
    measure = measure.substr(0, slash);
  }
  size_t n_at = measure.size();
  while (n_at > 0 && measure[n_at - 1] >= '0' && measure[n_at - 1] <= '9') --n_at;
  const std::string_view digits = measure.substr(n_at);
  measure = measure.substr(0, n_at);
  if (measure == "jaccard" || measure == "jaccard-chars") {
    o.measure = ConfirmMeasure::kJaccard;
    o.unit = ShingleUnit::kCodePoints;
    o.n = 3;
  } else if (measure == "jaccard-words") {
    o.measure = ConfirmMeasure::kJaccard;
    o.unit = ShingleUnit::kWords;
    o.n = 2;
  } else if (measure == "jaccard-shingles") {
    o.measure = ConfirmMeasure::kJaccard;
    o.unit = ShingleUnit::kTruthShingles;
    o.n = 5;
  } else if (measure == "edit" && digits.empty()) {
    o.measure = ConfirmMeasure::kEditDistance;
  } else {
    return bad("unknown measure '" + std::string(spec.substr(0, colon)) + "'");
  }
  if (!digits.empty()) {
    int n = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc() || end != digits.data() + digits.size() || n < 1 || n > 16) {
      return bad("shingle length must be 1..16");
    }
    o.n = n;
  }
  char* end = nullptr;
  const double t = threshold_text.empty() ? -1 : std::strtod(threshold_text.c_str(), &end);
  if (threshold_text.empty() || end != threshold_text.c_str() + threshold_text.size() || !(t >= 0 && t <= 1)) {
    return bad("threshold must be a number in [0, 1]");
  }
  o.threshold = t;
  *out = o;
  return Status::OK();
}

std::string ConfirmSpecName(const ConfirmOptions& options) {
  char threshold[32];
  std::snprintf(threshold, sizeof threshold, "%g", options.threshold);
  if (options.measure == ConfirmMeasure::kEditDistance) return std::string("edit:") + threshold;
  const char* measure = options.unit == ShingleUnit::kWords            ? "jaccard-words"
                        : options.unit == ShingleUnit::kTruthShingles ? "jaccard-shingles"
                                                                      : "jaccard-chars";
  const std::string words = options.unit == ShingleUnit::kTruthShingles && options.words != ShingleOptions{}.words
                                ? std::string("/") + ShingleWordsName(options.words)
                                : "";
  return std::string(measure) + std::to_string(options.n) + words + ":" + threshold;
}

}  // namespace simdex
