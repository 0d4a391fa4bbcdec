#include "tools/text_options.h"

#include <memory>

#include <CLI/CLI.hpp>

namespace simdex::tools {

void AddTextOptions(CLI::App* sub, TextOptionArgs* args) {
  sub->add_option("--tokenizer", args->tokenizer, "features: words, char-ngrams, word-ngrams")
      ->check(CLI::IsMember({"words", "char-ngrams", "word-ngrams"}))
      ->capture_default_str();
  sub->add_option("--ngram", args->ngram, "n for the n-gram tokenizers")->check(CLI::Range(1, 16))->capture_default_str();
  sub->add_flag("--no-normalize", args->no_normalize, "skip NFKC normalization and case folding");
  sub->add_flag("--no-clean-text", args->no_clean_text,
                "keep markup, character references, percent-escapes, URLs and e-mail addresses as they are "
                "(profile 2's text)");
  sub->add_flag("--no-cap-numbers", args->no_cap_numbers,
                "count every occurrence of a number word (profile 2's weights)");
  sub->add_option("--stop-words", args->stop_words,
                  "drop these stop words instead of the default (en and zh): en, zh (built-in lists) or FILE; "
                  "repeatable")
      ->allow_extra_args(false);
  sub->add_flag("--no-stop-words", args->no_stop_words, "keep every feature (no stop words)");
  sub->add_option("--weighting", args->weighting,
                  "feature weights: tf, binary, log-tf, tf-idf or log-tf-idf (both need --idf) (default: tf, or "
                  "tf-idf with --idf)")
      ->check(CLI::IsMember({"tf", "binary", "log-tf", "tf-idf", "log-tf-idf"}));
  sub->add_option("--idf", args->idf,
                  "tf-idf weighting with idf from a term<TAB>idf file (`simdex idf` writes one), or 'auto': learned "
                  "from the batch in a first pass (dedup, fingerprint; docs/fingerprint.md)");
  sub->add_option("--idf-cap", args->idf_cap,
                  "with --idf auto (and in simdex idf): learned idf values above this are this, so that only "
                  "features a large share of the batch holds weigh less (0.693 = ln 2: more than half of it)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--tf-cap", args->tf_cap,
                  "a feature counts at most this many times in its tf (tf, log-tf, tf-idf, log-tf-idf), so that one "
                  "repeated word cannot decide every bit (default: no cap; docs/fingerprint.md, step 5)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--max-share", args->max_share,
                  "no feature weighs more than this share of its document's total weight: the heaviest are lowered "
                  "to one level; 0: no cap (profile 3's weights) (default: 0.1; docs/fingerprint.md, step 5)")
      ->check(CLI::Range(0.0, 1.0));
  sub->add_option("--seed", args->seed, "seed of the feature hash")->capture_default_str();
  sub->add_option("--compat", args->compat,
                  "python-simhash: reproduce the Python simhash package (ignores the text options)")
      ->check(CLI::IsMember({"none", "python-simhash"}))
      ->capture_default_str();
}

Status MakeFingerprintOptions(const TextOptionArgs& args, FingerprintOptions* options, bool allow_auto) {
  if (args.compat == "python-simhash") options->compat = Compat::kPythonSimhash;
  if (args.tokenizer == "char-ngrams") options->tokenizer = Tokenizer::kCharNgrams;
  if (args.tokenizer == "word-ngrams") options->tokenizer = Tokenizer::kWordNgrams;
  options->ngram = args.ngram;
  options->normalize = !args.no_normalize;
  options->clean_text = !args.no_clean_text;
  options->cap_numbers = !args.no_cap_numbers;
  options->tf_cap = args.tf_cap;
  // -1 when not given; NaN passes on, for the library to refuse.
  if (!(args.max_share < 0)) options->max_share = args.max_share;
  if (args.no_stop_words && !args.stop_words.empty()) {
    return Status::InvalidArgument("--no-stop-words and --stop-words contradict each other");
  }
  if (args.no_stop_words || !args.stop_words.empty()) options->stop_words.clear();
  for (const std::string& list : args.stop_words) {
    std::vector<std::string> words = list == "en" || list == "zh" ? BuiltinStopWords(list) : std::vector<std::string>();
    if (words.empty()) SIMDEX_RETURN_IF_ERROR(LoadStopWords(list, &words));
    options->stop_words.insert(options->stop_words.end(), words.begin(), words.end());
  }
  if (args.weighting == "binary") options->weighting = Weighting::kBinary;
  if (args.weighting == "log-tf") options->weighting = Weighting::kLogTf;
  if (args.weighting == "tf-idf") options->weighting = Weighting::kTfIdf;
  if (args.weighting == "log-tf-idf") options->weighting = Weighting::kLogTfIdf;
  const bool idf_weighting = args.weighting == "tf-idf" || args.weighting == "log-tf-idf";
  if (!args.idf.empty() && !args.weighting.empty() && !idf_weighting) {
    return Status::InvalidArgument("--idf weighs features by tf-idf or log-tf-idf; --weighting " + args.weighting +
                                   " contradicts it");
  }
  if (args.idf.empty() && idf_weighting) {
    return Status::InvalidArgument("--weighting " + args.weighting + " needs --idf (a term<TAB>idf file or auto)");
  }
  if (!args.idf.empty() && args.weighting.empty()) options->weighting = Weighting::kTfIdf;
  if (args.idf_cap > 0 && !IdfAuto(args)) {
    return Status::InvalidArgument(
        "--idf-cap caps the idf that --idf auto learns (or simdex idf writes); a term<TAB>idf file's values are "
        "used as written");
  }
  if (IdfAuto(args) && args.compat == "python-simhash") {
    return Status::InvalidArgument("--idf auto: the python-simhash profile has no idf weighting");
  }
  if (IdfAuto(args) && !allow_auto) {
    return Status::InvalidArgument(
        "--idf auto learns from a batch, which this command does not have: give a term<TAB>idf file "
        "(`simdex idf -o FILE DOCUMENTS` learns one)");
  }
  if (!args.idf.empty() && !IdfAuto(args)) {
    auto table = std::make_shared<IdfTable>();
    SIMDEX_RETURN_IF_ERROR(IdfTable::Load(args.idf, options->normalize, table.get()));
    options->idf = std::move(table);
  }
  options->seed = args.seed;
  return Status::OK();
}

}  // namespace simdex::tools
