// The command-line side of reading documents (include/simdex/document_inputs.h):
// the input options `simdex fingerprint`, `dedup`, `idf` and `build --method
// minhash` share, and the lines about records skipped with --skip-bad.
#ifndef SIMDEX_TOOLS_INPUT_OPTIONS_H_
#define SIMDEX_TOOLS_INPUT_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "simdex/batch.h"
#include "simdex/document_reader.h"
#include "tools/cli_fwd.h"

namespace simdex::tools {

// The input options as the command line gives them.
struct DocumentInputArgs {
  std::vector<std::string> inputs;
  std::string format;  // --format: "jsonl", "lines"; empty: `formats`, else by each input's name
  // Each input's format, from ChooseBatchFormats (include/simdex/
  // document_inputs.h); empty: `format` decides.
  std::vector<BatchFormat> formats;
  std::string id_field = "id";
  std::vector<std::string> text_fields;  // empty: {"text"}
  std::string id_mode = "field";         // --id: "field" or "ordinal"
  bool skip_bad = false;
  std::string score_field;  // --keep max:FIELD
  std::string title_field;  // --title-field
};

// Registers --id-field, --text-field, --id and --skip-bad on `sub` (each
// command registers its own inputs and --format).
void AddDocumentInputOptions(CLI::App* sub, DocumentInputArgs* args);

// The library's DocumentFiles (include/simdex/batch.h) of the options: the
// documents of the inputs, each read as JSONL when its format (or --format)
// is kJsonl, else as one document per line.
DocumentFiles DocumentFilesOf(const DocumentInputArgs& args);

// The first input that cannot be read twice, as a message names it
// ("standard input", "<path> (not a regular file)"); "" when there is none.
std::string InputReadOnce(const std::vector<std::string>& inputs);

// InvalidArgument "<what> reads the documents twice: give files, not
// <input>" for the first input that cannot be read twice.
Status CheckTwoPasses(const DocumentInputArgs& args, const std::string& what);

// Prints "simdex <command>: skipped <message>" for the first skipped
// records, and how many more there were.
void PrintSkipped(const char* command, const std::vector<std::string>& first_errors, uint64_t skipped);

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_INPUT_OPTIONS_H_
