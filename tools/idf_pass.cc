#include "tools/idf_pass.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "engine/io/input_stream.h"
#include "tools/pipeline_names.h"
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
  char text[320];
  char capped[96] = "";
  if (s.capped > 0) {
    std::snprintf(capped, sizeof capped, ", %llu of them below the cap of %g in the table",
                  static_cast<unsigned long long>(s.kept), table.default_idf());
  }
  std::snprintf(text, sizeof text,
                "idf learned from %llu documents: %llu distinct features, %llu held by two or more documents%s "
                "(%.1f MB), %llu spilled runs",
                static_cast<unsigned long long>(s.documents), static_cast<unsigned long long>(s.features),
                static_cast<unsigned long long>(s.kept + s.capped), capped,
                static_cast<double>(IdfTableBytes(table)) / 1e6, static_cast<unsigned long long>(s.runs_spilled));
  return text;
}

Status LearnIdf(const DocumentInputArgs& input, const FingerprintOptions& options, const IdfLearnerOptions& learn,
                std::shared_ptr<const IdfTable>* table, IdfLearnerStats* stats) {
  std::unique_ptr<IdfLearner> learner;
  SIMDEX_RETURN_IF_ERROR(IdfLearner::Create(options, learn, &learner));
  // The fingerprint pipeline's reader and workers, the workers finding each
  // document's features; the learner counts them in input order.
  DocumentInputs inputs(input);
  const BatchSource source = [&](DocumentBatch* b, bool* eof) { return inputs.Fill(b, eof); };
  const BatchWork features = [](Fingerprinter& f, DocumentBatch* b) {
    b->feature_hashes.resize(std::max(b->feature_hashes.size(), b->size));
    for (size_t i = 0; i < b->size; ++i) f.FeatureHashes(b->docs[i].text, &b->feature_hashes[i]);
  };
  const BatchSink count = [&](const DocumentBatch& b) {
    for (size_t i = 0; i < b.size; ++i) SIMDEX_RETURN_IF_ERROR(learner->AddFeatureHashes(b.feature_hashes[i]));
    return Status::OK();
  };
  SIMDEX_RETURN_IF_ERROR(RunBatchPipeline(learner->features(), learn.threads, source, features, count, [] {}));
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
