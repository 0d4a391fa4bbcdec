// ParseEvalConfig (include/simdex/eval.h): "words,tf,stop" and the like.
#include <charconv>
#include <cmath>
#include <limits>

#include "simdex/eval.h"

namespace simdex {
namespace {

// "chars3" -> 3, "idf-cap0.7" -> 0.7: word is prefix followed by a number
// and nothing else.
template <typename T>
bool NumberAfter(std::string_view word, std::string_view prefix, T* n) {
  if (!word.starts_with(prefix)) return false;
  const std::string_view digits = word.substr(prefix.size());
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *n);
  return !digits.empty() && ec == std::errc() && end == digits.data() + digits.size();
}

bool NgramAfter(std::string_view word, std::string_view prefix, int* n) {
  return NumberAfter(word, prefix, n) && *n >= 1 && *n <= 16;
}

}  // namespace

Status ParseEvalConfig(std::string_view spec, EvalConfig* out) {
  auto bad = [spec](const std::string& why) {
    return Status::InvalidArgument("configuration '" + std::string(spec) + "': " + why);
  };
  FingerprintOptions o;
  bool log_tf = false, idf_auto = false;
  double cap = std::numeric_limits<double>::infinity();
  size_t start = 0;
  for (int i = 0; start <= spec.size(); ++i) {
    size_t comma = spec.find(',', start);
    if (comma == std::string_view::npos) comma = spec.size();
    const std::string_view word = spec.substr(start, comma - start);
    start = comma + 1;
    int n = 0;
    if (i == 0) {
      if (word == "default") {
        // The library's defaults, changed by the words that follow.
      } else if (word == "words") {
        o.tokenizer = Tokenizer::kWords;
      } else if (NgramAfter(word, "chars", &n)) {
        o.tokenizer = Tokenizer::kCharNgrams;
        o.ngram = n;
      } else if (NgramAfter(word, "shingles", &n)) {
        o.tokenizer = Tokenizer::kWordNgrams;
        o.ngram = n;
      } else if (word == "python-simhash") {
        o.compat = Compat::kPythonSimhash;
        if (comma != spec.size()) return bad("python-simhash takes no other option");
      } else {
        return bad("unknown tokenizer '" + std::string(word) + "' (default, words, charsN, shinglesN, python-simhash)");
      }
    } else if (word == "tf") {
      o.weighting = Weighting::kTermFrequency;
    } else if (word == "binary") {
      o.weighting = Weighting::kBinary;
    } else if (word == "log-tf") {
      o.weighting = Weighting::kLogTf;
      log_tf = true;
    } else if (word == "idf-auto") {
      idf_auto = true;  // the table is learned from each set evaluated
    } else if (double c = 0; NumberAfter(word, "idf-cap", &c) && std::isfinite(c) && c > 0) {
      cap = c;  // the cap on the idf learned
    } else if (uint32_t t = 0; NumberAfter(word, "tf-cap", &t) && t > 0) {
      o.tf_cap = t;  // counts above t count t
    } else if (double m = 0; NumberAfter(word, "max-share", &m) && m >= 0 && m <= 1) {
      o.max_share = m;  // no feature above this share of the weight; 0: no cap
    } else if (word == "stop") {
      o.stop_words = DefaultStopWords();
    } else if (word == "no-stop") {
      o.stop_words.clear();
    } else if (word == "no-normalize") {
      o.normalize = false;
    } else if (word == "no-clean-text") {
      o.clean_text = false;
    } else if (word == "no-cap-numbers") {
      o.cap_numbers = false;
    } else {
      return bad("unknown option '" + std::string(word) + "'");
    }
  }
  if (!std::isinf(cap) && !idf_auto) return bad("idf-cap caps the idf of idf-auto, which is not given");
  if (idf_auto) {
    if (o.weighting != Weighting::kTermFrequency && o.weighting != Weighting::kLogTf) {
      return bad("idf-auto weighs by tf-idf or log-tf-idf: binary contradicts it");
    }
    o.weighting = log_tf ? Weighting::kLogTfIdf : Weighting::kTfIdf;
    o.idf = nullptr;
  }
  out->options = std::move(o);
  out->max_idf = cap;
  return Status::OK();
}

}  // namespace simdex
