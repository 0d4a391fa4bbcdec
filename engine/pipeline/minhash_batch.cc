// The public MinHash de-duplication of include/simdex/batch.h, over the
// pipeline's RunMinHashDedup (engine/pipeline/minhash_dedup.h): the
// options translated once, the documents from files or from memory, and
// the result (engine/pipeline/batch_result.h) with its records and pairs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "engine/pipeline/batch_result.h"
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
  a.signing = o.Signing();
  a.bands = o.bands;
  if (a.bands.bands == 0 && a.bands.rows == 0 && o.exact) a.bands = ExactCandidateBands(o.threshold, o.num_perm);
  a.signature_bits = o.signature_bits;
  a.estimate_filter = o.estimate_filter != 0;
  a.estimate_threshold = o.estimate_filter >= 0 ? o.estimate_filter
                         : o.exact              ? ExactEstimateFilter(o.threshold, o.num_perm)
                                                : DefaultEstimateFilter(o.threshold, o.num_perm);
  a.memory_bytes = o.memory_bytes;
  a.tmpdir = SpillDirectory(o.tmpdir);
  a.against = o.against;
  if (o.exact) a.against_min_estimate = DefaultEstimateFilter(o.threshold, o.num_perm);
  // Against an index of sketches a match passes T by its sketch estimate
  // (docs/minhash.md, "Against a stored index"); --approximate keeps the
  // signature's rule.
  a.against_min_sketch_estimate = o.threshold;
  a.against_approximate = !o.exact;
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

struct MinHashDedupResult::State {
  std::unique_ptr<pipeline::SortedPairs> pairs;
  MinHashDedupStats stats;
};

MinHashDedupResult::MinHashDedupResult(std::unique_ptr<Rep> rep, std::unique_ptr<State> state)
    : BatchDedupResult(std::move(rep)), state_(std::move(state)) {}
MinHashDedupResult::~MinHashDedupResult() = default;

// Runs a batch to its end, the documents from files or (files null) from
// memory.
class MinHashDedupRunner {
 public:
  static Status Run(const MinHashDedupOptions& o, const DocumentFiles* files, std::span<const std::string_view> texts,
                    std::span<const double> scores, BatchProgress* progress, std::unique_ptr<MinHashDedupResult>* out) {
    std::unique_ptr<BatchDedupResult::Rep> rep;
    SIMDEX_RETURN_IF_ERROR(BatchDedupResult::Rep::Of(files, texts, scores, &rep));
    SIMDEX_RETURN_IF_ERROR(o.Validate());
    NoProgress quiet;
    const pipeline::MinHashDedupArgs args = ArgsOf(o);
    auto state = std::make_unique<MinHashDedupResult::State>();
    SIMDEX_RETURN_IF_ERROR(pipeline::RunMinHashDedup(args, rep->documents.get(), o.threads, o.keep, ConfirmSpecOf(o),
                                                     o.keep_pairs, progress != nullptr ? progress : &quiet,
                                                     &rep->batch, &rep->outcomes, &state->pairs, &state->stats));
    state->stats.estimate_filter = args.estimate_filter ? args.estimate_threshold : 0;
    MinHashDedupResult::State* s = state.get();
    if (s->pairs != nullptr) {
      rep->pairs = [s](const pipeline::PairVisitor& fn) { return s->pairs->ForEach(fn); };
      rep->pairs_read = [s] {
        s->stats.bytes_spilled += s->pairs->bytes_spilled();
        s->pairs.reset();
      };
    }
    SIMDEX_RETURN_IF_ERROR(rep->Finish(o, args.memory_bytes, args.tmpdir));
    out->reset(new MinHashDedupResult(std::move(rep), std::move(state)));
    return Status::OK();
  }
};

Status DeduplicateByMinHash(const DocumentFiles& files, const MinHashDedupOptions& options, BatchProgress* progress,
                            std::unique_ptr<MinHashDedupResult>* out) {
  return MinHashDedupRunner::Run(options, &files, {}, {}, progress, out);
}

Status DeduplicateByMinHash(std::span<const std::string_view> texts, std::span<const double> scores,
                            const MinHashDedupOptions& options, BatchProgress* progress,
                            std::unique_ptr<MinHashDedupResult>* out) {
  return MinHashDedupRunner::Run(options, nullptr, texts, scores, progress, out);
}

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

const MinHashDedupStats& MinHashDedupResult::stats() const { return state_->stats; }

Status MinHashDedupResult::ForEachPair(const std::function<Status(const MinHashDedupPair&)>& fn) {
  return rep_->ReadPairs([&fn](const pipeline::AcceptedPair& p) {
    MinHashDedupPair pair;
    pair.a = p.a;
    pair.b = p.b;
    pair.estimate = static_cast<float>(p.estimate);
    pair.similarity = static_cast<float>(p.similarity);
    return fn(pair);
  });
}

}  // namespace simdex
