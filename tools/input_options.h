// The command-line side of reading documents (engine/pipeline/document_files.h):
// the input options `simdex fingerprint`, `dedup`, `idf` and `build --method
// minhash` share, and the lines about records skipped with --skip-bad.
#ifndef SIMDEX_TOOLS_INPUT_OPTIONS_H_
#define SIMDEX_TOOLS_INPUT_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tools/pipeline_names.h"
#include "simdex/batch.h"
#include "tools/cli_fwd.h"

namespace simdex::tools {

using pipeline::DocumentInputArgs;

// Registers --id-field, --text-field, --id and --skip-bad on `sub` (each
// command registers its own inputs and --format).
void AddDocumentInputOptions(CLI::App* sub, DocumentInputArgs* args);

// The library's DocumentFiles (include/simdex/batch.h) of the options.
DocumentFiles DocumentFilesOf(const DocumentInputArgs& args);

// Prints "simdex <command>: skipped <message>" for the first skipped
// records, and how many more there were.
void PrintSkipped(const char* command, const std::vector<std::string>& first_errors, uint64_t skipped);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_INPUT_OPTIONS_H_
