// `simdex query` of a MinHash-LSH index (tools/minhash_index_cli.h): the
// queries are documents, signed as the index's were, or MinHash signature
// files of the index's profile; both print the same lines.
#include <charconv>
#include <cstdio>
#include <memory>

#include "simdex/front_end_text.h"
#include "simdex/signature_file.h"
#include "tools/commands.h"
#include "tools/minhash_index_cli.h"

namespace simdex::tools {
namespace {

constexpr const char* kCommand = "query";

// Appends {"id":..,"estimate":..} for each match, and "threshold":<the
// highest passed> when the query has thresholds.
void AppendMatches(const LshIndexReader& index, const std::vector<LshMatch>& matches, std::string* line) {
  line->append("\"matches\":[");
  for (size_t j = 0; j < matches.size(); ++j) {
    if (j > 0) line->push_back(',');
    line->append("{\"id\":");
    if (index.has_string_ids()) AppendJsonString(line, index.IdString(matches[j].id));
    else line->append(std::to_string(matches[j].id));
    char estimate[32];
    std::snprintf(estimate, sizeof(estimate), ",\"estimate\":%.4g", matches[j].estimate);
    line->append(estimate);
    if (matches[j].threshold > 0) {
      char threshold[32];
      const auto r = std::to_chars(threshold, threshold + sizeof threshold, matches[j].threshold);
      line->append(",\"threshold\":").append(threshold, r.ptr);
    }
    line->push_back('}');
  }
  line->append("]}\n");
}

// Queries the index and prints one document's line: its signature's
// matches (decided on the sketches with the document's shingles, when
// given), or (signature null) {"empty":<reason>} without searching.
class Printer {
 public:
  Printer(const LshIndexReader& index, const LshQueryOptions& options) : index_(index), options_(options) {}

  Status Print(uint64_t id, const std::string& id_string, const uint32_t* signature, std::string_view empty_reason,
               const std::vector<uint64_t>* shingles = nullptr) {
    line_.assign("{\"id\":");
    AppendJsonId(&line_, id, id_string);
    line_.push_back(',');
    if (signature == nullptr) {
      line_.append("\"empty\":");
      AppendJsonString(&line_, empty_reason);
      line_.append(",\"matches\":[]}\n");
    } else {
      SIMDEX_RETURN_IF_ERROR(shingles != nullptr ? index_.Query(signature, *shingles, options_, &matches_)
                                                 : index_.Query(signature, options_, &matches_));
      AppendMatches(index_, matches_, &line_);
    }
    if (std::fwrite(line_.data(), 1, line_.size(), stdout) != line_.size()) {
      return Status::IOError("error writing standard output");
    }
    return Status::OK();
  }

 private:
  const LshIndexReader& index_;
  const LshQueryOptions& options_;
  std::vector<LshMatch> matches_;
  std::string line_;
};

// The documents of a signature file, refused unless its profile is the
// index's.
Status QuerySignatureFile(const std::string& path, const std::string& index_path, const LshIndexReader& index,
                          Printer* printer) {
  std::unique_ptr<SignatureFileReader> reader;
  SIMDEX_RETURN_IF_ERROR(SignatureFileReader::Open(path, &reader));
  if (reader->profile() != index.profile()) {
    return Status::InvalidArgument(reader->name() + " holds signatures of '" + reader->profile() + "', " +
                                   index_path + " of '" + index.profile() +
                                   "': signatures of different profiles are not comparable");
  }
  SignatureEntry entry;
  for (bool eof = false;;) {
    SIMDEX_RETURN_IF_ERROR(reader->Next(&entry, &eof));
    if (eof) return Status::OK();
    SIMDEX_RETURN_IF_ERROR(printer->Print(entry.id, entry.id_string, entry.empty ? nullptr : entry.signature.data(),
                                          entry.empty_reason));
  }
}

}  // namespace

int RunMinHashQuery(MinHashQueryArgs args, const LshIndexReader& opened) {
  if (!(args.query.min_estimate < 0 || args.query.min_estimate <= 1)) {
    return ReportError(kCommand, "--min-estimate must be a J in [0, 1]", kExitUsage);
  }
  if (args.query.min_estimate >= 0 && !args.query.thresholds.empty()) {
    return ReportError(kCommand, "--min-estimate and --threshold are two filters: give one", kExitUsage);
  }
  const LshQueryOptions& options = args.query;
  Status s = options.Validate();
  if (!s.ok()) return ReportError(kCommand, s, /*usage=*/true);
  s = PrepareDocumentInputs(kCommand, &args.input, /*quiet=*/false, /*allow_signatures=*/true);
  if (!s.ok()) return ReportError(kCommand, s, /*usage=*/true);
  bool signatures = false;
  s = AllOrNoSignatureFiles(args.input, &signatures);
  if (!s.ok()) return ReportError(kCommand, s.message() + "; query them separately", kExitUsage);
  const LshIndexReader* index = &opened;
  s = index->ValidateQuery(options);  // a threshold below the index's
  if (!s.ok()) return ReportError(kCommand, s, /*usage=*/true);
  Printer printer(*index, options);
  if (signatures) {
    for (size_t i = 0; s.ok() && i < args.input.inputs.size(); ++i) {
      s = QuerySignatureFile(args.input.inputs[i], args.index, *index, &printer);
    }
  } else {
    auto print = [&](const SignedDocuments& b) -> Status {
      for (size_t i = 0; i < b.documents.size(); ++i) {
        const Document& doc = b.documents[i];
        SIMDEX_RETURN_IF_ERROR(printer.Print(doc.id, doc.id_string, b.has_shingles[i] ? b.signature(i) : nullptr,
                                             "no-text", &b.shingles[i]));
      }
      return Status::OK();
    };
    s = SignDocuments(kCommand, index->minhash_options(), args.input, args.threads, /*quiet=*/false, print);
  }
  if (s.ok() && std::fflush(stdout) != 0) s = Status::IOError("error writing standard output");
  return s.ok() ? 0 : ReportError(kCommand, s);
}

}  // namespace simdex::tools
