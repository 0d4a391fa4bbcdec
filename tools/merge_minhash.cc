// `simdex merge` of a MinHash-LSH index (tools/minhash_index_cli.h).
#include <cstdio>
#include <memory>

#include "simdex/front_end_text.h"
#include "tools/commands.h"
#include "tools/minhash_index_cli.h"
#include "tools/stopwatch.h"

namespace simdex::tools {

int RunMinHashMerge(MinHashMergeArgs args, const LshIndexReader& opened,
                    const std::function<Status(LshIndexMerger*)>& read_deletes) {
  constexpr const char* kCommand = "merge";
  const Stopwatch stopwatch;
  const bool batch = !args.input.inputs.empty();
  if (batch) {
    Status s = PrepareDocumentInputs(kCommand, &args.input, args.quiet);
    if (!s.ok()) return ReportError(kCommand, s, /*usage=*/true);
  }
  const LshIndexReader* old = &opened;
  std::unique_ptr<LshIndexMerger> merger;
  Status s = LshIndexMerger::Create(old, args.out, args.options, &merger);
  std::unique_ptr<LshNewDocumentFilter> filter;
  if (args.only_new) filter = std::make_unique<LshNewDocumentFilter>(old);
  auto add = [&](const SignedDocuments& b) { return AddSignedBatch(b, merger.get(), filter.get()); };
  if (s.ok() && batch) s = SignDocuments(kCommand, old->minhash_options(), args.input, args.threads, args.quiet, add);
  if (s.ok()) s = read_deletes(merger.get());
  if (s.ok()) s = merger->Finish();
  if (!s.ok()) {
    if (merger) merger->Abandon();
    return ReportError(kCommand, WithReplaceHint(s), s.IsInvalidArgument() && !merger ? kExitUsage : kExitFailure);
  }
  if (!args.quiet) {
    const LshMergeStats& st = merger->stats();
    auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
    // With --only-new, the documents left out, as SimHash's summary counts them.
    const std::string left_out =
        filter ? Count(filter->left_out(), "batch document") + " left out as near-duplicates, " : std::string();
    std::printf("%s: %s (%llu old - %llu deleted%s + %llu added; %s%s to delete not found), MinHash-LSH, %s, %.2f s\n",
                args.out.c_str(), Count(st.documents, "document").c_str(), u(st.old_documents), u(st.deleted),
                ReplacedPart(st.replaced).c_str(), u(st.added), left_out.c_str(), Count(st.ids_not_found, "id").c_str(),
                Count(st.file_bytes, "byte").c_str(), stopwatch.Seconds());
  }
  return std::fflush(stdout) == 0 ? 0 : ReportError(kCommand, "error writing standard output");
}

}  // namespace simdex::tools
