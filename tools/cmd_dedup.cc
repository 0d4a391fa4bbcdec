// simdex dedup: de-duplicates a batch of documents (docs/dedup.md) by
// SimHash (every pair within distance k, by a self-join over permuted
// sorted tables) or MinHash-LSH (docs/minhash.md): clusters with a
// representative each, optionally every document against stored indexes.
// Documents come as JSONL or one per line (fingerprinted with every option
// of `simdex fingerprint`, or signed) or as fingerprint files. This file
// checks the flags, naming them, and prints; the library's batch
// de-duplication (include/simdex/batch.h) does the work and writes the
// files.
//
// Ids may be numbers or strings (JSONL string ids, string ids of
// fingerprint files); an index of string ids reports its matches' strings.
// Output, one JSON line per document in input order:
//   {"id":7,"cluster":3,"duplicate":true,"distance":2}
//   {"id":9,"cluster":9,"duplicate":true,"distance":0,"against":{"index":"old.sdx","id":41,"distance":1}}
//   {"id":5,"cluster":5,"duplicate":false,"distance":0,"empty":"no-text"}
// --pairs, --keep-list and --clusters write the pairs, the ids to keep and
// the clusters with their members' first words; a summary goes to stderr.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "simdex/batch.h"
#include "simdex/confirm.h"
#include "simdex/document_inputs.h"
#include "simdex/front_end_text.h"
#include "simdex/index.h"
#include "simdex/lsh_index.h"
#include "simdex/minhash.h"
#include "simdex/profile.h"
#include "tools/commands.h"
#include "tools/input_options.h"
#include "tools/memory_option.h"
#include "tools/output_checks.h"
#include "tools/progress.h"
#include "tools/text_options.h"

namespace simdex::tools {
namespace {

constexpr const char* kDedupCommand = "dedup";

struct DedupArgs {
  DocumentInputArgs input;
  std::string format;  // jsonl, lines, fingerprints; empty: by extension
  TextOptionArgs text;
  std::string memory;
  std::string tmpdir;
  int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  std::string keep = KeepRuleSpec(SimHashDedupOptions().keep);  // MinHash's default is the same
  std::string output = "-";
  std::string pairs;
  std::string keep_list;
  std::string clusters;
  int snippet_words = 8;
  std::vector<std::string> against;
  std::string against_strategy = "auto";
  // --method simhash: --k, --scheme, --confirm (also MinHash's), --k-short
  // and --short-length fill these options; the rest is set from the other
  // flags.
  SimHashDedupOptions simhash;
  bool allow_duplicate_ids = false;
  bool quiet = false;
  std::string method = "auto";  // auto: ChooseMethod
  std::string method_reason;    // under auto: why it chose args.method
  // --method minhash: the flags fill these options, whose defaults are the
  // library's (--help shows them); the rest is set from the other flags.
  MinHashDedupOptions minhash;
  ShingleWords shingle_words = ShingleOptions{}.words;  // --shingles, when given
  std::string estimate_filter;  // a J, "off", or empty: the options' default
  bool approximate = false;     // --method minhash: the estimate decides (no exact check)
  // Options given on the command line that only the other method takes.
  std::vector<std::string> simhash_only, minhash_only;
  bool seed_given = false;
  bool shingles_given = false;
};

// The options only one method takes (docs/minhash.md); the text options
// configure SimHash's features, MinHash uses the Jaccard truth's shingles.
constexpr const char* kSimHashOnly[] = {"--k", "--scheme", "--k-short", "--short-length", "--against-strategy", "--tokenizer", "--ngram", "--no-normalize",
                                        "--no-clean-text", "--no-cap-numbers", "--stop-words", "--no-stop-words",
                                        "--weighting", "--idf", "--compat"};
constexpr const char* kMinHashOnly[] = {"--threshold", "--num-perm", "--shingles", "--bands", "--rows", "--signature-bits",
                                        "--estimate-filter", "--approximate"};

// --method auto (docs/dedup.md, "Method"): simhash for fingerprint files, a
// SimHash index under --against or a SimHash-only option; minhash for a
// MinHash-LSH index under --against or a MinHash-only option; otherwise
// (documents) minhash, whose F1 the corpora of docs/quality.md measured
// above SimHash's ("Which method"). Sets args->method and method_reason;
// InvalidArgument when the reasons name both methods. An --against that
// cannot be read chooses nothing (opening it reports why).
Status ChooseMethod(bool fingerprints, DedupArgs* args) {
  if (args->method != "auto") return Status::OK();
  std::vector<std::string> simhash = args->simhash_only, minhash = args->minhash_only;
  for (std::string& name : simhash) name += " (a SimHash option)";
  for (std::string& name : minhash) name += " (a MinHash option)";
  if (fingerprints) simhash.insert(simhash.begin(), "fingerprint-file inputs");
  // An --against index's kind names the method that makes it (IndexFileKind::method).
  const std::pair<std::string_view, std::vector<std::string>*> reasons[] = {{"simhash", &simhash},
                                                                            {"minhash", &minhash}};
  for (const std::string& path : args->against) {
    IndexKind kind;
    if (!ReadIndexKind(path, &kind).ok()) continue;
    for (const auto& [method, list] : reasons) {
      if (method == FindIndexKind(kind)->method()) {
        list->push_back("--against " + DisplayName(path) + " (a " + IndexKindName(kind) + " index)");
      }
    }
  }
  if (!simhash.empty() && !minhash.empty()) {
    return Status::InvalidArgument("--method auto cannot choose: simhash for " + simhash.front() + ", minhash for " +
                                   minhash.front() + "; give --method");
  }
  args->method = simhash.empty() ? "minhash" : "simhash";
  args->method_reason = !simhash.empty() ? simhash.front() : !minhash.empty() ? minhash.front() : "document inputs";
  return Status::OK();
}

// Under --method auto: the method it chose and why.
void PrintChosenMethod(const DedupArgs& args) {
  if (args.method_reason.empty()) return;
  std::fprintf(stderr, "simdex dedup: method %s, chosen by --method auto for %s\n", args.method.c_str(),
               Printable(args.method_reason).c_str());
}

// After a run of either method: the records skipped (documents), the id
// check (unless --allow-duplicate-ids), then the files asked for.
Status WriteOutputs(const DedupArgs& args, bool documents, BatchDedupResult* result, Progress* progress) {
  if (documents && result->skipped() > 0) PrintSkipped(kDedupCommand, result->first_errors(), result->skipped());
  Status s;
  if (!args.allow_duplicate_ids) s = result->CheckIdsAreUnique("--allow-duplicate-ids keeps every document");
  progress->Done();
  if (s.ok()) s = result->WriteRecords(args.output, args.against);
  if (s.ok() && !args.pairs.empty()) s = result->WritePairs(args.pairs);
  if (s.ok() && !args.keep_list.empty()) s = result->WriteKeepList(args.keep_list);
  if (s.ok() && !args.clusters.empty()) s = result->WriteClusters(args.clusters, args.snippet_words);
  return s;
}

void PrintSummary(const DedupArgs& args, const SimHashDedupStats& stats, uint64_t skipped, double seconds) {
  const DedupStats& s = stats.join;
  auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  std::fprintf(stderr, "simdex dedup: %s (%llu empty, %s skipped), %s; k %d, scheme %s: %s, %s of %s, %s",
               Count(s.documents, "document").c_str(), u(s.empty), Count(skipped, "bad record").c_str(),
               Count(s.distinct_fingerprints, "distinct fingerprint").c_str(), stats.join_k, stats.scheme.c_str(),
               Count(s.pairs, "pair").c_str(), Count(s.clusters, "cluster").c_str(),
               Count(s.clustered_documents, "document").c_str(), Count(s.duplicates, "duplicate").c_str());
  if (!args.against.empty()) {
    std::fprintf(stderr, "; against %s (%s): %s matched", Count(args.against.size(), "index", "indexes").c_str(),
                 s.against_strategy.c_str(), Count(s.against_matches, "document").c_str());
  }
  std::fprintf(stderr, "; %.2f s (reading %.2f, distinct %.2f, self-join %.2f, against %.2f, clusters %.2f), %s\n",
               seconds, stats.seconds_read, s.seconds_distinct, s.seconds_self_join, s.seconds_against,
               s.seconds_clusters, Count(s.spilled_runs, "spilled run").c_str());
}

void PrintSecondStage(const SimHashDedupOptions& o, const SimHashDedupStats& stats) {
  const ConfirmationStats& s = stats.confirm;
  std::fprintf(stderr,
               "simdex dedup: second stage: %s, %llu within k %d (k %d below %u code points), "
               "%llu accepted%s%s; %s; texts read again (and shingled, for jaccard) in %.3f s, confirmed in %.3f s (%.2f us per "
               "pair)\n",
               Count(s.candidates, "candidate pair").c_str(), static_cast<unsigned long long>(s.in_range), stats.k,
               stats.k_short, o.short_length, static_cast<unsigned long long>(s.confirmed),
               o.confirm.empty() ? "" : " by ", o.confirm.c_str(), Count(stats.duplicates, "duplicate").c_str(),
               s.seconds_texts, s.seconds_confirm,
               s.in_range == 0 ? 0.0 : s.seconds_confirm * 1e6 / static_cast<double>(s.in_range));
}

// An option that reads a JSONL field (--keep max:FIELD, --title-field)
// refuses an input read as one document per line.
Status RequireJsonl(const std::string& option, const DedupArgs& args, const std::vector<BatchFormat>& formats) {
  for (size_t i = 0; i < formats.size(); ++i) {
    if (formats[i] == BatchFormat::kJsonl) continue;
    return Status::InvalidArgument(option + " reads a JSONL field, but " + DisplayName(args.input.inputs[i]) +
                                   " is read as one document per line (use --format jsonl)");
  }
  return Status::OK();
}

// --title-field: documents in JSONL files that can be read again, and a
// --pairs or --clusters file to name them in.
Status CheckTitleField(const DedupArgs& args, bool fingerprints, const std::vector<BatchFormat>& formats) {
  if (args.input.title_field.empty()) return Status::OK();
  if (fingerprints) return Status::InvalidArgument("--title-field needs documents, not fingerprint files");
  if (args.pairs.empty() && args.clusters.empty()) {
    return Status::InvalidArgument("--title-field names the documents of --pairs and --clusters: give one of them");
  }
  SIMDEX_RETURN_IF_ERROR(RequireJsonl("--title-field " + args.input.title_field, args, formats));
  const std::string once = InputReadOnce(args.input.inputs);
  if (once.empty()) return Status::OK();
  return Status::InvalidArgument("--title-field reads the titles again from the inputs: give files, not " + once);
}

// The flags of `--method minhash` (the fields of the options they fill)
// checked, naming them (usage errors).
Status CheckMinHashDedupFlags(const MinHashDedupOptions& args) {
  if (!(args.threshold > 0 && args.threshold <= 1)) return Status::InvalidArgument("--threshold is not in (0, 1]");
  if (!ValidSignatureBits(args.signature_bits)) {
    return Status::InvalidArgument("--signature-bits " + std::to_string(args.signature_bits) +
                                   " is not 1, 2, 4, 8, 16 or 32");
  }
  if (args.memory_bytes < kMinHashMinMemoryBytes) {
    return Status::InvalidArgument("--memory " + std::to_string(args.memory_bytes) + " is below the minimum of " +
                                   std::to_string(kMinHashMinMemoryBytes) + " bytes of --method minhash");
  }
  if (args.num_perm < 1 || args.num_perm > kMaxNumPerm) {
    return Status::InvalidArgument("--num-perm " + std::to_string(args.num_perm) + " is not 1.." +
                                   std::to_string(kMaxNumPerm));
  }
  const LshBands bands = args.bands.bands > 0 ? args.bands : DefaultLshBands(args.threshold, args.num_perm);
  if (Status s = CheckLshBands(bands, args.num_perm); !s.ok()) {
    return Status::InvalidArgument("--bands " + std::to_string(bands.bands) + " x --rows " +
                                   std::to_string(bands.rows) + " is more than --num-perm " +
                                   std::to_string(args.num_perm) + " values");
  }
  return Status::OK();
}

// "%g" of a J (0.8, 0.729289).
std::string FormatJ(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// --estimate-filter into MinHashDedupOptions::estimate_filter: "" (the
// options' default, left as it is), "off" (0), or a J in [0, 1]. False
// for anything else.
bool ParseEstimateFilter(const std::string& spec, double* estimate_filter) {
  if (spec.empty()) return true;
  if (spec == "off") {
    *estimate_filter = 0;
    return true;
  }
  char* end = nullptr;
  const double j = std::strtod(spec.c_str(), &end);
  if (end == spec.c_str() || *end != '\0' || !(j >= 0 && j <= 1)) return false;
  *estimate_filter = j;
  return true;
}

// The summary lines on stderr of a run with `options` (confirm: the
// --confirm spec, or empty; exact: the pairs were checked on their
// shingles, not --approximate).
void PrintMinHashSummary(const MinHashDedupOptions& args, const MinHashDedupStats& s, uint64_t skipped,
                         double seconds) {
  const std::string& confirm = args.confirm;
  const bool exact = args.exact;
  auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  std::fprintf(stderr,
               "simdex dedup: %s (%llu empty, %s skipped), %s; minhash %d values, %d bands x %d rows, threshold %s, "
               "estimate filter %s (%d-bit signatures): %s, %llu kept, %s, %s of %s, %s; %.2f s (self-join %.2f, "
               "filter %.2f)%s\n",
               Count(s.documents, "document").c_str(), u(s.empty), Count(skipped, "bad record").c_str(),
               Count(s.distinct_signatures, "distinct signature").c_str(), args.num_perm, s.bands.bands, s.bands.rows,
               FormatJ(args.threshold).c_str(), s.estimate_filter > 0 ? FormatJ(s.estimate_filter).c_str() : "off",
               args.signature_bits, Count(s.candidates, "candidate pair").c_str(), u(s.kept),
               Count(s.document_pairs, "document pair").c_str(), Count(s.clusters, "cluster").c_str(),
               Count(s.clustered_documents, "document").c_str(), Count(s.duplicates, "duplicate").c_str(), seconds,
               s.seconds_join, s.seconds_filter,
               s.bytes_spilled == 0 ? "" : ("; " + Count(s.bytes_spilled, "byte") + " spilled").c_str());
  if (!args.against.empty()) {
    std::fprintf(stderr, "simdex dedup: against %s: %s with a match\n",
                 Count(args.against.size(), "MinHash-LSH index", "MinHash-LSH indexes").c_str(),
                 Count(s.against_duplicates, "document").c_str());
  }
  if (exact && confirm.empty()) {
    // Without texts read again, the shingles came from the signing.
    char texts[64] = "shingles kept from the signing";
    if (s.confirm.texts_read_again > 0) std::snprintf(texts, sizeof texts, "texts read again in %.3f s", s.confirm.seconds_texts);
    std::fprintf(stderr,
                 "simdex dedup: exact check: %s, %llu at J >= %s by their word 5-shingles, %s (%llu removed); %s, "
                 "checked in %.3f s\n",
                 Count(s.confirm.candidates, "candidate pair").c_str(), u(s.confirm.confirmed),
                 FormatJ(args.threshold).c_str(), ShingleWordsName(args.Signing().shingles.words),
                 u(s.confirm.candidates - s.confirm.confirmed), texts, s.confirm.seconds_confirm);
  } else if (!confirm.empty()) {
    std::fprintf(stderr,
                 "simdex dedup: confirmation: %s, %llu accepted by %s; texts read again in %.3f s, confirmed in "
                 "%.3f s\n",
                 Count(s.confirm.candidates, "candidate pair").c_str(), u(s.confirm.confirmed), confirm.c_str(),
                 s.confirm.seconds_texts, s.confirm.seconds_confirm);
  }
}

// `--method minhash`: the arguments checked, then DeduplicateByMinHash.
int RunMinHash(DedupArgs& args, KeepRule keep) {
  if (int refused = RefuseOptions(kDedupCommand, args.simhash_only,
                                  " is a SimHash option; --method minhash takes --threshold, --num-perm, --shingles, "
                                  "--bands/--rows, --signature-bits, --estimate-filter and --against (a MinHash-LSH "
                                  "index)")) {
    return refused;
  }
  MinHashDedupOptions& o = args.minhash;
  if (args.seed_given) o.seed = args.text.seed;  // else the options' (SimHash's --seed defaults to 0)
  if ((o.bands.bands > 0) != (o.bands.rows > 0)) {
    return ReportError(kDedupCommand, "--bands and --rows go together", kExitUsage);
  }
  if (!(o.threshold > 0 && o.threshold <= 1)) {
    return ReportError(kDedupCommand, "--threshold " + FormatJ(o.threshold) + " is not in (0, 1]", kExitUsage);
  }
  if (!ParseEstimateFilter(args.estimate_filter, &o.estimate_filter)) {
    return ReportError(kDedupCommand, "--estimate-filter '" + args.estimate_filter + "' is not a J in [0, 1] or off",
                       kExitUsage);
  }
  if (int bad = ParseMemoryOrReport(kDedupCommand, args.memory, &o.memory_bytes)) return bad;
  o.tmpdir = SpillDirectory(args.tmpdir);
  if (args.shingles_given) o.shingle_words = args.shingle_words;  // else the default, or the first index's
  // --against: MinHash-LSH indexes whose signatures the batch's are.
  std::vector<std::unique_ptr<LshIndexReader>> indexes;
  for (const std::string& path : args.against) {
    indexes.emplace_back();
    if (int bad = OpenIndexOrReport(kDedupCommand, path, ReaderOptions(), &indexes.back())) return bad;
    o.against.push_back(indexes.back().get());
    const MinHashOptions signing = o.Signing();
    if (indexes.back()->profile() != MinHashProfile(signing)) {
      return ReportError(kDedupCommand, path + " holds signatures of '" + indexes.back()->profile() +
                                       "'; this batch is signed as '" + MinHashProfile(signing) +
                                       "' (--num-perm, --seed, --shingles)", kExitUsage);
    }
  }
  if (Status bad = CheckMinHashDedupFlags(o); !bad.ok()) return ReportError(kDedupCommand, bad, /*usage=*/true);
  if (const std::string once = InputReadOnce(args.input.inputs); !args.approximate && !once.empty()) {
    return ReportError(kDedupCommand, "--method minhash checks each pair on the texts, read again: give files, not " +
                                          once + " (--approximate decides by the estimate alone, in one read)",
                       kExitUsage);
  }
  o.exact = !args.approximate;
  o.confirm = args.simhash.confirm;
  o.keep = keep;
  o.keep_pairs = !args.pairs.empty();
  o.allow_duplicate_ids = true;  // checked below, after the skipped records are shown
  o.threads = args.threads;
  Progress progress(kDedupCommand, !args.quiet);
  std::unique_ptr<MinHashDedupResult> result;
  // The arguments are checked: what fails now is the input's or the system's (exit 1).
  Status s = DeduplicateByMinHash(DocumentFilesOf(args.input), o, &progress, &result);
  if (s.ok()) s = WriteOutputs(args, /*documents=*/true, result.get(), &progress);
  if (!s.ok()) return ReportError(kDedupCommand, s);
  if (!args.quiet) {
    PrintChosenMethod(args);
    PrintMinHashSummary(o, result->stats(), result->skipped(), progress.Seconds());
  }
  return 0;
}

// `--method simhash`: the flags checked (naming them), then
// DeduplicateBySimHash (include/simdex/batch.h) of the documents or of the
// fingerprint files.
int RunSimHash(const DedupArgs& args, KeepRule keep, bool fingerprints) {
  if (int refused = RefuseOptions(kDedupCommand, args.minhash_only, " needs --method minhash")) return refused;
  SimHashDedupOptions o = args.simhash;
  if (int bad = ParseMemoryOrReport(kDedupCommand, args.memory, &o.memory_bytes)) return bad;
  if (fingerprints && IdfAuto(args.text)) {
    return ReportError(kDedupCommand, "--idf auto needs documents, not fingerprint files", kExitUsage);
  }
  if (!fingerprints) {
    Status s = MakeFingerprintOptions(args.text, &o.features, /*allow_auto=*/true);
    if (!s.ok()) return ReportError(kDedupCommand, s, /*usage=*/s.IsInvalidArgument());
  }
  o.learn_idf = IdfAuto(args.text);
  o.max_idf = IdfCap(args.text);
  o.keep = keep;
  o.keep_pairs = !args.pairs.empty();
  o.allow_duplicate_ids = true;  // checked after the skipped records are shown
  o.threads = args.threads;
  o.tmpdir = args.tmpdir;
  o.against_strategy = args.against_strategy == "probe"        ? AgainstStrategy::kProbe
                       : args.against_strategy == "merge-join" ? AgainstStrategy::kMergeJoin
                                                               : AgainstStrategy::kAuto;
  if (Status bad = o.Validate(); !bad.ok()) return ReportError(kDedupCommand, bad, /*usage=*/true);
  if (const std::string once = InputReadOnce(args.input.inputs); o.learn_idf && !once.empty()) {
    return ReportError(kDedupCommand, "--idf auto reads the documents twice: give files, not " + once, kExitUsage);
  }
  // --against: indexes of the batch's profile, named by their paths here
  // (the library numbers them), each within reach of the index k.
  ProfileCheck profiles;
  std::vector<std::unique_ptr<IndexReader>> indexes;
  for (const std::string& path : args.against) {
    indexes.emplace_back();
    if (int bad = OpenIndexOrReport(kDedupCommand, path, ReaderOptions(), &indexes.back())) return bad;
    o.against.push_back(indexes.back().get());
    Status s = profiles.Add(path, indexes.back()->profile());
    if (s.ok()) s = o.Validate();
    if (!s.ok()) return ReportError(kDedupCommand, FileError(path, s), kExitUsage);
  }
  if (std::string profile; !fingerprints && !o.learn_idf) {
    Status s = FingerprintProfile(o.features, &profile);
    if (s.ok()) s = profiles.Add("the batch's text options", profile);
    if (!s.ok()) return ReportError(kDedupCommand, s, kExitUsage);
  }
  Progress progress(kDedupCommand, !args.quiet);
  std::unique_ptr<SimHashDedupResult> result;
  // The arguments are checked: what fails now is the input's or the system's (exit 1).
  Status s = fingerprints ? DeduplicateBySimHash(FingerprintFiles{args.input.inputs, args.input.skip_bad}, o,
                                                 &progress, &result)
                          : DeduplicateBySimHash(DocumentFilesOf(args.input), o, &progress, &result);
  if (s.ok()) s = WriteOutputs(args, !fingerprints, result.get(), &progress);
  if (!s.ok()) return ReportError(kDedupCommand, s);
  if (args.quiet) return 0;
  const SimHashDedupStats& stats = result->stats();
  if (const std::shared_ptr<const IdfTable> idf = result->learned_idf(); idf != nullptr) {
    std::fprintf(stderr, "simdex dedup: %s, %.2f s\n",
                 DescribeLearnedIdf(stats.idf, stats.idf_table_bytes, idf->default_idf()).c_str(), stats.seconds_idf);
  }
  PrintChosenMethod(args);
  PrintSummary(args, stats, result->skipped(), progress.Seconds() - stats.seconds_idf);
  if (!args.simhash.confirm.empty() || args.simhash.k_short >= 0) PrintSecondStage(args.simhash, stats);
  return 0;
}

int RunDedup(DedupArgs args) {
  if (args.input.inputs.empty()) args.input.inputs.push_back("-");
  if (std::count(args.input.inputs.begin(), args.input.inputs.end(), "-") > 1) {
    return ReportError(kDedupCommand, "standard input ('-') may be given only once", kExitUsage);
  }
  std::vector<std::string> read = args.input.inputs;
  read.insert(read.end(), args.against.begin(), args.against.end());
  read.insert(read.end(), args.text.stop_words.begin(), args.text.stop_words.end());
  if (!IdfAuto(args.text)) read.push_back(args.text.idf);
  Status checked = CheckOutputsAreNotInputs(
      {{"-o", args.output}, {"--pairs", args.pairs}, {"--keep-list", args.keep_list}, {"--clusters", args.clusters}},
      read);
  if (!checked.ok()) return ReportError(kDedupCommand, checked, /*usage=*/true);
  std::vector<BatchFormat> formats;
  std::vector<std::string> notes;
  Status chosen = ChooseBatchFormats(args.input.inputs, args.format, &formats, &notes);
  if (!chosen.ok()) return ReportError(kDedupCommand, chosen);
  if (!args.quiet) {
    for (const std::string& note : notes) std::fprintf(stderr, "simdex dedup: %s\n", Printable(note).c_str());
  }
  const bool fingerprints = formats.front() == BatchFormat::kFingerprints;
  for (size_t i = 0; i < formats.size(); ++i) {
    if ((formats[i] == BatchFormat::kFingerprints) != fingerprints) {
      return ReportError(kDedupCommand,
                         "inputs mix fingerprint files and documents (" + args.input.inputs[i] + "); use --format",
                         kExitUsage);
    }
  }
  if (!fingerprints) args.input.formats = formats;
  KeepRule keep;
  if (Status bad = ParseKeepRule(args.keep, &keep, &args.input.score_field); !bad.ok()) {
    return ReportError(kDedupCommand, "--" + bad.message(), kExitUsage);
  }
  if (keep != KeepRule::kFirst && fingerprints) {
    return ReportError(kDedupCommand, "--keep " + args.keep + " needs documents, not fingerprint files", kExitUsage);
  }
  if (keep == KeepRule::kField) {
    Status jsonl = RequireJsonl("--keep " + args.keep, args, formats);
    if (!jsonl.ok()) return ReportError(kDedupCommand, jsonl, /*usage=*/true);
  }
  if (Status titles = CheckTitleField(args, fingerprints, formats); !titles.ok()) {
    return ReportError(kDedupCommand, titles, /*usage=*/true);
  }

  Status method = ChooseMethod(fingerprints, &args);
  if (!method.ok()) return ReportError(kDedupCommand, method, /*usage=*/true);
  if (args.method == "minhash" && fingerprints) {
    return ReportError(kDedupCommand, "--method minhash needs documents, not fingerprint files", kExitUsage);
  }
  if ((!args.simhash.confirm.empty() || args.simhash.k_short >= 0) && fingerprints) {
    return ReportError(kDedupCommand, "--confirm and --k-short need documents, not fingerprint files", kExitUsage);
  }
  if (!args.simhash.confirm.empty()) {
    ConfirmOptions confirm;
    Status s = ParseConfirmSpec(args.simhash.confirm, &confirm);
    if (!s.ok()) return ReportError(kDedupCommand, s, /*usage=*/true);
    if (const std::string once = InputReadOnce(args.input.inputs); !once.empty()) {
      return ReportError(kDedupCommand, "--confirm reads the texts again: give files, not " + once, kExitUsage);
    }
  }
  if (args.method == "minhash") return RunMinHash(args, keep);
  return RunSimHash(args, keep, fingerprints);
}

}  // namespace

void AddDedupCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<DedupArgs>();
  CLI::App* sub = app.add_subcommand("dedup", "De-duplicate a batch: pairs at Jaccard >= --threshold (MinHash-LSH, checked exactly) or within k bits (SimHash), clusters, duplicates (JSON lines)");
  sub->add_option("inputs", args->input.inputs,
                  "documents (JSONL or one per line) or fingerprint files; none or '-' = stdin; .gz/.zst/.bz2 "
                  "are decompressed");
  sub->add_option("--format", args->format,
                  "input format (default: fingerprints for .fp/.fpb, jsonl for .jsonl/.json/.ndjson, else lines)")
      ->check(CLI::IsMember({"jsonl", "lines", "fingerprints"}));
  AddDocumentInputOptions(sub, &args->input);
  AddTextOptions(sub, &args->text);
  sub->add_option("-k,--k", args->simhash.k,
                  "largest Hamming distance of a near-duplicate (default 3, or the --scheme's k, or 8 for the pairs of "
                  "the batch under --confirm jaccard-shingles; a k above 3 without --scheme chooses a scheme covering "
                  "it)")
      ->check(CLI::Range(0, 64));
  sub->add_option("--scheme", args->simhash.scheme,
                  "tables of the self-join: t4, t10, t20, or W,W,...:K (default t10, or one covering --k-short)");
  sub->add_option("--confirm", args->simhash.confirm,
                  "confirm each pair by its texts before it counts: jaccard-shingles:T (the Jaccard truth's word "
                  "5-shingles; candidates within 8 bits unless --k or --scheme is given), jaccard:T (code point 3-grams), jaccard-words:T, jaccard-chars:T, edit:T "
                  "(edit-distance similarity)");
  sub->add_option("--k-short", args->simhash.k_short,
                  "k for pairs with a short document (see --short-length); candidates from the larger k")
      ->check(CLI::Range(0, 15));
  sub->add_option("--short-length", args->simhash.short_length, "code points below which a document is short")
      ->capture_default_str();
  sub->add_option("--memory", args->memory, "memory bound, e.g. 512M, 4G (default 1G); sorts spill beyond it");
  sub->add_option("--tmpdir", args->tmpdir, "directory for spilled sorts (default: $TMPDIR or /tmp)");
  sub->add_option("--threads", args->threads, "threads")->check(CLI::Range(1, 1024))->capture_default_str();
  sub->add_option("--keep", args->keep,
                  "each cluster's representative: first (seen), longest (text), max:FIELD (largest value of a "
                  "numeric JSONL field; missing or null counts as the smallest)")
      ->capture_default_str();
  sub->add_option("-o,--output", args->output, "one JSON line per document ('-' = stdout)")->capture_default_str();
  sub->add_option("--pairs", args->pairs,
                  "write every pair within k: {\"a\":id,\"b\":id,\"distance\":d}, with \"similarity\":s (the "
                  "confirmer's) under --confirm");
  sub->add_option("--keep-list", args->keep_list, "write the ids of the documents to keep, one per line");
  sub->add_option("--clusters", args->clusters,
                  "write each cluster of two or more documents with its members and their first words");
  sub->add_option("--title-field", args->input.title_field,
                  "JSONL field naming each document in --pairs (\"a_title\", \"b_title\") and --clusters "
                  "(\"title\"): read again from the input files when they are written, cut to 160 bytes");
  sub->add_option("--snippet-words", args->snippet_words, "words of each member's text in --clusters")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  sub->add_option("--against", args->against, "index to check every document against; repeatable")
      ->allow_extra_args(false);
  sub->add_option("--against-strategy", args->against_strategy,
                  "auto, probe (one search per fingerprint) or merge-join (stream the index's tables)")
      ->check(CLI::IsMember({"auto", "probe", "merge-join"}))
      ->capture_default_str();
  sub->add_flag("--allow-duplicate-ids", args->allow_duplicate_ids,
                "accept ids given to several documents (refused by default): each document is still its own, "
                "known by its place in the input (the n-th output line is the n-th document)");
  sub->add_flag("-q,--quiet", args->quiet, "no progress and no summary");
  sub->add_option("--method", args->method,
                  "auto, simhash (fingerprints within k bits) or minhash (MinHash-LSH: word 5-shingle Jaccard >= "
                  "--threshold; docs/minhash.md). auto: simhash for fingerprint files, an --against SimHash index "
                  "or a SimHash-only option (--k, --scheme, --k-short, --short-length, --against-strategy, the text "
                  "options); minhash for an --against MinHash-LSH index, a MinHash option, or else (documents)")
      ->check(CLI::IsMember({"auto", "simhash", "minhash"}))
      ->capture_default_str();
  sub->add_option("--threshold", args->minhash.threshold,
                  "minhash: the Jaccard of a near-duplicate pair; chooses the bands and the estimate filter")
      ->capture_default_str();
  AddNumPermOption(sub, &args->minhash.num_perm);
  AddShinglesOption(sub, &args->shingle_words);
  sub->add_option("--bands", args->minhash.bands.bands,
                  "minhash: bands (with --rows; bands x rows <= --num-perm; default: chosen from the threshold, "
                  "16 x 8 for 0.8 and 128 values)")
      ->check(CLI::Range(1, kMaxNumPerm));
  sub->add_option("--rows", args->minhash.bands.rows, "minhash: rows per band (with --bands)")
      ->check(CLI::Range(1, kMaxNumPerm));
  sub->add_option("--signature-bits", args->minhash.signature_bits,
                  "minhash: bits kept of each value for the estimate: 1, 2, 4, 8, 16 or 32")
      ->capture_default_str();
  sub->add_flag("--approximate", args->approximate,
                "minhash: report the pairs whose b-bit estimate passes the estimate filter, two standard errors "
                "below --threshold (the default before: some pairs below it), instead of checking each on the "
                "texts' shingles (exact, the default: every pair reported is at or above --threshold; the texts "
                "are read again)");
  sub->add_option("--estimate-filter", args->estimate_filter,
                  "minhash: keep the band candidates whose estimated J is at least this (default: two standard errors "
                  "below the threshold, 0.729 for 0.8 and 128 values), or off");
  sub->footer(
      "Output: {\"id\":..,\"cluster\":<representative id>,\"duplicate\":true|false,\"distance\":<to it>} per\n"
      "document in input order, with \"against\":{\"index\",\"id\",\"distance\"} when an index holds a match and\n"
      "\"empty\":<reason> for a document without a fingerprint. docs/dedup.md explains every option.\n"
      "Example: simdex dedup --text-field text --keep-list keep.txt --against corpus.sdx batch.jsonl.gz");
  sub->callback([args, run, sub] {
    args->simhash_only = OptionsGiven(sub, kSimHashOnly);
    args->minhash_only = OptionsGiven(sub, kMinHashOnly);
    args->seed_given = sub->count("--seed") > 0;
    args->shingles_given = sub->count("--shingles") > 0;
    *run = [args] { return RunDedup(*args); };
  });
}

}  // namespace simdex::tools
