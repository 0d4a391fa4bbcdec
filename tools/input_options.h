// The command-line side of reading documents (include/simdex/document_inputs.h):
// the input options `simdex fingerprint`, `dedup`, `idf` and `build --method
// minhash` share, the lines about records skipped with --skip-bad, the idf
// pass, and the MinHash pieces that `simdex build`, `query`, `merge`,
// `dedup` and `fingerprint` share (docs/minhash.md, "Indexes"): their
// options, and documents signed on worker threads.
#ifndef SIMDEX_TOOLS_INPUT_OPTIONS_H_
#define SIMDEX_TOOLS_INPUT_OPTIONS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/batch.h"
#include "simdex/document_inputs.h"
#include "simdex/document_reader.h"
#include "simdex/fingerprint.h"
#include "simdex/idf_learner.h"
#include "simdex/lsh_index.h"
#include "simdex/minhash.h"
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

// Prints "simdex <command>: skipped <message>" for the first skipped
// records, and how many more there were.
void PrintSkipped(const char* command, const std::vector<std::string>& first_errors, uint64_t skipped);

// The idf pass (LearnIdf, include/simdex/document_inputs.h) of `--idf auto`
// (`simdex fingerprint`) and of `simdex idf`, as a command runs it:
// InvalidArgument "<what> reads the documents twice: give files, not
// <input>" for the first input that cannot be read twice, else a progress
// line (unless quiet) and LearnIdf; *summary gets the line for the
// command's stderr ("idf learned from N documents: ..., T s").
Status RunIdfPass(const char* command, const std::string& what, const DocumentInputArgs& input,
                  const FingerprintOptions& options, const IdfLearnerOptions& learn, bool quiet,
                  std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats, std::string* summary);

// "idf learned from N documents: ..." for a command's summary; table_bytes:
// IdfTableBytes of the table, default_idf its default_idf().
std::string DescribeLearnedIdf(const IdfLearnerStats& stats, size_t table_bytes, double default_idf);

// Adds --num-perm (1..kMaxNumPerm) into *num_perm: the one definition that
// build, dedup and fingerprint share.
void AddNumPermOption(CLI::App* sub, int* num_perm);
// Adds --shingles (word-chars or space-split: how spaced text is cut into
// words, include/simdex/shingles.h) into *words, as build, dedup,
// fingerprint and serve share it.
void AddShinglesOption(CLI::App* sub, ShingleWords* words);

// The options among `names` that sub's command line gives, in the order of
// names: for the refusals of the other method's options.
std::vector<std::string> OptionsGiven(const CLI::App* sub, std::span<const char* const> names);
// The refusal of such options: "simdex <command>: <the first of
// given><what>", a usage error; 0 when none was given.
int RefuseOptions(const char* command, const std::vector<std::string>& given, std::string_view what);

// Chooses the formats of the inputs ("-" when there are none) as `simdex
// dedup` chooses them; InvalidArgument (a usage error) for a fingerprint
// file, and for a MinHash signature file unless allow_signatures (then
// BatchFormat::kSignatures). Notes go to stderr unless quiet.
Status PrepareDocumentInputs(const char* command, DocumentInputArgs* input, bool quiet,
                             bool allow_signatures = false);

// Whether prepared inputs are MinHash signature files (*signatures) or
// documents: all or none, else InvalidArgument (a usage error) naming the
// first input of the other kind.
Status AllOrNoSignatureFiles(const DocumentInputArgs& input, bool* signatures);

// Signs the documents of prepared inputs on `threads` workers with
// `options` and passes each batch to `sink` in input order (SignDocuments,
// include/simdex/document_inputs.h); the records skipped go to stderr
// unless quiet.
Status SignDocuments(const char* command, const MinHashOptions& options, const DocumentInputArgs& input,
                     int threads, bool quiet, const std::function<Status(const SignedDocuments&)>& sink);

// Adds a signed batch's documents to an LshIndexBuilder or LshIndexMerger,
// each by its string id when it has one, else by its number, with its
// shingles (b.shingles, for its sketch); with a filter, only those it
// finds new.
template <class Target>
Status AddSignedBatch(const SignedDocuments& b, Target* target, LshNewDocumentFilter* filter = nullptr) {
  for (size_t i = 0; i < b.documents.size(); ++i) {
    const Document& doc = b.documents[i];
    const uint32_t* signature = b.signature(i);
    const std::span<const uint64_t> shingles(b.shingles[i]);
    bool is_new = true;
    if (filter != nullptr) SIMDEX_RETURN_IF_ERROR(filter->Check(signature, shingles, &is_new));
    if (!is_new) continue;
    SIMDEX_RETURN_IF_ERROR(doc.id_string.empty() ? target->Add(doc.id, signature, shingles)
                                                 : target->Add(doc.id_string, signature, shingles));
  }
  return Status::OK();
}

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_INPUT_OPTIONS_H_
