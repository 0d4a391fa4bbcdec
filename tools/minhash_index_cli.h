// The MinHash pieces that `simdex build`, `query`, `merge`, `dedup` and
// `fingerprint` share (docs/minhash.md, "Indexes"): their options, and
// documents read as `simdex dedup` reads them and signed on worker threads.
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

#endif  // SIMDEX_TOOLS_MINHASH_INDEX_CLI_H_
