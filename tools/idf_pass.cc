#include "tools/idf_pass.h"

#include <cstdio>

#include "simdex/document_inputs.h"
#include "tools/progress.h"

namespace simdex::tools {

std::string DescribeLearnedIdf(const IdfLearnerStats& s, size_t table_bytes, double default_idf) {
  char text[320];
  char capped[96] = "";
  if (s.capped > 0) {
    std::snprintf(capped, sizeof capped, ", %llu of them below the cap of %g in the table",
                  static_cast<unsigned long long>(s.kept), default_idf);
  }
  std::snprintf(text, sizeof text,
                "idf learned from %llu documents: %llu distinct features, %llu held by two or more documents%s "
                "(%.1f MB), %llu spilled runs",
                static_cast<unsigned long long>(s.documents), static_cast<unsigned long long>(s.features),
                static_cast<unsigned long long>(s.kept + s.capped), capped, static_cast<double>(table_bytes) / 1e6,
                static_cast<unsigned long long>(s.runs_spilled));
  return text;
}

Status RunIdfPass(const char* command, const std::string& what, const DocumentInputArgs& input,
                  const FingerprintOptions& options, const IdfLearnerOptions& learn, bool quiet,
                  std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats, std::string* summary) {
  SIMDEX_RETURN_IF_ERROR(CheckTwoPasses(input, what));
  Progress progress(command, !quiet);
  const Status s = LearnIdf(DocumentFilesOf(input), options, learn, &progress, table, stats);
  progress.Done();
  SIMDEX_RETURN_IF_ERROR(s);
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, ", %.2f s", progress.Seconds());
  *summary = DescribeLearnedIdf(*stats, IdfTableBytes(**table), (*table)->default_idf()) + seconds;
  return Status::OK();
}

}  // namespace simdex::tools
