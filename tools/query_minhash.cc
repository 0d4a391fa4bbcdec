// `simdex query` of a MinHash-LSH index (tools/minhash_index_cli.h).
#include <cstdio>
#include <memory>

#include "tools/commands.h"
#include "tools/json_text.h"
#include "tools/minhash_index_cli.h"

namespace simdex::tools {
namespace {

constexpr const char* kCommand = "query";

// Appends {"id":..,"estimate":..} for each match.
void AppendMatches(const LshIndexReader& index, const std::vector<LshMatch>& matches, std::string* line) {
  line->append("\"matches\":[");
  for (size_t j = 0; j < matches.size(); ++j) {
    if (j > 0) line->push_back(',');
    line->append("{\"id\":");
    if (index.has_string_ids()) AppendJsonString(line, index.IdString(matches[j].id));
    else line->append(std::to_string(matches[j].id));
    char estimate[32];
    std::snprintf(estimate, sizeof(estimate), ",\"estimate\":%.4g}", matches[j].estimate);
    line->append(estimate);
  }
  line->append("]}\n");
}

}  // namespace

int RunMinHashQuery(MinHashQueryArgs args) {
  if (!(args.min_estimate < 0 || args.min_estimate <= 1)) {
    return ReportError(kCommand, "--min-estimate must be a J in [0, 1]", kExitUsage);
  }
  Status s = PrepareDocumentInputs(kCommand, &args.input, /*quiet=*/false);
  if (!s.ok()) return ReportError(kCommand, s, /*usage=*/true);
  ReaderOptions reader_options;
  reader_options.verify_block_checksums = args.verify_checksums;
  std::unique_ptr<LshIndexReader> index;
  int exit_code = 0;
  if (!OpenIndexOrReport(kCommand, args.index, reader_options, &index, &exit_code)) return exit_code;
  LshQueryOptions options;
  options.min_estimate = args.min_estimate;
  const size_t num_perm = static_cast<size_t>(index->minhash_options().num_perm);
  std::vector<LshMatch> matches;
  std::string line;
  auto print = [&](const DocumentBatch& b) -> Status {
    for (size_t i = 0; i < b.size; ++i) {
      const Document& doc = b.docs[i];
      line.assign("{\"id\":");
      AppendJsonId(&line, doc.id, doc.id_string);
      line.push_back(',');
      if (!b.has_shingles[i]) {
        line.append("\"empty\":\"no-text\",\"matches\":[]}\n");
      } else {
        SIMDEX_RETURN_IF_ERROR(index->Query(b.signatures.data() + i * num_perm, options, &matches));
        AppendMatches(*index, matches, &line);
      }
      if (std::fwrite(line.data(), 1, line.size(), stdout) != line.size()) {
        return Status::IOError("error writing standard output");
      }
    }
    return Status::OK();
  };
  s = SignDocuments(kCommand, index->minhash_options(), args.input, args.threads, /*quiet=*/false, print);
  if (s.ok() && std::fflush(stdout) != 0) s = Status::IOError("error writing standard output");
  return s.ok() ? 0 : ReportError(kCommand, s);
}

}  // namespace simdex::tools
