// simdex fingerprint: documents in, one fingerprint per document out, in
// input order, on several threads (FingerprintDocuments and SignDocuments,
// include/simdex/document_inputs.h).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "simdex/document_inputs.h"
#include "simdex/document_reader.h"
#include "simdex/fingerprint.h"
#include "simdex/fingerprint_file.h"
#include "simdex/front_end_text.h"
#include "simdex/minhash.h"
#include "simdex/signature_file.h"
#include "tools/commands.h"
#include "tools/input_options.h"
#include "tools/memory_option.h"
#include "tools/output_checks.h"
#include "tools/progress.h"
#include "tools/stopwatch.h"
#include "tools/text_options.h"

namespace simdex::tools {

namespace {

constexpr int kEmptyReasons = 5;  // EmptyReason values 0..4

struct FingerprintArgs {
  DocumentInputArgs input;
  std::string format;  // empty: by each input's extension
  std::string output = "-";
  bool binary = false;
  TextOptionArgs text;
  std::string memory;  // --idf auto's bound
  std::string tmpdir;
  int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  bool quiet = false;
  // --method minhash: MinHash signatures instead (a signature file).
  std::string method = "simhash";
  MinHashOptions minhash;  // --num-perm and --shingles; --seed is the text options'
  bool seed_given = false;
  std::vector<std::string> simhash_only, minhash_only;  // the options of the other method given
};

// The options only SimHash fingerprints take (the text options but --seed,
// which seeds either method's hashes) and the ones only MinHash takes.
constexpr const char* kFingerprintSimHashOnly[] = {
    "--binary", "--tokenizer", "--ngram", "--no-normalize", "--no-clean-text", "--no-cap-numbers", "--stop-words",
    "--no-stop-words", "--weighting", "--idf", "--compat", "--memory", "--tmpdir"};
constexpr const char* kFingerprintMinHashOnly[] = {"--num-perm", "--shingles"};

// Counts for the summary line, kept by the sink.
struct Tally {
  uint64_t documents = 0;
  uint64_t empty[kEmptyReasons] = {};
  uint64_t invalid_utf8 = 0;
};

void PrintSummary(const Tally& tally, const DocumentFilesStats& inputs, double seconds) {
  uint64_t empty = 0;
  std::string reasons;
  for (int r = 1; r < kEmptyReasons; ++r) {
    if (tally.empty[r] == 0) continue;
    empty += tally.empty[r];
    if (!reasons.empty()) reasons += ", ";
    reasons += std::string(EmptyReasonName(static_cast<EmptyReason>(r))) + " " + std::to_string(tally.empty[r]);
  }
  uint64_t docs = tally.documents;
  std::fprintf(stderr,
               "simdex fingerprint: %s, %llu fingerprinted, %llu empty%s%s%s, %s, %llu skipped bad %s, %.2f s, "
               "%.1f MB/s\n",
               Count(docs, "document").c_str(), static_cast<unsigned long long>(docs - empty),
               static_cast<unsigned long long>(empty), reasons.empty() ? "" : " (", reasons.c_str(),
               reasons.empty() ? "" : ")", Count(tally.invalid_utf8, "invalid UTF-8 replacement").c_str(),
               static_cast<unsigned long long>(inputs.skipped), inputs.skipped == 1 ? "record" : "records", seconds,
               seconds > 0 ? inputs.bytes / 1e6 / seconds : 0.0);
}

// Writes a document's record by its id (its string, else its number): its
// value (a fingerprint or a signature), or when it is empty the reason.
template <class Writer, class Value>
Status AddRecord(Writer& writer, const Document& doc, bool empty, Value value, std::string_view reason) {
  if (doc.id_string.empty()) return empty ? writer.AddEmpty(doc.id, reason) : writer.Add(doc.id, value);
  return empty ? writer.AddEmpty(doc.id_string, reason) : writer.Add(doc.id_string, value);
}

// --method minhash: a signature file (include/simdex/signature_file.h) of
// the documents, signed on args.threads workers.
int RunSignatures(const FingerprintArgs& args) {
  if (int refused = RefuseOptions("fingerprint", args.simhash_only,
                                  " is a SimHash option; --method minhash takes --num-perm, --seed and --shingles "
                                  "(docs/minhash.md)")) {
    return refused;
  }
  MinHashOptions options = args.minhash;
  if (args.seed_given) options.seed = args.text.seed;
  std::unique_ptr<SignatureFileWriter> writer;
  Status s = SignatureFileWriter::Open(args.output, options, &writer);
  if (!s.ok()) return ReportError("fingerprint", s, /*usage=*/s.IsInvalidArgument());
  const Stopwatch stopwatch;
  auto add = [&writer](const SignedDocuments& b) {
    for (size_t i = 0; i < b.documents.size(); ++i) {
      // "no-text", as `simdex query` reports a text without shingles.
      SIMDEX_RETURN_IF_ERROR(AddRecord(*writer, b.documents[i], !b.has_shingles[i], b.signature(i), "no-text"));
    }
    return Status::OK();
  };
  s = SignDocuments("fingerprint", options, args.input, args.threads, args.quiet, add);
  if (s.ok()) s = writer->Finish();
  if (!s.ok()) return ReportError("fingerprint", s);
  if (!args.quiet) {
    std::fprintf(stderr, "simdex fingerprint: %s, %llu signed, %llu without shingles, %s, %.2f s\n",
                 Count(writer->records() + writer->empty(), "document").c_str(),
                 static_cast<unsigned long long>(writer->records()), static_cast<unsigned long long>(writer->empty()),
                 MinHashProfile(options).c_str(), stopwatch.Seconds());
  }
  return 0;
}

int RunFingerprint(FingerprintArgs args) {
  if (args.input.inputs.empty()) args.input.inputs.push_back("-");
  args.input.format = args.format;
  std::vector<std::string> read = args.input.inputs;
  read.insert(read.end(), args.text.stop_words.begin(), args.text.stop_words.end());
  if (!IdfAuto(args.text)) read.push_back(args.text.idf);
  Status s = CheckOutputsAreNotInputs({{"-o", args.output}}, read);
  if (!s.ok()) return ReportError("fingerprint", s, /*usage=*/true);
  // A fingerprint file (by its name or its content) is not fingerprinted
  // again as text unless --format says so.
  std::vector<std::string> notes;
  s = ChooseBatchFormats(args.input.inputs, args.format, &args.input.formats, &notes);
  if (!s.ok()) return ReportError("fingerprint", s);
  for (size_t i = 0; i < args.input.formats.size(); ++i) {
    if (args.input.formats[i] != BatchFormat::kFingerprints) continue;
    return ReportError("fingerprint",
                       DisplayName(args.input.inputs[i]) +
                           " holds fingerprints ('<id><TAB><16 hex digits>' lines or the binary form), not "
                           "documents; --format lines fingerprints its lines as text",
                       kExitUsage);
  }
  if (!args.quiet) {
    for (const std::string& note : notes) std::fprintf(stderr, "simdex fingerprint: %s\n", Printable(note).c_str());
  }
  if (args.method == "minhash") return RunSignatures(args);
  if (int refused = RefuseOptions("fingerprint", args.minhash_only, " is a MinHash option (--method minhash)")) return refused;
  FingerprintOptions options;
  s = MakeFingerprintOptions(args.text, &options, /*allow_auto=*/true);
  if (!s.ok()) return ReportError("fingerprint", s, /*usage=*/s.IsInvalidArgument());
  size_t memory = size_t{1} << 30;
  if (int bad = ParseMemoryOrReport("fingerprint", args.memory, &memory)) return bad;
  std::string learned;
  if (IdfAuto(args.text)) {
    IdfLearnerStats stats;
    std::shared_ptr<const IdfTable> table;
    s = RunIdfPass("fingerprint", "--idf auto", args.input, options,
                   {.memory_bytes = memory,
                    .tmpdir = SpillDirectory(args.tmpdir),
                    .threads = args.threads,
                    .max_idf = IdfCap(args.text)},
                   args.quiet, &table, &stats, &learned);
    if (!s.ok()) return ReportError("fingerprint", s, /*usage=*/s.IsInvalidArgument());
    options.idf = std::move(table);
  }
  std::unique_ptr<Fingerprinter> prototype;
  s = Fingerprinter::Create(options, &prototype);
  if (!s.ok()) return ReportError("fingerprint", s, /*usage=*/s.IsInvalidArgument());

  std::unique_ptr<FingerprintFileWriter> writer;
  s = FingerprintFileWriter::Open(args.output, args.binary ? FingerprintFileForm::kBinary : FingerprintFileForm::kText,
                                  prototype->profile(), &writer);
  if (!s.ok()) return ReportError("fingerprint", s);

  Tally tally;
  Progress progress("fingerprint", !args.quiet);
  auto sink = [&writer, &tally](const FingerprintedDocuments& batch) {
    for (size_t i = 0; i < batch.documents.size(); ++i) {
      const FingerprintResult& r = batch.results[i];
      tally.invalid_utf8 += r.invalid_utf8;
      if (r.empty()) ++tally.empty[static_cast<int>(r.reason)];
      SIMDEX_RETURN_IF_ERROR(
          AddRecord(*writer, batch.documents[i], r.empty(), r.fingerprint, EmptyReasonName(r.reason)));
    }
    tally.documents += batch.documents.size();
    return Status::OK();
  };
  DocumentFilesStats inputs;
  s = FingerprintDocuments(DocumentFilesOf(args.input), *prototype, args.threads, &progress, sink, &inputs);
  if (s.ok()) s = writer->Finish();
  progress.Done();
  if (!s.ok()) return ReportError("fingerprint", s);
  if (!args.quiet && !learned.empty()) std::fprintf(stderr, "simdex fingerprint: %s\n", learned.c_str());
  if (!args.quiet) PrintSummary(tally, inputs, progress.Seconds());
  if (!args.quiet || inputs.skipped > 0) PrintSkipped("fingerprint", inputs.first_errors, inputs.skipped);
  return 0;
}

}  // namespace

void AddFingerprintCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<FingerprintArgs>();
  CLI::App* sub = app.add_subcommand("fingerprint", "SimHash fingerprints of documents (JSONL or one per line)");
  sub->add_option("inputs", args->input.inputs,
                  "input files; none or '-' = stdin; .gz/.zst/.bz2 are decompressed");
  sub->add_option("--format", args->format,
                  "input format (default: jsonl for .jsonl/.json/.ndjson, else lines: one document per line, "
                  "id = line number)")
      ->check(CLI::IsMember({"jsonl", "lines"}));
  AddDocumentInputOptions(sub, &args->input);
  sub->add_option("-o,--output", args->output,
                  "fingerprint file ('-' = stdout); written under a temporary name, then renamed; .gz/.zst/.bz2 compress")
      ->capture_default_str();
  sub->add_flag("--binary", args->binary, "write the binary form (docs/fingerprint-files.md)");
  AddTextOptions(sub, &args->text);
  sub->add_option("--memory", args->memory, "--idf auto: memory bound of the first pass, e.g. 512M (default 1G)");
  sub->add_option("--tmpdir", args->tmpdir, "--idf auto: directory for spilled sorts (default: $TMPDIR or /tmp)");
  sub->add_option("--threads", args->threads, "worker threads")->check(CLI::Range(1, 1024))->capture_default_str();
  sub->add_flag("-q,--quiet", args->quiet, "no progress line and no summary");
  sub->add_option("--method", args->method,
                  "simhash (fingerprints) or minhash (MinHash signatures, a signature file that simdex query "
                  "searches a MinHash-LSH index with; takes --num-perm, --shingles and --seed, default " +
                      std::to_string(MinHashOptions().seed) + ")")
      ->check(CLI::IsMember({"simhash", "minhash"}))
      ->capture_default_str();
  AddNumPermOption(sub, &args->minhash.num_perm);
  AddShinglesOption(sub, &args->minhash.shingles.words);
  sub->footer(
      "Output: '<id>\\t<16 hex digits>' per document in input order, '<id>\\t-\\t<reason>' for a document\n"
      "without features; ordinal ids continue across inputs; string ids are kept (text form only).\n"
      "--method minhash: a '#simdex-signatures\\t<profile>' line, then '<id>\\t<num-perm x 8 hex digits>'\n"
      "(docs/fingerprint-files.md).\n"
      "Example: simdex fingerprint --text-field title --text-field text -o fp.txt docs.jsonl.gz");
  sub->callback([args, run, sub] {
    args->simhash_only = OptionsGiven(sub, kFingerprintSimHashOnly);
    args->minhash_only = OptionsGiven(sub, kFingerprintMinHashOnly);
    args->seed_given = sub->count("--seed") > 0;
    *run = [args] { return RunFingerprint(*args); };
  });
}

}  // namespace simdex::tools
