// ParseEvalConfig (include/simdex/eval.h): "words,tf,stop" and the like.
#include <charconv>

#include "simdex/eval.h"

namespace simdex {
namespace {

// "chars3" -> 3 when word starts with prefix and ends in 1..16.
bool NumberAfter(std::string_view word, std::string_view prefix, int* n) {
  if (!word.starts_with(prefix)) return false;
  const std::string_view digits = word.substr(prefix.size());
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *n);
  return !digits.empty() && ec == std::errc() && end == digits.data() + digits.size() && *n >= 1 && *n <= 16;
}

}  // namespace

Status ParseEvalConfig(std::string_view spec, FingerprintOptions* out) {
  auto bad = [spec](const std::string& why) {
    return Status::InvalidArgument("configuration '" + std::string(spec) + "': " + why);
  };
  FingerprintOptions o;
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
      } else if (NumberAfter(word, "chars", &n)) {
        o.tokenizer = Tokenizer::kCharNgrams;
        o.ngram = n;
      } else if (NumberAfter(word, "shingles", &n)) {
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
    } else if (word == "idf-auto") {
      o.weighting = Weighting::kTfIdf;  // the table is learned from each set evaluated
      o.idf = nullptr;
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
  *out = std::move(o);
  return Status::OK();
}

}  // namespace simdex
