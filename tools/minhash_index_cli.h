// The MinHash-LSH side of `simdex build` and `simdex query`
// (docs/minhash.md, "Indexes"): documents read as `simdex dedup` reads
// them, signed on worker threads, and added to an LSH index
// (include/simdex/lsh_index.h) or searched in one.
#ifndef SIMDEX_TOOLS_MINHASH_INDEX_CLI_H_
#define SIMDEX_TOOLS_MINHASH_INDEX_CLI_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tools/cli_fwd.h"

#include "simdex/document_inputs.h"
#include "simdex/lsh_index.h"
#include "simdex/minhash.h"
#include "tools/input_options.h"

namespace simdex::tools {

// `simdex build --method minhash`.
struct MinHashBuildArgs {
  std::string out;
  LshBuildOptions options;  // block size, codec, restarts and string ids from build's own options
  DocumentInputArgs input;  // inputs: the documents, or MinHash signature files
  int threads = 1;
  bool quiet = false;
  // --num-perm or --seed given: signature files must have been made with
  // them; else their header's options are the index's.
  bool signing_given = false;
};

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

// Adds build's MinHash options (--threshold, --num-perm, --seed, --bands,
// --rows, --signature-bits) and the document options (--text-field,
// --id-field, --id, --format) to `sub`, into *args.
void AddMinHashBuildOptions(CLI::App* sub, MinHashBuildArgs* args);
// The names of those options, for "is a MinHash option" refusals.
inline constexpr const char* kMinHashBuildOptionNames[] = {
    "--threshold", "--num-perm", "--seed", "--shingles", "--bands", "--rows", "--signature-bits", "--sketch",
    "--text-field", "--id-field", "--id", "--format"};

int RunMinHashBuild(MinHashBuildArgs args);

// `simdex query` of a MinHash-LSH index: the documents of `inputs` (JSONL
// or lines, "-" = stdin) signed as the index's signatures were, or the
// signatures of MinHash signature files (include/simdex/signature_file.h)
// of the index's profile, one JSON line per document in input order:
//   {"id":<its id>,"matches":[{"id":<id>,"estimate":<J estimate>},...]}
// and {"id":..,"empty":"no-text","matches":[]} for a text without shingles
// (a signature file's "<id>\t-\t<reason>": "empty":"<reason>"). The
// inputs are all documents or all signature files. With thresholds each
// match carries "threshold":<the highest it passes>; with top_k the
// matches are the K highest estimates, highest first (LshQueryOptions).
struct MinHashQueryArgs {
  std::string index;
  DocumentInputArgs input;
  LshQueryOptions query;  // the filter, thresholds, top-k and approximate of the command line
  int threads = 1;
};
// `index` is the file at args.index, opened by the caller.
int RunMinHashQuery(MinHashQueryArgs args, const LshIndexReader& index);

// `simdex merge` of a MinHash-LSH index: the batch's documents (signed
// with the old index's options) added, the ids read_deletes gives removed,
// the new file written (LshIndexMerger).
struct MinHashMergeArgs {
  std::string old;
  std::string out;
  LshMergeOptions options;  // --memory, --tmpdir
  DocumentInputArgs input;  // empty inputs: no batch
  int threads = 1;
  bool quiet = false;
  // --only-new: only the batch documents LshNewDocumentFilter finds new.
  bool only_new = false;
};
// `old` is the index at args.old, opened by the caller.
int RunMinHashMerge(MinHashMergeArgs args, const LshIndexReader& old,
                    const std::function<Status(LshIndexMerger*)>& read_deletes);

// A merge's error message; the refusal of batch ids the old index holds
// (ExistingIds::kRefuse) names the option that replaces them (cmd_merge.cc).
std::string WithReplaceHint(const Status& s);
// " - N replaced" when a merge replaced old entries (--replace), else "".
std::string ReplacedPart(uint64_t replaced);

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

#endif  // SIMDEX_TOOLS_MINHASH_INDEX_CLI_H_
