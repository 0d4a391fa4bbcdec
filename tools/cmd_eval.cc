// simdex eval: precision, recall and F1 of near-duplicate pairs on labelled
// sets (include/simdex/eval.h, docs/quality.md), per length bucket, per k and
// per fingerprint configuration. One JSON line per (configuration, set), and
// one for all sets together:
//   {"config":"words,tf,stop","confirm":null,"set":"edits.jsonl","documents":696,
//    "buckets":[{"bucket":"short","positives":..,"negatives":..,"hard_negatives":..,
//                "mean_positive_distance":..,"mean_negative_distance":..,"confirm_calls":..,"confirmed":..,
//                "k":[{"k":0,"tp":..,"fp":..,"fn":..,"hard_fp":..,"precision":..,"recall":..,"f1":..},..]},..]}
// With --truth jaccard the pairs' truth is their exact shingle Jaccard
// instead, scored strictly and leniently: EvaluateSetAgainstTruth makes each
// set's lines and text summary (include/simdex/eval.h).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "simdex/confirm.h"
#include "simdex/eval.h"
#include "simdex/fingerprint.h"
#include "simdex/front_end_text.h"
#include "simdex/output_writer.h"
#include "tools/commands.h"
#include "tools/output_checks.h"
#include "tools/stopwatch.h"

namespace simdex::tools {
namespace {

constexpr const char* kEvalCommand = "eval";

// Every tokenizer, weighting and stop-word choice, and the Python package.
const char* const kDefaultConfigs[] = {"words", "shingles2", "shingles3", "chars2", "chars3", "chars4"};
const char* const kWeightings[] = {"tf", "binary", "log-tf"};

struct EvalArgs {
  std::vector<std::string> sets;
  std::vector<std::string> configs;
  std::string confirm;
  int max_k = 8;
  std::vector<uint32_t> bounds = {140, 500};
  std::string output = "-";
  bool quiet = false;
  // --truth jaccard: scored against the exact Jaccard truth, no labels needed.
  std::string truth = "labels";
  TruthEvalOptions jaccard;
  std::string list_path;         // --list
  std::string truth_pairs_path;  // --truth-pairs
};

void AppendResult(const std::string& config, const std::string& confirm, const std::string& set, size_t documents,
                  const std::vector<EvalBucket>& buckets, std::string* out) {
  out->append("{\"config\":");
  AppendJsonString(out, config);
  out->append(",\"confirm\":");
  if (confirm.empty()) out->append("null");
  else AppendJsonString(out, confirm);
  out->append(",\"set\":");
  AppendJsonString(out, set);
  // ,"<name>": and then an integer, a number ("%.6g") or null.
  auto key = [out](const char* name) -> std::string& { return out->append(",\"").append(name).append("\":"); };
  auto integer = [&](const char* name, auto v) { key(name).append(std::to_string(v)); };
  auto number = [&](const char* name, bool given, double v) {
    char text[32] = "null";
    if (given) std::snprintf(text, sizeof text, "%.6g", v);
    key(name).append(text);
  };
  integer("documents", documents);
  out->append(",\"buckets\":[");
  for (size_t b = 0; b < buckets.size(); ++b) {
    const EvalBucket& e = buckets[b];
    if (b > 0) out->push_back(',');
    out->append("{\"bucket\":");
    AppendJsonString(out, e.name);
    integer("min_length", e.min_length);
    if (e.max_length == UINT32_MAX) key("max_length").append("null");
    else integer("max_length", e.max_length);
    integer("positives", e.positives);
    integer("negatives", e.negatives);
    integer("hard_negatives", e.hard_negatives);
    number("mean_positive_distance", e.positive_distance_count > 0,
           e.positive_distance_sum / static_cast<double>(e.positive_distance_count));
    number("mean_negative_distance", e.negative_distance_count > 0,
           e.negative_distance_sum / static_cast<double>(e.negative_distance_count));
    integer("confirm_calls", e.confirm_calls);
    integer("confirmed", e.confirmed);
    out->append(",\"k\":[");
    for (size_t k = 0; k < e.tp.size(); ++k) {
      if (k > 0) out->push_back(',');
      const int ki = static_cast<int>(k);
      out->append("{\"k\":").append(std::to_string(k));
      integer("tp", e.tp[k]);
      integer("fp", e.fp[k]);
      integer("fn", e.positives - e.tp[k]);
      integer("hard_fp", e.hard_fp[k]);
      number("precision", true, e.Precision(ki));
      number("recall", true, e.Recall(ki));
      number("f1", true, e.F1(ki));
      out->push_back('}');
    }
    out->append("]}");
  }
  out->append("]}\n");
}

// The confirmer of a --confirm spec (none for ""); a usage error when the
// spec is not one, *name its canonical name.
int MakeConfirmer(const std::string& spec, std::unique_ptr<Confirmer>* confirmer, std::string* name = nullptr) {
  if (spec.empty()) return 0;
  ConfirmOptions confirm;
  Status s = ParseConfirmSpec(spec, &confirm);
  if (s.ok()) s = Confirmer::Create(confirm, confirmer);
  if (!s.ok()) return ReportError(kEvalCommand, s, /*usage=*/true);
  if (name != nullptr) *name = ConfirmSpecName(confirm);
  return 0;
}

// --truth jaccard: each set's lines to their files, in the order of the
// sets, and its summary to stderr.
int RunTruthEval(const EvalArgs& args) {
  const TruthEvalOptions& options = args.jaccard;
  std::unique_ptr<Confirmer> confirmer;
  if (int bad = MakeConfirmer(options.confirm, &confirmer)) return bad;
  // -o, then --list and --truth-pairs when given: each file and the part of
  // a set's output it gets.
  struct Output {
    const std::string& path;
    bool wanted;
    std::string TruthEvalOutput::*part;
    std::unique_ptr<OutputWriter> writer;
  } outputs[] = {{args.output, true, &TruthEvalOutput::rows, nullptr},
                 {args.list_path, options.list, &TruthEvalOutput::listed, nullptr},
                 {args.truth_pairs_path, options.truth_pairs, &TruthEvalOutput::truth_pairs, nullptr}};
  for (Output& o : outputs) {
    Status s = o.wanted ? OutputWriter::Open(o.path, &o.writer) : Status::OK();
    if (!s.ok()) return ReportError(kEvalCommand, s.WithContext(o.path));
  }
  const Stopwatch stopwatch;
  for (const std::string& set : args.sets) {
    TruthEvalOutput out;
    Status s = EvaluateSetAgainstTruth(set, options, confirmer.get(), &out);
    if (!s.ok()) return ReportError(kEvalCommand, s);
    if (!args.quiet) std::fputs(out.summary.c_str(), stderr);
    for (Output& o : outputs) {
      if (o.writer) s = o.writer->Append(out.*o.part);
      // (a failure to append to --list has always named -o)
      if (!s.ok()) return ReportError(kEvalCommand, s.WithContext(&o == &outputs[1] ? args.output : o.path));
    }
  }
  for (Output& o : outputs) {
    Status s = o.writer ? o.writer->Close() : Status::OK();
    if (!s.ok()) return ReportError(kEvalCommand, s.WithContext(o.path));
  }
  if (!args.quiet) {
    std::fprintf(stderr, "simdex eval: %s x %s against the Jaccard truth%s%s in %.2f s\n",
                 Count(options.configs.size(), "configuration").c_str(), Count(args.sets.size(), "set").c_str(),
                 options.confirm.empty() ? "" : (", confirmed by " + options.confirm).c_str(),
                 options.baseline ? ", with the MinHash-LSH baseline" : "", stopwatch.Seconds());
  }
  return 0;
}

int RunEval(EvalArgs args) {
  if (args.configs.empty() && args.jaccard.reported.empty()) {
    for (const char* tokenizer : kDefaultConfigs) {
      for (const char* weighting : kWeightings) {
        for (const char* stop : {"stop", "no-stop"}) {
          args.configs.push_back(std::string(tokenizer) + "," + weighting + "," + stop);
        }
      }
    }
    args.configs.push_back("python-simhash");
  }
  std::vector<EvalConfig> options(args.configs.size());
  for (size_t c = 0; c < args.configs.size(); ++c) {
    Status s = ParseEvalConfig(args.configs[c], &options[c]);
    if (!s.ok()) return ReportError(kEvalCommand, s, /*usage=*/true);
  }
  if (args.truth == "jaccard") {
    TruthEvalOptions& j = args.jaccard;
    j.config_names = args.configs;
    j.configs = options;
    j.confirm = args.confirm;
    j.truth.max_k = args.max_k;
    j.truth.bounds = args.bounds;
    j.list = !args.list_path.empty();
    j.truth_pairs = !args.truth_pairs_path.empty();
    std::vector<std::string> read = args.sets;
    read.insert(read.end(), j.reported.begin(), j.reported.end());
    const Status written = CheckOutputsAreNotInputs(
        {{"-o", args.output}, {"--list", args.list_path}, {"--truth-pairs", args.truth_pairs_path}}, read);
    if (!written.ok()) return ReportError(kEvalCommand, written, /*usage=*/true);
    if (!j.reported.empty() && args.sets.size() != 1) {
      return ReportError(kEvalCommand, "--reported scores pairs of one set's documents: give one set", kExitUsage);
    }
    if ((j.bands.bands > 0) != (j.bands.rows > 0)) {
      return ReportError(kEvalCommand, "--bands and --rows go together", kExitUsage);
    }
    if (j.bands.bands * j.bands.rows > j.num_perm) {
      return ReportError(kEvalCommand, "--bands x --rows must be at most --num-perm", kExitUsage);
    }
    if (!(j.truth.unrelated <= j.truth.negative && j.truth.negative <= j.truth.positive)) {
      return ReportError(kEvalCommand, "thresholds must satisfy --unrelated <= --negative <= --positive", kExitUsage);
    }
    return RunTruthEval(args);
  }
  if (args.jaccard.baseline || args.jaccard.minhash || !args.list_path.empty() || !args.jaccard.reported.empty() ||
      !args.truth_pairs_path.empty()) {
    return ReportError(kEvalCommand, "--baseline, --minhash, --list, --reported and --truth-pairs need --truth jaccard",
                       kExitUsage);
  }
  EvalOptions eval;
  eval.max_k = args.max_k;
  eval.bounds = args.bounds;
  std::unique_ptr<Confirmer> confirmer;
  std::string confirm_name;
  if (int bad = MakeConfirmer(args.confirm, &confirmer, &confirm_name)) return bad;
  eval.confirmer = confirmer.get();
  const Status checked = CheckOutputsAreNotInputs({{"-o", args.output}}, args.sets);
  if (!checked.ok()) return ReportError(kEvalCommand, checked, /*usage=*/true);
  std::vector<std::vector<LabelledDocument>> sets(args.sets.size());
  size_t all_documents = 0;
  for (size_t i = 0; i < args.sets.size(); ++i) {
    Status s = ReadLabelledSet(args.sets[i], &sets[i]);
    if (!s.ok()) return ReportError(kEvalCommand, s);
    all_documents += sets[i].size();
  }
  std::unique_ptr<OutputWriter> writer;
  Status s = OutputWriter::Open(args.output, &writer);
  if (!s.ok()) return ReportError(kEvalCommand, FileError(args.output, s));
  const Stopwatch stopwatch;
  std::string out;
  std::vector<FingerprintResult> fingerprints;
  for (size_t c = 0; c < options.size(); ++c) {
    std::vector<EvalBucket> all;
    for (size_t i = 0; i < sets.size() && s.ok(); ++i) {
      std::vector<EvalBucket> buckets;
      std::vector<std::string_view> texts;
      for (const LabelledDocument& d : sets[i]) texts.push_back(d.text);
      s = FingerprintAll(options[c], texts, &fingerprints);
      if (s.ok()) s = Evaluate(sets[i], fingerprints, eval, &buckets);
      if (!s.ok()) break;
      AppendResult(args.configs[c], confirm_name, args.sets[i], sets[i].size(), buckets, &out);
      if (all.empty()) all = buckets;
      else AddBuckets(buckets, &all);
    }
    if (!s.ok()) break;
    if (sets.size() > 1) AppendResult(args.configs[c], confirm_name, "all", all_documents, all, &out);
  }
  if (s.ok()) s = writer->Append(out);
  if (s.ok()) s = writer->Close();
  if (!s.ok()) return ReportError(kEvalCommand, FileError(args.output, s));
  if (!args.quiet) {
    std::fprintf(stderr, "simdex eval: %s x %s (%s)%s in %.2f s\n", Count(options.size(), "configuration").c_str(),
                 Count(sets.size(), "set").c_str(), Count(all_documents, "document").c_str(), confirm_name.empty() ? "" : (", confirmed by " + confirm_name).c_str(),
                 stopwatch.Seconds());
  }
  return 0;
}

}  // namespace

void AddEvalCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<EvalArgs>();
  CLI::App* sub = app.add_subcommand(
      "eval", "Precision, recall and F1 of near-duplicate pairs on labelled sets, per length bucket, k and configuration");
  sub->add_option("sets", args->sets, "labelled sets: JSONL with string fields id, text, cluster (and topic); with --truth "
                  "jaccard, id and text")
      ->required();
  sub->add_option("--config", args->configs,
                  "fingerprint configuration, e.g. words,tf,stop or chars3,log-tf,no-stop or python-simhash; "
                  "repeatable (default: every tokenizer x weighting x stop words, and python-simhash)")
      ->allow_extra_args(false);
  sub->add_option("--confirm", args->confirm,
                  "second stage: pairs within k count only if confirmed (jaccard-shingles:T, jaccard:T, "
                  "jaccard-words:T, jaccard-chars:T, edit:T)");
  sub->add_option("--max-k", args->max_k, "largest k evaluated")->check(CLI::Range(0, 64))->capture_default_str();
  sub->add_option("--bounds", args->bounds, "length bucket bounds in code points (shorter text of a pair)")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_option("-o,--output", args->output, "JSON lines ('-' = stdout)")->capture_default_str();
  TruthEvalOptions& j = args->jaccard;
  j.truth.list_negative_within = 3;
  j.truth.list_positive_beyond = 12;
  sub->add_option("--truth", args->truth,
                  "labels: a pair is a near-duplicate iff its documents share a cluster; jaccard: iff the exact "
                  "Jaccard of their shingle sets is >= --positive (clusters not needed; docs/quality.md)")
      ->check(CLI::IsMember({"labels", "jaccard"}))
      ->capture_default_str();
  sub->add_option("--shingle", j.shingles.word_n, "words per shingle (spaced text) and characters per shingle "
                  "(unspaced text: Chinese, Japanese, Thai, ...) of the Jaccard truth")
      ->check(CLI::Range(1, 64))
      ->capture_default_str()
      ->each([&j](const std::string&) { j.shingles.char_n = j.shingles.word_n; });
  sub->add_option_function<std::string>(
         "--shingles", [&j](const std::string& name) { ParseShingleWords(name, &j.shingles.words); },
         std::string("the words of the Jaccard truth's shingles (spaced text): word-chars (runs of Unicode \\w "
                     "characters: the field's common definition) or space-split (runs between spaces) (default ") +
             ShingleWordsName(ShingleOptions{}.words) + "; include/simdex/shingles.h)")
      ->check(CLI::IsMember({ShingleWordsName(ShingleWords::kWordChars), ShingleWordsName(ShingleWords::kSpaceSplit)}));
  sub->add_option("--reported", j.reported,
                  "Jaccard truth: also score the pairs of this file as they are (JSON lines with the ids of each "
                  "pair's documents in \"a\" and \"b\", as `simdex dedup --pairs` writes them), against one set; "
                  "repeatable, a row each; without --config no fingerprints are scored")
      ->allow_extra_args(false);
  sub->add_option("--truth-pairs", args->truth_pairs_path,
                  "Jaccard truth: write its positive pairs (J >= --positive) here as JSON lines {\"set\",\"a\",\"b\","
                  "\"jaccard\"} (ids of the set), which --reported reads");
  sub->add_option("--positive", j.truth.positive, "Jaccard truth: a near-duplicate pair at J >= this; scored "
                  "strictly (first), a reported pair below it is a false positive")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sub->add_option("--negative", j.truth.negative, "Jaccard truth, lenient scoring (second): a reported pair is "
                  "false only at J < this; pairs in between are left out and counted apart")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sub->add_option("--unrelated", j.truth.unrelated, "Jaccard truth: clearly unrelated at J < this")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sub->add_flag("--baseline", j.baseline, "Jaccard truth: also run the MinHash-LSH baseline on the same shingles");
  sub->add_flag("--minhash", j.minhash,
                "Jaccard truth: also run simdex's MinHash-LSH (dedup --method minhash, its bands and estimate filter) "
                "on the same shingles, with --num-perm, --baseline-threshold, --bands/--rows and --signature-bits");
  sub->add_option("--signature-bits", j.signature_bits, "--minhash: bits of each value its estimate filter compares")
      ->check(CLI::IsMember({1, 2, 4, 8, 16, 32}))
      ->capture_default_str();
  sub->add_option("--num-perm", j.num_perm, "baseline and --minhash: min-hashes per signature")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  sub->add_option("--seed", j.seed,
                  "baseline and --minhash: seed of the hash functions (runs over several seeds tell a pair's luck from "
                  "a method's)")
      ->capture_default_str();
  sub->add_option("--baseline-threshold", j.baseline_threshold,
                  "baseline: the Jaccard its bands are tuned for and its estimate filter keeps")
      ->check(CLI::Range(0.01, 1.0))
      ->capture_default_str();
  sub->add_option("--bands", j.bands.bands, "baseline: bands (default: optimal for the threshold)")
      ->check(CLI::Range(1, 1024));
  sub->add_option("--rows", j.bands.rows, "baseline: rows per band")->check(CLI::Range(1, 1024));
  sub->add_option("--list", args->list_path, "Jaccard truth: write the listed pairs here as JSON lines (negative "
                  "pairs within --list-within bits, positive pairs beyond --list-beyond bits)");
  sub->add_option("--list-within", j.truth.list_negative_within, "see --list")
      ->check(CLI::Range(-1, 64))
      ->capture_default_str();
  sub->add_option("--list-beyond", j.truth.list_positive_beyond, "see --list (-1: every positive pair)")
      ->check(CLI::Range(-1, 65))
      ->capture_default_str();
  sub->add_flag("-q,--quiet", args->quiet, "no summary on stderr");
  sub->callback([args, run] { *run = [args] { return RunEval(*args); }; });
}

}  // namespace simdex::tools
