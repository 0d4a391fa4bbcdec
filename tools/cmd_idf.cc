// simdex idf: learns the idf of a batch's features (include/simdex/idf_learner.h)
// and writes it as the term<TAB>idf file that --idf FILE reads, so that a
// service (`simdex serve --idf FILE`) or a later batch weighs features as
// `--idf auto` weighed this one. Two passes over the documents: the first
// counts document frequencies within --memory, the second finds the texts
// of the features the table keeps and writes their lines.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "simdex/document_inputs.h"
#include "simdex/front_end_text.h"
#include "simdex/idf_learner.h"
#include "simdex/output_writer.h"
#include "tools/commands.h"
#include "tools/input_options.h"
#include "tools/memory_option.h"
#include "tools/output_checks.h"
#include "tools/progress.h"
#include "tools/text_options.h"

namespace simdex::tools {
namespace {

constexpr const char* kIdfCommand = "idf";

struct IdfArgs {
  DocumentInputArgs input;
  std::string format;
  TextOptionArgs text;
  std::string output;
  std::string memory;
  std::string tmpdir;
  int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  bool quiet = false;
};

// The second pass: every document again, the lines of its new terms.
Status WriteTerms(const IdfArgs& args, const FingerprintOptions& options, std::shared_ptr<const IdfTable> table,
                  uint64_t documents, std::unique_ptr<IdfTermWriter>* writer) {
  SIMDEX_RETURN_IF_ERROR(IdfTermWriter::Create(options, std::move(table), writer));
  std::unique_ptr<OutputWriter> out;
  Status s = OutputWriter::Open(args.output, &out);
  if (!s.ok()) return Status::IOError(FileError(args.output, s));
  std::string lines;
  (*writer)->Head(documents, &lines);
  DocumentFilesStats read;
  SIMDEX_RETURN_IF_ERROR(ForEachDocument(
      DocumentFilesOf(args.input),
      [&](const Document& doc) {
        (*writer)->Add(doc.text, &lines);
        if (lines.size() < (size_t{1} << 16)) return Status::OK();
        const Status appended = out->Append(lines);
        lines.clear();
        return appended.ok() ? appended : Status::IOError(FileError(args.output, appended));
      },
      &read));
  s = out->Append(lines);
  if (s.ok()) s = out->Close();
  return s.ok() ? s : Status::IOError(FileError(args.output, s));
}

int RunIdf(IdfArgs args) {
  if (args.input.inputs.empty()) args.input.inputs.push_back("-");
  args.input.format = args.format;
  if (!args.text.idf.empty() || !args.text.weighting.empty() || args.text.compat != "none") {
    return ReportError(kIdfCommand, "--idf, --weighting and --compat do not apply: simdex idf learns the idf of the "
                                 "features the other text options make", kExitUsage);
  }
  std::vector<std::string> read = args.input.inputs;
  read.insert(read.end(), args.text.stop_words.begin(), args.text.stop_words.end());
  Status s = CheckOutputsAreNotInputs({{"-o", args.output}}, read);
  if (!s.ok()) return ReportError(kIdfCommand, s, /*usage=*/true);
  std::vector<std::string> notes;
  s = ChooseBatchFormats(args.input.inputs, args.format, &args.input.formats, &notes);
  if (!s.ok()) return ReportError(kIdfCommand, s);
  for (size_t i = 0; i < args.input.formats.size(); ++i) {
    if (args.input.formats[i] != BatchFormat::kFingerprints) continue;
    return ReportError(kIdfCommand, DisplayName(args.input.inputs[i]) + " holds fingerprints, not documents",
                       kExitUsage);
  }
  FingerprintOptions options;
  TextOptionArgs features = args.text;
  features.idf_cap = 0;  // this command learns the table --idf-cap caps
  s = MakeFingerprintOptions(features, &options);
  if (!s.ok()) return ReportError(kIdfCommand, s, /*usage=*/s.IsInvalidArgument());
  size_t memory = size_t{1} << 30;
  if (int bad = ParseMemoryOrReport(kIdfCommand, args.memory, &memory)) return bad;
  IdfLearnerStats stats;
  std::shared_ptr<const IdfTable> table;
  std::string learned;
  s = RunIdfPass(kIdfCommand, "simdex idf", args.input, options,
                 {.memory_bytes = memory,
                  .tmpdir = SpillDirectory(args.tmpdir),
                  .threads = args.threads,
                  .max_idf = IdfCap(args.text)},
                 args.quiet,
                 &table, &stats, &learned);
  if (!s.ok()) return ReportError(kIdfCommand, s, /*usage=*/s.IsInvalidArgument());
  Progress progress(kIdfCommand, !args.quiet);
  progress.Update("writing the terms (second pass)");
  std::unique_ptr<IdfTermWriter> writer;
  s = WriteTerms(args, options, std::move(table), stats.documents, &writer);
  progress.Done();
  if (!s.ok()) return ReportError(kIdfCommand, s);
  if (!args.quiet) {
    std::fprintf(stderr, "simdex idf: %s; %llu terms written to %s, %llu left out (not writable on a line), %.2f s more\n",
                 learned.c_str(), static_cast<unsigned long long>(writer->written()),
                 Printable(args.output).c_str(), static_cast<unsigned long long>(writer->left_out()),
                 progress.Seconds());
  }
  return 0;
}

}  // namespace

void AddIdfCommand(CLI::App& app, CommandRunner* run) {
  auto args = std::make_shared<IdfArgs>();
  CLI::App* sub = app.add_subcommand(
      "idf", "Learn the idf of a batch's features and write it as the term<TAB>idf file --idf FILE reads");
  sub->add_option("inputs", args->input.inputs, "documents (JSONL or one per line; files: they are read twice)");
  sub->add_option("--format", args->format,
                  "input format (default: jsonl for .jsonl/.json/.ndjson, else lines)")
      ->check(CLI::IsMember({"jsonl", "lines"}));
  AddDocumentInputOptions(sub, &args->input);
  AddTextOptions(sub, &args->text);
  sub->add_option("-o,--output", args->output, "the term<TAB>idf file; written under a temporary name, then renamed")
      ->required();
  sub->add_option("--memory", args->memory, "memory bound of the counting pass, e.g. 512M (default 1G)");
  sub->add_option("--tmpdir", args->tmpdir, "directory for spilled sorts (default: $TMPDIR or /tmp)");
  sub->add_option("--threads", args->threads, "threads of the counting pass (each document's features found on one of them) and of its in-memory sorts")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  sub->add_flag("-q,--quiet", args->quiet, "no progress and no summary");
  sub->footer(
      "idf = ln((N + 1) / df) for the features two or more of the N documents hold; the others (and features\n"
      "the batch never held) get #default-idf = ln(N + 1). With --idf-cap C, idf values above C are C, and only\n"
      "the features below it are written (#default-idf = C). The same text options as the fingerprints that will\n"
      "use it (tokenizer, stop words, normalization, seed). docs/fingerprint.md explains it.\n"
      "Example: simdex idf -o corpus.idf --text-field text corpus.jsonl; simdex serve --idf corpus.idf ...");
  sub->callback([args, run] { *run = [args] { return RunIdf(*args); }; });
}

}  // namespace simdex::tools
