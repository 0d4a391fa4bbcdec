#include "tools/input_options.h"

#include <cstdio>

#include <CLI/CLI.hpp>

#include "simdex/document_inputs.h"
#include "simdex/front_end_text.h"
#include "tools/commands.h"
#include "tools/progress.h"

namespace simdex::tools {

void AddDocumentInputOptions(CLI::App* sub, DocumentInputArgs* args) {
  sub->add_option("--id-field", args->id_field,
                  "JSONL field holding the id: an unsigned 64-bit integer, or any other string (a string id)")
      ->capture_default_str();
  sub->add_option("--text-field", args->text_fields,
                  "JSONL field holding text; repeat to join several with newlines (default: text)")
      ->allow_extra_args(false);
  sub->add_option("--id", args->id_mode, "ids from the id field, or the record number counting from 1 (ordinal)")
      ->check(CLI::IsMember({"field", "ordinal"}))
      ->capture_default_str();
  sub->add_flag("--skip-bad", args->skip_bad, "skip and count bad input records instead of stopping");
}

DocumentFiles DocumentFilesOf(const DocumentInputArgs& args) {
  DocumentFiles files;
  files.paths = args.inputs;
  for (size_t i = 0; i < args.inputs.size(); ++i) {
    if (!args.formats.empty()) {
      files.formats.push_back(args.formats[i] == BatchFormat::kJsonl ? DocumentFormat::kJsonl : DocumentFormat::kLines);
    } else if (!args.format.empty()) {
      files.formats.push_back(args.format == "jsonl" ? DocumentFormat::kJsonl : DocumentFormat::kLines);
    }
  }
  files.id_field = args.id_field;
  files.text_fields = args.text_fields;
  files.id_mode = args.id_mode == "ordinal" ? IdMode::kOrdinal : IdMode::kField;
  files.skip_bad = args.skip_bad;
  files.score_field = args.score_field;
  files.title_field = args.title_field;
  return files;
}

std::string InputReadOnce(const std::vector<std::string>& inputs) {
  for (const std::string& path : inputs) {
    if (CanReadTwice(path)) continue;
    return path == "-" ? std::string("standard input") : path + " (not a regular file)";
  }
  return "";
}

void PrintSkipped(const char* command, const std::vector<std::string>& first_errors, uint64_t skipped) {
  for (const std::string& e : first_errors) {
    std::fprintf(stderr, "simdex %s: skipped %s\n", command, Printable(e).c_str());
  }
  if (skipped > first_errors.size()) {
    std::fprintf(stderr, "simdex %s: ... and %llu more skipped\n", command,
                 static_cast<unsigned long long>(skipped - first_errors.size()));
  }
}

std::string DescribeLearnedIdf(const IdfLearnerStats& s, size_t table_bytes, double default_idf) {
  char text[320];
  char capped[96] = "";
  if (s.capped > 0) {
    std::snprintf(capped, sizeof capped, ", %llu of them below the cap of %g in the table",
                  static_cast<unsigned long long>(s.kept), default_idf);
  }
  std::snprintf(text, sizeof text,
                "idf learned from %llu documents: %llu distinct features, %llu held by two or more documents%s "
                "(%.1f MB), %llu spilled runs",
                static_cast<unsigned long long>(s.documents), static_cast<unsigned long long>(s.features),
                static_cast<unsigned long long>(s.kept + s.capped), capped, static_cast<double>(table_bytes) / 1e6,
                static_cast<unsigned long long>(s.runs_spilled));
  return text;
}

Status RunIdfPass(const char* command, const std::string& what, const DocumentInputArgs& input,
                  const FingerprintOptions& options, const IdfLearnerOptions& learn, bool quiet,
                  std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats, std::string* summary) {
  if (const std::string once = InputReadOnce(input.inputs); !once.empty()) {
    return Status::InvalidArgument(what + " reads the documents twice: give files, not " + once);
  }
  Progress progress(command, !quiet);
  const Status s = LearnIdf(DocumentFilesOf(input), options, learn, &progress, table, stats);
  progress.Done();
  SIMDEX_RETURN_IF_ERROR(s);
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, ", %.2f s", progress.Seconds());
  *summary = DescribeLearnedIdf(*stats, IdfTableBytes(**table), (*table)->default_idf()) + seconds;
  return Status::OK();
}


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

}  // namespace simdex::tools
