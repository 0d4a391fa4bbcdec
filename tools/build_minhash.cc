// `simdex build --method minhash` (of documents, or of MinHash signature
// files) and the signing of documents that it and `simdex query` share
// (tools/minhash_index_cli.h).
#include <cstdio>
#include <memory>

#include <CLI/CLI.hpp>

#include "simdex/front_end_text.h"
#include "simdex/signature_file.h"
#include "tools/commands.h"
#include "tools/input_options.h"
#include "tools/minhash_index_cli.h"
#include "tools/stopwatch.h"

namespace simdex::tools {

Status PrepareDocumentInputs(const char* command, DocumentInputArgs* input, bool quiet, bool allow_signatures) {
  if (input->inputs.empty()) input->inputs.push_back("-");
  std::vector<std::string> notes;
  SIMDEX_RETURN_IF_ERROR(ChooseBatchFormats(input->inputs, input->format, &input->formats, &notes, allow_signatures));
  for (size_t i = 0; i < input->formats.size(); ++i) {
    if (input->formats[i] == BatchFormat::kFingerprints) {
      return Status::InvalidArgument(DisplayName(input->inputs[i]) +
                                     " holds fingerprints, not documents" +
                                     (allow_signatures ? " or MinHash signatures (simdex fingerprint --method minhash "
                                                         "writes those)"
                                                       : "") +
                                     ": a MinHash-LSH index is made of texts" +
                                     " (--format lines reads its lines as text)");
    }
  }
  if (!quiet) {
    for (const std::string& note : notes) std::fprintf(stderr, "simdex %s: %s\n", command, Printable(note).c_str());
  }
  return Status::OK();
}

Status SignDocuments(const char* command, const MinHashOptions& options, const DocumentInputArgs& input,
                     int threads, bool quiet, const std::function<Status(const SignedDocuments&)>& sink) {
  DocumentFilesStats read;
  SIMDEX_RETURN_IF_ERROR(simdex::SignDocuments(DocumentFilesOf(input), options, threads, nullptr, sink, &read));
  if (read.skipped > 0 && !quiet) PrintSkipped(command, read.first_errors, read.skipped);
  return Status::OK();
}

Status AllOrNoSignatureFiles(const DocumentInputArgs& input, bool* signatures) {
  *signatures = input.formats.front() == BatchFormat::kSignatures;
  for (size_t i = 0; i < input.formats.size(); ++i) {
    if ((input.formats[i] == BatchFormat::kSignatures) != *signatures) {
      return Status::InvalidArgument("inputs mix MinHash signature files and documents (" +
                                     Printable(DisplayName(input.inputs[i])) + ")");
    }
  }
  return Status::OK();
}

namespace {

constexpr const char* kMinHashBuildCommand = "build";

// Opens the first signature file (kept open: it may be standard input)
// into *reader; its signing options, which the index records, into
// *options. When --num-perm, --seed or --shingles were given they must be
// the file's.
Status OpenFirstSignatureFile(const MinHashBuildArgs& args, MinHashOptions* options,
                              std::unique_ptr<SignatureFileReader>* reader) {
  SIMDEX_RETURN_IF_ERROR(SignatureFileReader::Open(args.input.inputs.front(), reader));
  const std::string given = MinHashProfile(args.options.minhash);
  if (args.signing_given && (*reader)->profile() != given) {
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

}  // namespace

std::vector<std::string> OptionsGiven(const CLI::App* sub, std::span<const char* const> names) {
  std::vector<std::string> given;
  for (const char* name : names) {
    if (sub->count(name) > 0) given.push_back(name);
  }
  return given;
}

int RefuseOptions(const char* command, const std::vector<std::string>& given, std::string_view what) {
  return given.empty() ? 0 : ReportError(command, given.front() + std::string(what), kExitUsage);
}

void AddNumPermOption(CLI::App* sub, int* num_perm) {
  sub->add_option("--num-perm", *num_perm, "minhash: values per signature")
      ->check(CLI::Range(1, kMaxNumPerm))
      ->capture_default_str();
}

void AddShinglesOption(CLI::App* sub, ShingleWords* words) {
  sub->add_option_function<std::string>(
         "--shingles", [words](const std::string& name) { ParseShingleWords(name, words); },
         std::string("minhash: the words of the word 5-shingles: word-chars (runs of Unicode \\w characters, "
                     "punctuation dropped: the field's common definition) or space-split (runs between spaces, "
                     "punctuation kept in its word) (default ") +
             ShingleWordsName(ShingleOptions{}.words) + "; docs/minhash.md, \"Shingles\")")
      ->check(CLI::IsMember({ShingleWordsName(ShingleWords::kWordChars), ShingleWordsName(ShingleWords::kSpaceSplit)}));
}

void AddMinHashBuildOptions(CLI::App* sub, MinHashBuildArgs* args) {
  LshBuildOptions& o = args->options;
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
  sub->add_option("--text-field", args->input.text_fields,
                  "minhash: JSONL field holding text; repeat to join several (default: text)")
      ->allow_extra_args(false);
  sub->add_option("--id-field", args->input.id_field, "minhash: JSONL field holding the id (default: id)");
  sub->add_option("--id", args->input.id_mode, "minhash: ids from the id field, or the record number (ordinal)")
      ->check(CLI::IsMember({"field", "ordinal"}));
  sub->add_option("--format", args->input.format,
                  "minhash: input format (default: jsonl for .jsonl/.json/.ndjson, else lines)")
      ->check(CLI::IsMember({"jsonl", "lines"}));
}

int RunMinHashBuild(MinHashBuildArgs args) {
  LshBuildOptions& o = args.options;
  if ((o.bands.bands > 0) != (o.bands.rows > 0)) return ReportError(kMinHashBuildCommand, "--bands and --rows go together", kExitUsage);
  const Stopwatch stopwatch;
  Status s = PrepareDocumentInputs(kMinHashBuildCommand, &args.input, args.quiet, /*allow_signatures=*/true);
  bool signatures = false;
  if (s.ok()) s = AllOrNoSignatureFiles(args.input, &signatures);
  if (!s.ok()) return ReportError(kMinHashBuildCommand, s, /*usage=*/true);
  std::unique_ptr<SignatureFileReader> first;
  if (signatures) {
    s = OpenFirstSignatureFile(args, &o.minhash, &first);
    if (!s.ok()) return ReportError(kMinHashBuildCommand, s);
  }
  std::unique_ptr<LshIndexBuilder> builder;
  s = LshIndexBuilder::Create(args.out, o, &builder);
  if (!s.ok()) return ReportError(kMinHashBuildCommand, s.message(), s.IsInvalidArgument() ? kExitUsage : kExitFailure);
  if (signatures) {
    s = AddSignatureFiles(args.input.inputs, std::move(first), args.out, builder.get());
  } else {
    auto add = [&](const SignedDocuments& b) { return AddSignedBatch(b, builder.get()); };
    s = SignDocuments(kMinHashBuildCommand, o.minhash, args.input, args.threads, args.quiet, add);
  }
  if (s.ok()) s = builder->Finish();
  if (!s.ok()) {
    builder->Abandon();
    return ReportError(kMinHashBuildCommand, s);
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
  return std::fflush(stdout) == 0 ? 0 : ReportError(kMinHashBuildCommand, "error writing standard output");
}

}  // namespace simdex::tools
