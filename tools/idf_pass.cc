#include "tools/idf_pass.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "engine/io/input_stream.h"
#include "tools/progress.h"

namespace simdex::tools {

Status CheckTwoPasses(const DocumentInputArgs& input, const std::string& what) {
  for (const std::string& path : input.inputs) {
    if (io::CanReadTwice(path)) continue;
    return Status::InvalidArgument(what + " reads the documents twice: give files, not " +
                                   (path == "-" ? std::string("standard input") : path + " (not a regular file)"));
  }
  return Status::OK();
}

std::string SpillDirectory(const std::string& tmpdir) {
  if (!tmpdir.empty()) return tmpdir;
  const char* env = std::getenv("TMPDIR");
  return env != nullptr && *env != '\0' ? env : "/tmp";
}

std::string DescribeLearnedIdf(const IdfLearnerStats& s, const IdfTable& table) {
  char text[256];
  std::snprintf(text, sizeof text,
                "idf learned from %llu documents: %llu distinct features, %llu held by two or more documents "
                "(%.1f MB), %llu spilled runs",
                static_cast<unsigned long long>(s.documents), static_cast<unsigned long long>(s.features),
                static_cast<unsigned long long>(s.kept), static_cast<double>(IdfTableBytes(table)) / 1e6,
                static_cast<unsigned long long>(s.runs_spilled));
  return text;
}

Status LearnIdf(const DocumentInputArgs& input, const FingerprintOptions& options, const IdfLearnerOptions& learn,
                std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats) {
  std::unique_ptr<IdfLearner> learner;
  SIMDEX_RETURN_IF_ERROR(IdfLearner::Create(options, learn, &learner));
  DocumentInputs inputs(input);
  DocumentBatch batch;
  std::vector<std::string_view> texts;
  for (bool eof = false; !eof;) {
    batch.size = 0;
    SIMDEX_RETURN_IF_ERROR(inputs.Fill(&batch, &eof));
    texts.clear();
    for (size_t i = 0; i < batch.size; ++i) texts.push_back(batch.docs[i].text);
    SIMDEX_RETURN_IF_ERROR(learner->AddBatch(texts));  // on learn.threads threads
  }
  SIMDEX_RETURN_IF_ERROR(learner->Finish(table));
  *stats = learner->stats();
  return Status::OK();
}

Status RunIdfPass(const char* command, const std::string& what, const DocumentInputArgs& input,
                  const FingerprintOptions& options, const IdfLearnerOptions& learn, bool quiet,
                  std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats, std::string* summary) {
  SIMDEX_RETURN_IF_ERROR(CheckTwoPasses(input, what));
  Progress progress(command, !quiet);
  progress.Update("learning idf (first pass)");
  const Status s = LearnIdf(input, options, learn, table, stats);
  progress.Done();
  SIMDEX_RETURN_IF_ERROR(s);
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, ", %.2f s", progress.Seconds());
  *summary = DescribeLearnedIdf(*stats, **table) + seconds;
  return Status::OK();
}

}  // namespace simdex::tools
