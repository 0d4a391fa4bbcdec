#include "tools/input_options.h"

#include <cstdio>

#include <CLI/CLI.hpp>

#include "simdex/front_end_text.h"

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

Status CheckTwoPasses(const DocumentInputArgs& args, const std::string& what) {
  const std::string once = InputReadOnce(args.inputs);
  if (once.empty()) return Status::OK();
  return Status::InvalidArgument(what + " reads the documents twice: give files, not " + once);
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

}  // namespace simdex::tools
