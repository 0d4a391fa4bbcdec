// The public MinHash de-duplication of include/simdex/batch.h, over the
// pipeline's RunMinHashDedup (engine/pipeline/minhash_dedup.h): the
// options translated once, the documents from files or from memory, and
// the result with the command's records and files.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/io/json_text.h"
#include "engine/pipeline/dedup_records.h"
#include "engine/pipeline/document_files.h"
#include "engine/pipeline/document_source.h"
#include "engine/pipeline/duplicate_ids.h"
#include "engine/pipeline/idf_pass.h"
#include "engine/pipeline/minhash_dedup.h"
#include "engine/pipeline/sorted_pairs.h"
#include "simdex/batch.h"
#include "simdex/confirm.h"

namespace simdex {

namespace {

// The pipeline's arguments of the public options.
pipeline::MinHashDedupArgs ArgsOf(const MinHashDedupOptions& o) {
  pipeline::MinHashDedupArgs a;
  a.threshold = o.threshold;
  a.num_perm = o.num_perm;
  a.seed = o.seed;
  a.shingle_words = o.Signing().shingles.words;
  a.bands = o.bands;
  if (a.bands.bands == 0 && a.bands.rows == 0 && o.exact) a.bands = ExactCandidateBands(o.threshold, o.num_perm);
  a.signature_bits = o.signature_bits;
  a.estimate_filter = o.estimate_filter != 0;
  a.estimate_threshold = o.estimate_filter >= 0 ? o.estimate_filter
                         : o.exact              ? ExactEstimateFilter(o.threshold, o.num_perm)
                                                : DefaultEstimateFilter(o.threshold, o.num_perm);
  a.memory_bytes = o.memory_bytes;
  a.tmpdir = pipeline::SpillDirectory(o.tmpdir);
  a.against = o.against;
  if (o.exact) a.against_min_estimate = DefaultEstimateFilter(o.threshold, o.num_perm);
  return a;
}

// The spec the pairs kept are confirmed by ("" for none).
// The exact check's shingles are the signatures'; so are a jaccard-shingles
// spec's when it names no word definition.
std::string ConfirmSpecOf(const MinHashDedupOptions& o) {
  if (!o.exact && o.confirm.empty()) return "";
  char threshold[32];
  std::snprintf(threshold, sizeof threshold, "%.17g", o.threshold);
  std::string spec = o.confirm.empty() ? std::string("jaccard-shingles:") + threshold : o.confirm;
  ConfirmOptions parsed;
  if (spec.find('/') != std::string::npos || !ParseConfirmSpec(spec, &parsed).ok() ||
      parsed.unit != ShingleUnit::kTruthShingles || parsed.measure != ConfirmMeasure::kJaccard) {
    return spec;
  }
  const size_t colon = spec.rfind(':');
  return spec.substr(0, colon) + "/" + ShingleWordsName(o.Signing().shingles.words) + spec.substr(colon);
}

pipeline::DocumentInputArgs InputArgsOf(const DocumentFiles& files) {
  pipeline::DocumentInputArgs a;
  a.inputs = files.paths;
  for (DocumentFormat f : files.formats) {
    a.formats.push_back(f == DocumentFormat::kJsonl ? BatchFormat::kJsonl : BatchFormat::kLines);
  }
  a.id_field = files.id_field;
  a.text_fields = files.text_fields;
  a.id_mode = files.id_mode == IdMode::kOrdinal ? "ordinal" : "field";
  a.skip_bad = files.skip_bad;
  a.score_field = files.score_field;
  a.title_field = files.title_field;
  return a;
}

}  // namespace

LshBands ExactCandidateBands(double threshold, int num_perm) {
  return DefaultLshBands(std::max(0.05, threshold - 0.1), num_perm);
}

double ExactEstimateFilter(double threshold, int num_perm) {
  return std::max(0.0, threshold - 3 * std::sqrt(threshold * (1 - threshold) / num_perm));
}

MinHashOptions MinHashDedupOptions::Signing() const {
  MinHashOptions signing;
  signing.num_perm = num_perm;
  signing.seed = seed;
  signing.shingles.words = shingle_words.has_value() ? *shingle_words
                           : against.empty()          ? ShingleOptions{}.words
                                                      : against.front()->minhash_options().shingles.words;
  return signing;
}

Status MinHashDedupOptions::Validate() const {
  if (threads < 1) return Status::InvalidArgument("threads " + std::to_string(threads) + " is below 1");
  if (!confirm.empty()) {
    ConfirmOptions parsed;
    SIMDEX_RETURN_IF_ERROR(ParseConfirmSpec(confirm, &parsed));
  }
  for (const LshIndexReader* index : against) {
    const MinHashOptions signing = Signing();
    if (index->profile() != MinHashProfile(signing)) {
      return Status::InvalidArgument("an index to check against holds signatures of '" + index->profile() +
                                     "'; the batch is signed as '" + MinHashProfile(signing) + "'");
    }
  }
  return pipeline::CheckMinHashDedupArgs(ArgsOf(*this));
}

struct MinHashDedupResult::Rep {
  MinHashDedupOptions options;
  pipeline::DocumentInputArgs input;  // files: what `documents` reads again
  std::unique_ptr<pipeline::DocumentSource> documents;
  pipeline::DedupBatch batch;
  pipeline::DedupOutcomes outcomes;
  std::unique_ptr<pipeline::SortedPairs> pairs;
  MinHashDedupStats stats;
};

MinHashDedupResult::MinHashDedupResult(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
MinHashDedupResult::~MinHashDedupResult() = default;

// Runs a batch to its end, the documents from files or from memory.
class MinHashDedupRunner {
 public:
  static Status RunFiles(const DocumentFiles& files, const MinHashDedupOptions& options, BatchProgress* progress,
                         std::unique_ptr<MinHashDedupResult>* out) {
    auto rep = std::make_unique<MinHashDedupResult::Rep>();
    rep->options = options;
    rep->input = InputArgsOf(files);
    rep->documents = std::make_unique<pipeline::DocumentInputs>(rep->input);
    return Run(std::move(rep), progress, out);
  }

  static Status RunTexts(std::span<const std::string_view> texts, std::span<const double> scores,
                         const MinHashDedupOptions& options, BatchProgress* progress,
                         std::unique_ptr<MinHashDedupResult>* out) {
    auto rep = std::make_unique<MinHashDedupResult::Rep>();
    rep->options = options;
    rep->documents = std::make_unique<pipeline::TextDocuments>(texts, scores);
    return Run(std::move(rep), progress, out);
  }

 private:
  static Status Run(std::unique_ptr<MinHashDedupResult::Rep> rep, BatchProgress* progress,
                    std::unique_ptr<MinHashDedupResult>* out) {
    const MinHashDedupOptions& o = rep->options;
    SIMDEX_RETURN_IF_ERROR(o.Validate());
    NoProgress quiet;
    const pipeline::MinHashDedupArgs args = ArgsOf(o);
    SIMDEX_RETURN_IF_ERROR(pipeline::RunMinHashDedup(args, rep->documents.get(), o.threads, o.keep, ConfirmSpecOf(o),
                                                     o.keep_pairs, progress != nullptr ? progress : &quiet,
                                                     &rep->batch, &rep->outcomes, &rep->pairs, &rep->stats));
    rep->stats.estimate_filter = args.estimate_filter ? args.estimate_threshold : 0;
    std::unique_ptr<MinHashDedupResult> result(new MinHashDedupResult(std::move(rep)));
    if (!o.allow_duplicate_ids) {
      SIMDEX_RETURN_IF_ERROR(result->CheckIdsAreUnique("allow_duplicate_ids keeps every document"));
    }
    *out = std::move(result);
    return Status::OK();
  }
};

Status DeduplicateByMinHash(const DocumentFiles& files, const MinHashDedupOptions& options, BatchProgress* progress,
                            std::unique_ptr<MinHashDedupResult>* out) {
  return MinHashDedupRunner::RunFiles(files, options, progress, out);
}

Status DeduplicateByMinHash(std::span<const std::string_view> texts, std::span<const double> scores,
                            const MinHashDedupOptions& options, BatchProgress* progress,
                            std::unique_ptr<MinHashDedupResult>* out) {
  if (!scores.empty() && scores.size() != texts.size()) {
    return Status::InvalidArgument(std::to_string(scores.size()) + " scores for " + std::to_string(texts.size()) +
                                   " texts");
  }
  return MinHashDedupRunner::RunTexts(texts, scores, options, progress, out);
}

uint64_t MinHashDedupResult::size() const { return rep_->outcomes.size(); }

MinHashDedupRecord MinHashDedupResult::Record(uint64_t o) const {
  const pipeline::DedupOutcomes& d = rep_->outcomes;
  const DedupResult r = d.Result(o);
  MinHashDedupRecord out;
  out.representative = r.representative;
  out.duplicate = r.duplicate;
  out.empty = r.empty;
  out.estimate = d.estimates.empty() ? 0 : d.estimates[o];
  out.against_index = r.against_index;
  out.against_id = r.against_id;
  out.against_estimate = r.against_index >= 0 && !d.against_estimates.empty() ? d.against_estimates[o] : 0;
  return out;
}

bool MinHashDedupResult::IdIsString(uint64_t o) const { return rep_->batch.ids.IsString(o); }
uint64_t MinHashDedupResult::IdNumber(uint64_t o) const { return rep_->batch.ids.Number(o); }
std::string_view MinHashDedupResult::IdString(uint64_t o) const { return rep_->batch.ids.String(o); }
void MinHashDedupResult::AppendIdJson(uint64_t o, std::string* out) const { rep_->batch.ids.AppendJson(o, out); }
std::string MinHashDedupResult::Place(uint64_t o) const { return rep_->batch.places.Describe(o); }
const MinHashDedupStats& MinHashDedupResult::stats() const { return rep_->stats; }
uint64_t MinHashDedupResult::skipped() const { return rep_->batch.skipped; }
const std::vector<std::string>& MinHashDedupResult::first_errors() const { return rep_->batch.first_errors; }

Status MinHashDedupResult::CheckIdsAreUnique(std::string_view how_to_allow) const {
  const pipeline::MinHashDedupArgs args = ArgsOf(rep_->options);
  return pipeline::CheckIdsAreUnique(rep_->batch.ids, rep_->batch.places, args.memory_bytes, args.tmpdir,
                                     rep_->options.threads, how_to_allow);
}

Status MinHashDedupResult::ForEachPair(const std::function<Status(const MinHashDedupPair&)>& fn) {
  if (rep_->pairs == nullptr) {
    return Status::InvalidArgument("the result holds no pairs: run it with keep_pairs, and read them once");
  }
  Status s = rep_->pairs->ForEach([&fn](const pipeline::AcceptedPair& p) {
    MinHashDedupPair pair;
    pair.a = p.a;
    pair.b = p.b;
    pair.estimate = static_cast<float>(p.estimate);
    pair.similarity = static_cast<float>(p.similarity);
    return fn(pair);
  });
  rep_->stats.bytes_spilled += rep_->pairs->bytes_spilled();
  rep_->pairs.reset();
  return s;
}

Status MinHashDedupResult::WriteRecords(const std::string& path, const std::vector<std::string>& against_names) const {
  const std::vector<const LshIndexReader*>& against = rep_->options.against;
  if (against_names.size() != against.size()) {
    return Status::InvalidArgument(std::to_string(against_names.size()) + " names for " +
                                   std::to_string(against.size()) + " indexes checked against");
  }
  auto append_id = [&against](int index, uint64_t id, std::string* out) {
    const LshIndexReader& reader = *against[static_cast<size_t>(index)];
    if (reader.has_string_ids()) io::AppendJsonString(out, reader.IdString(id));
    else out->append(std::to_string(id));
  };
  return pipeline::WriteDedupResults(path, against_names, rep_->outcomes, rep_->batch, append_id);
}

Status MinHashDedupResult::WritePairs(const std::string& path) {
  if (rep_->pairs == nullptr) {
    return Status::InvalidArgument("the result holds no pairs: run it with keep_pairs, and read them once");
  }
  Status s = pipeline::WriteDedupPairs(
      path, [this](const pipeline::PairVisitor& fn) { return rep_->pairs->ForEach(fn); }, rep_->documents.get(),
      rep_->outcomes, rep_->batch);
  rep_->stats.bytes_spilled += rep_->pairs->bytes_spilled();
  rep_->pairs.reset();
  return s;
}

Status MinHashDedupResult::WriteKeepList(const std::string& path) const {
  return pipeline::WriteKeepList(path, rep_->outcomes, rep_->batch);
}

Status MinHashDedupResult::WriteClusters(const std::string& path, int snippet_words) const {
  return pipeline::WriteClusters(path, rep_->documents.get(), snippet_words, rep_->outcomes, rep_->batch);
}

}  // namespace simdex
