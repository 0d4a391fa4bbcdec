// simdex build --out INDEX [--scheme NAME | --scheme auto [--k K] | --blocks W,W,... --k K]
//   [--block-size B] [--codec card|ef|auto] [--memory SIZE] [--tmpdir DIR] [--threads N]
//   [--skip-bad] [--quiet] INPUT...
// Reads fingerprint files (text or binary form, "-" = stdin) and builds one
// index from all their records. With --scheme auto the planner
// (simdex/plan.h) picks the scheme, block size and codec once the entries
// are counted, for k (default 3), the --memory budget and the free space of
// the output's file system; --block-size and --codec given keep theirs. Progress goes to stderr (tools/progress.h:
// rewritten in place on a terminal; elsewhere only for runs longer than 2 s).
// A failed build leaves nothing under INDEX (IndexBuilder writes a temporary
// file and renames it only when done).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <sys/statvfs.h>

#include <CLI/CLI.hpp>

#include "simdex/fingerprint_file.h"
#include "simdex/front_end_text.h"
#include "simdex/index.h"
#include "simdex/plan.h"
#include "simdex/profile.h"
#include "simdex/scheme.h"
#include "simdex/signature_file.h"
#include "tools/commands.h"
#include "tools/input_options.h"
#include "tools/memory_option.h"
#include "tools/output_checks.h"
#include "tools/progress.h"
#include "tools/stopwatch.h"

namespace simdex::tools {
namespace {

constexpr const char* kBuildCommand = "build";
constexpr size_t kBuildReadBatch = size_t{1} << 16;

struct BuildArgs {
  std::string out;
  std::string scheme;
  std::vector<int> blocks;
  int k = -1;
  uint32_t block_size = BuildOptions().block_size;
  int restarts = BuildOptions().restarts;
  std::string codec = BuildOptions().codec;
  std::string memory;
  std::string tmpdir;
  int threads = 1;
  bool skip_bad = false;
  bool quiet = false;
  bool string_ids = false;
  bool block_size_given = false;  // set when the command line names them
  bool codec_given = false;
  std::vector<std::string> inputs;
  std::string method = "simhash";
  LshBuildOptions lsh;  // --method minhash: block size, codec, restarts and string ids from the options above
  DocumentInputArgs documents;  // its document options
  std::vector<std::string> simhash_only, minhash_only;  // the options of the other method given
};

constexpr char kAutoScheme[] = "auto";
// The options only --method simhash takes, and the ones only minhash takes.
constexpr const char* kBuildSimHashOnly[] = {"--scheme", "--blocks", "--k"};
constexpr const char* kMinHashOnly[] = {"--threshold", "--num-perm", "--seed", "--shingles", "--bands", "--rows",
                                        "--signature-bits", "--sketch", "--text-field", "--id-field", "--id",
                                        "--format"};

// "<stage>[ NN%], <n> entries, <rate> entries/s", rates as 950, 12.3K, 4.5M.
std::string StageLine(const char* stage, double fraction, double entries, double seconds) {
  const double rate = seconds > 0 ? entries / seconds : 0;
  char percent[16] = "", rate_text[32];
  if (fraction >= 0) std::snprintf(percent, sizeof(percent), " %3.0f%%", fraction * 100);
  if (rate >= 1e6) std::snprintf(rate_text, sizeof(rate_text), "%.1fM", rate / 1e6);
  else if (rate >= 1e3) std::snprintf(rate_text, sizeof(rate_text), "%.1fK", rate / 1e3);
  else std::snprintf(rate_text, sizeof(rate_text), "%.0f", rate);
  char line[160];
  std::snprintf(line, sizeof(line), "%s%s, %s, %s entries/s", stage, percent,
                Count(static_cast<uint64_t>(entries), "entry", "entries").c_str(), rate_text);
  return line;
}

Status MakeBuildOptions(const BuildArgs& args, BuildOptions* options) {
  if (!args.blocks.empty()) {
    SIMDEX_RETURN_IF_ERROR(Scheme::Create(args.blocks, args.k, &options->scheme));
  } else if (args.k >= 0 && args.scheme != kAutoScheme) {
    return Status::InvalidArgument("--k goes with --blocks or --scheme auto");
  } else if (args.scheme == kAutoScheme && args.k > 15) {
    return Status::InvalidArgument("--scheme auto plans for k up to 15");
  } else if (!args.scheme.empty() && args.scheme != kAutoScheme) {
    SIMDEX_RETURN_IF_ERROR(Scheme::Parse(args.scheme, &options->scheme));
  }
  SIMDEX_RETURN_IF_ERROR(ParseMemoryOption(kBuildCommand, args.memory, &options->memory_bytes));
  options->block_size = args.block_size;
  options->restarts = args.restarts;
  options->codec = args.codec;
  options->tmpdir = ScratchDirFor(args.out, args.tmpdir);
  options->threads = args.threads;
  options->string_ids = args.string_ids;
  return Status::OK();
}

struct InputTotals {
  uint64_t records = 0;
  uint64_t empty = 0;
  uint64_t skipped = 0;
  ProfileCheck profiles;  // the inputs' one fingerprint profile, which the index records
};

// Feeds every record of one input file to the builder: numeric ids in
// batches, string ids one at a time (the builder interns them).
Status AddInput(const std::string& path, const BuildArgs& args, IndexBuilder* builder,
                Progress* progress, InputTotals* totals) {
  FingerprintFileReaderOptions options;
  options.skip_bad = args.skip_bad;
  std::unique_ptr<FingerprintFileReader> reader;
  SIMDEX_RETURN_IF_ERROR(FingerprintFileReader::Open(path, options, &reader));
  SIMDEX_RETURN_IF_ERROR(totals->profiles.Add(reader->name(), reader->profile()));
  SIMDEX_RETURN_IF_ERROR(builder->SetProfile(totals->profiles.profile()));
  std::vector<uint64_t> ids, fingerprints;
  auto flush = [&]() -> Status {
    Status s = builder->Add(ids, fingerprints);
    ids.clear();
    fingerprints.clear();
    return s;
  };
  FingerprintEntry entry;
  for (bool eof = false;;) {
    SIMDEX_RETURN_IF_ERROR(reader->Next(&entry, &eof));
    if (eof) break;
    if (entry.empty) continue;
    if (!entry.id_string.empty()) {
      SIMDEX_RETURN_IF_ERROR(flush());  // keep the order of Adds (it does not change the index)
      SIMDEX_RETURN_IF_ERROR(builder->Add(entry.id_string, entry.fingerprint));
    } else {
      ids.push_back(entry.id);
      fingerprints.push_back(entry.fingerprint);
      if (ids.size() == kBuildReadBatch) SIMDEX_RETURN_IF_ERROR(flush());
    }
    if (++totals->records % kBuildReadBatch == 0) {
      progress->Update(StageLine("reading", -1, static_cast<double>(totals->records), progress->Seconds()));
    }
  }
  SIMDEX_RETURN_IF_ERROR(flush());
  const FingerprintFileStats& stats = reader->stats();
  totals->empty += stats.empty;
  totals->skipped += stats.skipped;
  if (stats.skipped > 0 && !args.quiet) {
    progress->Done();
    std::fprintf(stderr, "simdex build: %s: skipped %s (first: %s)\n", reader->name().c_str(),
                 Count(stats.skipped, "bad line").c_str(),
                 stats.first_errors.empty() ? "?" : Printable(stats.first_errors.front()).c_str());
  }
  return Status::OK();
}

// The free space of the file system that holds `path`, or 0 (no bound) when
// it cannot be had.
uint64_t FreeSpaceFor(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
  struct statvfs fs;
  if (::statvfs(dir.c_str(), &fs) != 0) return 0;
  return static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize;
}

// --scheme auto: plans the layout once the builder knows the count. *plan
// keeps what was chosen, for the summary.
void PlanLayout(const BuildArgs& args, IndexBuilder* builder, Plan* plan, uint64_t* planned_for) {
  builder->SetLayoutChooser([&args, plan, planned_for](uint64_t entries, BuildOptions* options) {
    PlanRequest request;
    request.n = entries > 0 ? entries : 1;
    request.k = args.k >= 0 ? args.k : 3;
    request.memory_bytes = options->memory_bytes;
    request.disk_bytes = FreeSpaceFor(args.out);
    if (args.block_size_given) request.block_size = args.block_size;
    if (args.codec_given) request.codec = args.codec;
    Status s = PlanIndex(request, plan);
    if (!s.ok()) {
      return request.disk_bytes == 0 ? s : s.WithContext("--scheme auto (the disk budget is the free space beside " + args.out + ")");
    }
    *planned_for = entries;
    options->scheme = plan->choice.scheme;
    options->block_size = plan->choice.block_size;
    options->codec = plan->choice.codec;
    return Status::OK();
  });
}

// The options that decide a signature.
const std::string kSigning[] = {"--num-perm", "--seed", "--shingles"};

// Opens the first signature file (kept open: it may be standard input)
// into *reader; its signing options, which the index records, into
// *options. When --num-perm, --seed or --shingles were given they must be
// the file's.
Status OpenFirstSignatureFile(const std::string& path, bool signing_given, MinHashOptions* options,
                              std::unique_ptr<SignatureFileReader>* reader) {
  SIMDEX_RETURN_IF_ERROR(SignatureFileReader::Open(path, reader));
  const std::string given = MinHashProfile(*options);
  if (signing_given && (*reader)->profile() != given) {
    return Status::InvalidArgument((*reader)->name() + " holds signatures of '" + (*reader)->profile() +
                                   "', --num-perm, --seed and --shingles ask for '" + given + "'");
  }
  *options = (*reader)->options();
  return Status::OK();
}

// Adds the documents of signature files (the first one opened already) of
// the builder's profile; a document without a signature is added with the
// empty one, as a text without shingles is.
Status AddSignatureFiles(const std::vector<std::string>& paths, std::unique_ptr<SignatureFileReader> first,
                         const std::string& out, LshIndexBuilder* builder) {
  const MinHashOptions& options = builder->options().minhash;
  const std::string profile = MinHashProfile(options);
  const std::vector<uint32_t> empty(static_cast<size_t>(options.num_perm), kEmptyMinimum);
  SignatureEntry entry;
  for (size_t i = 0; i < paths.size(); ++i) {
    std::unique_ptr<SignatureFileReader> reader = std::move(first);
    if (i > 0) SIMDEX_RETURN_IF_ERROR(SignatureFileReader::Open(paths[i], &reader));
    if (reader->profile() != profile) {
      return Status::InvalidArgument(reader->name() + " holds signatures of '" + reader->profile() + "', " + out +
                                     " is built of '" + profile + "': signatures of different profiles are not "
                                     "comparable");
    }
    for (bool eof = false;;) {
      SIMDEX_RETURN_IF_ERROR(reader->Next(&entry, &eof));
      if (eof) break;
      const uint32_t* signature = entry.empty ? empty.data() : entry.signature.data();
      SIMDEX_RETURN_IF_ERROR(entry.id_string.empty() ? builder->Add(entry.id, signature)
                                                     : builder->Add(entry.id_string, signature));
    }
  }
  return Status::OK();
}

// Adds build's MinHash options (kMinHashOnly) to `sub`, into args->lsh and
// args->documents.
void AddMinHashBuildOptions(CLI::App* sub, BuildArgs* args) {
  LshBuildOptions& o = args->lsh;
  sub->add_option("--threshold", o.threshold,
                  "minhash: the Jaccard similarity the bands are chosen for, and the queries' default filter")
      ->capture_default_str();
  AddNumPermOption(sub, &o.minhash.num_perm);
  sub->add_option("--seed", o.minhash.seed, "minhash: the seed of the hash functions")->capture_default_str();
  AddShinglesOption(sub, &o.minhash.shingles.words);
  sub->add_option("--bands", o.bands.bands, "minhash: band tables (with --rows; default: chosen from the threshold, "
                                            "16 x 8 for 0.8 and 128 values)")
      ->check(CLI::Range(1, kMaxNumPerm));
  sub->add_option("--rows", o.bands.rows, "minhash: rows per band (with --bands)")->check(CLI::Range(1, kMaxNumPerm));
  sub->add_option("--signature-bits", o.signature_bits,
                  "minhash: bits kept of each value for the estimate: 1, 2, 4, 8, 16 or 32")
      ->capture_default_str();
  sub->add_option("--sketch", o.sketch_k,
                  "minhash: hashes in each document's bottom-k sketch, stored so that queries with texts decide on "
                  "it (0: none; an index built from signature files has none)")
      ->check(CLI::Range(0, 65536))
      ->capture_default_str();
  sub->add_option("--text-field", args->documents.text_fields,
                  "minhash: JSONL field holding text; repeat to join several (default: text)")
      ->allow_extra_args(false);
  sub->add_option("--id-field", args->documents.id_field, "minhash: JSONL field holding the id (default: id)");
  sub->add_option("--id", args->documents.id_mode, "minhash: ids from the id field, or the record number (ordinal)")
      ->check(CLI::IsMember({"field", "ordinal"}));
  sub->add_option("--format", args->documents.format,
                  "minhash: input format (default: jsonl for .jsonl/.json/.ndjson, else lines)")
      ->check(CLI::IsMember({"jsonl", "lines"}));
}

// `--method minhash`: build's own options carried over, the SimHash ones
// refused; the inputs are documents, signed on worker threads, or MinHash
// signature files, all added to an LSH index (include/simdex/lsh_index.h).
int RunMinHash(const BuildArgs& args) {
  if (int refused = RefuseOptions(kBuildCommand, args.simhash_only,
                                  " is a SimHash option; --method minhash builds band tables of MinHash signatures "
                                  "(docs/minhash.md)")) {
    return refused;
  }
  LshBuildOptions o = args.lsh;
  if (int bad = ParseMemoryOrReport(kBuildCommand, args.memory, &o.memory_bytes)) return bad;
  o.tmpdir = args.tmpdir;
  o.block_size = args.block_size;
  o.restarts = args.restarts;
  if (args.codec_given) o.codec = args.codec;
  o.string_ids = args.string_ids;
  DocumentInputArgs input = args.documents;
  input.inputs = args.inputs;
  input.skip_bad = args.skip_bad;
  // --num-perm, --seed or --shingles given: signature files must have been
  // made with them; else their header's options are the index's.
  const bool signing_given = std::find_first_of(args.minhash_only.begin(), args.minhash_only.end(),
                                                std::begin(kSigning), std::end(kSigning)) != args.minhash_only.end();
  if ((o.bands.bands > 0) != (o.bands.rows > 0)) return ReportError(kBuildCommand, "--bands and --rows go together", kExitUsage);
  const Stopwatch stopwatch;
  Status s = PrepareDocumentInputs(kBuildCommand, &input, args.quiet, /*allow_signatures=*/true);
  bool signatures = false;
  if (s.ok()) s = AllOrNoSignatureFiles(input, &signatures);
  if (!s.ok()) return ReportError(kBuildCommand, s, /*usage=*/true);
  std::unique_ptr<SignatureFileReader> first;
  if (signatures) {
    s = OpenFirstSignatureFile(input.inputs.front(), signing_given, &o.minhash, &first);
    if (!s.ok()) return ReportError(kBuildCommand, s);
  }
  std::unique_ptr<LshIndexBuilder> builder;
  s = LshIndexBuilder::Create(args.out, o, &builder);
  if (!s.ok()) return ReportError(kBuildCommand, s.message(), s.IsInvalidArgument() ? kExitUsage : kExitFailure);
  if (signatures) {
    s = AddSignatureFiles(input.inputs, std::move(first), args.out, builder.get());
  } else {
    auto add = [&](const SignedDocuments& b) { return AddSignedBatch(b, builder.get()); };
    s = SignDocuments(kBuildCommand, o.minhash, input, args.threads, args.quiet, add);
  }
  if (s.ok()) s = builder->Finish();
  if (!s.ok()) {
    builder->Abandon();
    return ReportError(kBuildCommand, s);
  }
  if (!args.quiet) {
    const LshBuildStats& stats = builder->stats();
    const LshBuildOptions& used = builder->options();
    const double per_doc = stats.documents == 0 ? 0 : static_cast<double>(stats.file_bytes) / static_cast<double>(stats.documents);
    std::printf("%s: %s (%llu without shingles), MinHash-LSH %d x %d bands of %d values at %g, %s, %.1f bytes/document, "
                "%.2f s%s\n",
                args.out.c_str(), Count(stats.documents, "document").c_str(),
                static_cast<unsigned long long>(stats.documents - stats.banded), used.bands.bands, used.bands.rows,
                used.minhash.num_perm, used.threshold, Count(stats.file_bytes, "byte").c_str(), per_doc,
                stopwatch.Seconds(),
                stats.spilled_bytes == 0 ? ""
                                         : (", " + Count(stats.spilled_bytes, "byte") + " through scratch files").c_str());
  }
  return std::fflush(stdout) == 0 ? 0 : ReportError(kBuildCommand, "error writing standard output");
}


int RunBuild(const BuildArgs& args) {
  if (std::count(args.inputs.begin(), args.inputs.end(), "-") > 1) {
    return ReportError(kBuildCommand, "standard input ('-') may be given only once", kExitUsage);
  }
  Status s = CheckOutputsAreNotInputs({{"--out", args.out}}, args.inputs);
  if (!s.ok()) return ReportError(kBuildCommand, s, /*usage=*/true);
  if (args.method == "minhash") return RunMinHash(args);
  if (int refused = RefuseOptions(kBuildCommand, args.minhash_only, " is a MinHash option (--method minhash)")) return refused;
  BuildOptions options;
  s = MakeBuildOptions(args, &options);
  if (!s.ok()) return ReportError(kBuildCommand, s.message(), kExitUsage);

  Progress progress(kBuildCommand, !args.quiet);
  std::unique_ptr<IndexBuilder> builder;
  s = IndexBuilder::Create(args.out, options, &builder);
  if (!s.ok()) {
    return ReportError(kBuildCommand, s.message(), s.IsInvalidArgument() ? kExitUsage : kExitFailure);
  }

  Plan plan;
  uint64_t planned_for = 0;
  if (args.scheme == kAutoScheme) PlanLayout(args, builder.get(), &plan, &planned_for);

  InputTotals totals;
  for (const std::string& input : args.inputs) {
    s = AddInput(input, args, builder.get(), &progress, &totals);
    if (!s.ok()) break;
  }
  if (s.ok()) {
    const double finish_start = progress.Seconds();
    const double entries = static_cast<double>(totals.records);
    builder->SetProgressCallback([&](const char* stage, double fraction) {
      progress.Update(
          StageLine(stage, fraction, entries * fraction, progress.Seconds() - finish_start));
    });
    s = builder->Finish();
  }
  progress.Done();
  if (!s.ok()) {
    builder->Abandon();
    return ReportError(kBuildCommand, s.message());
  }

  if (!args.quiet) {
    if (args.scheme == kAutoScheme) {
      const PlanChoice& c = plan.choice;
      std::printf("%s: planned for %s and k = %d: %s, codec %s, %s blocks (simdex plan says why)\n",
                  args.out.c_str(), Count(planned_for, "entry", "entries").c_str(), args.k >= 0 ? args.k : 3,
                  c.scheme.Name().c_str(), c.codec.c_str(), SizeText(c.block_size).c_str());
    }
    const BuildStats& stats = builder->stats();
    const double bits = stats.entries == 0 ? 0 : 8.0 * static_cast<double>(stats.file_bytes) /
                                                     static_cast<double>(stats.entries);
    std::printf("%s: %s, %llu distinct, %s, %.2f bits/entry, %.2f s, %s, %s skipped, %s\n", args.out.c_str(),
                Count(stats.entries, "entry", "entries").c_str(),
                static_cast<unsigned long long>(stats.distinct_fingerprints), Count(stats.file_bytes, "byte").c_str(),
                bits, progress.Seconds(),
                (Count(stats.spilled_runs, "spilled run") +
                 (stats.id_map_runs > 0 ? " + " + Count(stats.id_map_runs, "run") + " of string ids" : ""))
                    .c_str(),
                Count(totals.skipped, "bad line").c_str(), Count(totals.empty, "empty document").c_str());
  }
  return std::fflush(stdout) == 0 ? 0 : ReportError(kBuildCommand, "error writing standard output");
}

}  // namespace

void AddBuildCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<BuildArgs>();
  CLI::App* sub =
      app.add_subcommand("build", "Build an index from fingerprint files (or, --method minhash, from documents)");
  sub->add_option("--out", args->out, "index file to write")->required();
  CLI::Option* scheme =
      sub->add_option("--scheme", args->scheme,
                      "t4, t10 (default), t20, W,W,...:K, or auto (planned from the count: simdex plan)");
  CLI::Option* blocks = sub->add_option("--blocks", args->blocks, "block widths summing to 64")
                            ->delimiter(',')
                            ->excludes(scheme);
  sub->add_option("--k", args->k, "largest distance the custom scheme guarantees (or --scheme auto plans for)")
      ->check(CLI::Range(0, 64));
  blocks->needs("--k");
  CLI::Option* block_size =
      sub->add_option("--block-size", args->block_size, "bytes per block, a power of two in 64..65536")
          ->capture_default_str();
  sub->add_option("--restarts", args->restarts, "restart points per block, 0..15 (docs/format.md)")
      ->capture_default_str();
  CLI::Option* codec =
      sub->add_option("--codec", args->codec,
                      "block codec: card (Huffman delta code), ef (Elias-Fano), or auto (per table, the smaller)")
          ->capture_default_str();
  sub->add_option("--memory", args->memory,
                  "memory bound for sorting, both methods, e.g. 512M, 2G (default 1G; minhash: at least 128K per band)");
  sub->add_option("--tmpdir", args->tmpdir, "directory for spill files, both methods (default: next to --out)");
  sub->add_option("--threads", args->threads, "threads for sorting and encoding")
      ->check(CLI::Range(1, 1024));
  sub->add_flag("--skip-bad", args->skip_bad, "skip and count malformed text lines");
  sub->add_flag("-q,--quiet", args->quiet, "no progress and no summary");
  sub->add_flag("--string-ids", args->string_ids,
                "keep ids as strings in the index (automatic from the first string id on)");
  sub->add_option("--method", args->method,
                  "simhash (the card's permuted tables of fingerprints) or minhash (MinHash-LSH band tables of "
                  "documents' signatures; docs/minhash.md)")
      ->check(CLI::IsMember({"simhash", "minhash"}))
      ->capture_default_str();
  AddMinHashBuildOptions(sub, args.get());
  sub->add_option("inputs", args->inputs,
                  "fingerprint files, text or binary; documents (JSONL or lines) or MinHash signature files (simdex "
                  "fingerprint --method minhash) with --method minhash ('-' = stdin)")
      ->required();
  sub->callback([args, run, block_size, codec, sub] {
    args->block_size_given = block_size->count() > 0;
    args->codec_given = codec->count() > 0;
    args->simhash_only = OptionsGiven(sub, kBuildSimHashOnly);
    args->minhash_only = OptionsGiven(sub, kMinHashOnly);
    *run = [args] { return RunBuild(*args); };
  });
}

}  // namespace simdex::tools
