// The MinHash pieces the commands share (tools/minhash_index_cli.h).
#include <cstdio>
#include <memory>

#include <CLI/CLI.hpp>

#include "simdex/front_end_text.h"
#include "tools/commands.h"
#include "tools/input_options.h"
#include "tools/minhash_index_cli.h"

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
