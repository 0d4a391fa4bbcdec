// The public SimHash de-duplication of include/simdex/batch.h, over the
// pipeline's RunSimHashDedup (engine/pipeline/simhash_dedup.h): the
// options resolved once (the command's defaults of k and the scheme), the
// documents from files, from memory or from fingerprint files, and the
// result (engine/pipeline/batch_result.h) with its records and pairs.
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "engine/pipeline/batch_result.h"
#include "engine/pipeline/idf_pass.h"
#include "engine/pipeline/simhash_dedup.h"
#include "engine/pipeline/sorted_pairs.h"
#include "simdex/batch.h"
#include "simdex/confirm.h"
#include "simdex/profile.h"

namespace simdex {

namespace {

// The least memory bound of the idf pass (IdfLearner's: two sorter minima).
constexpr size_t kLearnIdfMinMemoryBytes = size_t{128} << 10;

// The pipeline's arguments of the options: k and the scheme as the
// command resolves them. InvalidArgument for a confirm spec or a scheme
// that cannot be parsed.
Status ArgsOf(const SimHashDedupOptions& o, pipeline::SimHashDedupArgs* a) {
  ConfirmOptions confirm;
  if (!o.confirm.empty()) SIMDEX_RETURN_IF_ERROR(ParseConfirmSpec(o.confirm, &confirm));
  // Confirmed by the Jaccard truth's own shingles with neither k nor a
  // scheme: the candidates come from within kSimHashExactConfirmK bits,
  // where the k = 3 of the unconfirmed pairs would lose most of the recall
  // (docs/generated/quality.md, "Defaults, chosen from these figures").
  const bool exact_confirm =
      !o.confirm.empty() && confirm.measure == ConfirmMeasure::kJaccard && confirm.unit == ShingleUnit::kTruthShingles;
  const int k_given = o.k < 0 && o.scheme.empty() && exact_confirm ? kSimHashExactConfirmK : o.k;
  DedupOptions& d = a->dedup;
  const Scheme fallback = Scheme::Default();  // t10, k 3: without k and a scheme
  d.scheme = fallback;
  if (o.scheme.empty() && std::max(k_given, o.k_short) > fallback.k()) {
    SIMDEX_RETURN_IF_ERROR(Scheme::Covering(std::max(k_given, o.k_short), &d.scheme));
  } else if (!o.scheme.empty()) {
    SIMDEX_RETURN_IF_ERROR(Scheme::Parse(o.scheme, &d.scheme));
  }
  a->k = k_given >= 0 ? k_given : o.scheme.empty() ? fallback.k() : d.scheme.k();
  a->second.confirm = o.confirm;
  a->second.k_short = o.k_short;
  a->second.short_length = o.short_length;
  // The self-join runs at the larger k of the second stage's pairs. Index
  // matches are never confirmed (an index holds no texts): they count
  // within k as given, else the named scheme's k, else 3.
  d.k = a->second.active() ? std::max(a->k, o.k_short) : o.k;
  d.against_k = o.k >= 0 ? o.k : o.scheme.empty() ? fallback.k() : d.scheme.k();
  d.memory_bytes = o.memory_bytes;
  d.tmpdir = o.tmpdir;
  d.threads = o.threads;
  d.keep_pairs = o.keep_pairs || a->second.active();
  d.against_strategy = o.against_strategy;
  a->features = o.features;
  a->learn_idf = o.learn_idf;
  a->learn.memory_bytes = o.memory_bytes;
  a->learn.tmpdir = SpillDirectory(o.tmpdir);
  a->learn.threads = o.threads;
  a->learn.max_idf = o.max_idf;
  a->keep = o.keep;
  a->against = o.against;
  return Status::OK();
}

// The features' checks: the learner's with learn_idf, else the
// fingerprinter's.
Status CheckFeatures(const SimHashDedupOptions& o) {
  FingerprintOptions features = o.features;
  if (o.learn_idf) {
    if (features.compat != Compat::kNone) {
      return Status::InvalidArgument("learn_idf: the python-simhash profile has no idf weighting");
    }
    if (features.idf != nullptr) {
      return Status::InvalidArgument("learn_idf learns the idf table: features.idf must be null");
    }
    if (features.weighting != Weighting::kTfIdf && features.weighting != Weighting::kLogTfIdf) {
      return Status::InvalidArgument("learn_idf weighs features by tf-idf or log-tf-idf: set features.weighting");
    }
    if (!(o.max_idf > 0)) return Status::InvalidArgument("max_idf must be above 0");
    if (o.memory_bytes < kLearnIdfMinMemoryBytes) {
      return Status::InvalidArgument("memory_bytes " + std::to_string(o.memory_bytes) +
                                     " is below learn_idf's minimum of 128 KiB");
    }
    features.weighting = Weighting::kTermFrequency;  // what the first pass counts
  } else if (o.max_idf != std::numeric_limits<double>::infinity()) {
    return Status::InvalidArgument("max_idf caps the idf that learn_idf learns");
  }
  std::string profile;
  return FingerprintProfile(features, &profile);
}

}  // namespace

Status SimHashDedupOptions::Validate() const {
  if (threads < 1) return Status::InvalidArgument("threads " + std::to_string(threads) + " is below 1");
  if (k < -1 || k > 64) return Status::InvalidArgument("k " + std::to_string(k) + " is not in -1..64");
  if (k_short < -1 || k_short > 64) {
    return Status::InvalidArgument("k_short " + std::to_string(k_short) + " is not in -1..64");
  }
  pipeline::SimHashDedupArgs args;
  SIMDEX_RETURN_IF_ERROR(ArgsOf(*this, &args));
  SIMDEX_RETURN_IF_ERROR(args.dedup.Validate());
  SIMDEX_RETURN_IF_ERROR(CheckFeatures(*this));
  ProfileCheck profiles;
  for (size_t i = 0; i < against.size(); ++i) {
    const Scheme& tables = against[i]->scheme();
    if (args.dedup.against_k > tables.k()) {
      return Status::InvalidArgument("k " + std::to_string(args.dedup.against_k) + " is larger than the index's scheme " +
                                     tables.Name() + " supports (" + std::to_string(tables.k()) + ")");
    }
    SIMDEX_RETURN_IF_ERROR(profiles.Add(pipeline::AgainstName(i), against[i]->profile()));
  }
  return Status::OK();
}

struct SimHashDedupResult::State : pipeline::SimHashDedupState {};

SimHashDedupResult::SimHashDedupResult(std::unique_ptr<Rep> rep, std::unique_ptr<State> state)
    : BatchDedupResult(std::move(rep)), state_(std::move(state)) {}
SimHashDedupResult::~SimHashDedupResult() = default;

// Runs a batch to its end: documents from files or from memory, or
// fingerprint files.
class SimHashDedupRunner {
 public:
  // The documents of files or, files null, the texts; or, fingerprints not
  // null, the fingerprint files.
  static Status Run(const SimHashDedupOptions& o, const DocumentFiles* files, std::span<const std::string_view> texts,
                    std::span<const double> scores, const FingerprintFiles* fingerprints, BatchProgress* progress,
                    std::unique_ptr<SimHashDedupResult>* out) {
    std::unique_ptr<BatchDedupResult::Rep> rep;
    if (fingerprints != nullptr) {
      const char* needs_texts = o.learn_idf                  ? "learn_idf"
                                : !o.confirm.empty()         ? "confirm"
                                : o.k_short >= 0             ? "k_short"
                                : o.keep != KeepRule::kFirst ? "keep (but kFirst)"
                                                             : nullptr;
      if (needs_texts != nullptr) {
        return Status::InvalidArgument(std::string(needs_texts) + " needs documents, not fingerprint files");
      }
      rep = std::make_unique<BatchDedupResult::Rep>();
    } else {
      SIMDEX_RETURN_IF_ERROR(BatchDedupResult::Rep::Of(files, texts, scores, &rep));
      if (files != nullptr && o.learn_idf) SIMDEX_RETURN_IF_ERROR(pipeline::CheckTwoPasses(rep->input, "learn_idf"));
    }
    SIMDEX_RETURN_IF_ERROR(o.Validate());
    pipeline::SimHashDedupArgs args;
    SIMDEX_RETURN_IF_ERROR(ArgsOf(o, &args));
    if (!o.confirm.empty() && rep->documents != nullptr && !rep->documents->CanReadAgain()) {
      return Status::InvalidArgument("confirm reads the texts again: give files, not standard input");
    }
    NoProgress quiet;
    if (progress == nullptr) progress = &quiet;
    auto state = std::make_unique<SimHashDedupResult::State>();
    SIMDEX_RETURN_IF_ERROR(
        fingerprints != nullptr
            ? pipeline::RunSimHashDedupOfFingerprints(args, fingerprints->paths, fingerprints->skip_bad, progress,
                                                      &rep->batch, &rep->outcomes, state.get())
            : pipeline::RunSimHashDedup(args, rep->documents.get(), progress, &rep->batch, &rep->outcomes,
                                        state.get()));
    SimHashDedupResult::State* s = state.get();
    if (!o.keep_pairs) {
      std::vector<pipeline::AcceptedPair>().swap(s->accepted);
    } else if (args.second.active()) {
      rep->pairs = pipeline::PairsOf(s->accepted);
      rep->pairs_read = [s] { std::vector<pipeline::AcceptedPair>().swap(s->accepted); };
    } else {
      rep->pairs = pipeline::PairsOf(s->dedup.get());
      rep->pairs_read = [s] { s->stats.join = s->dedup->stats(); };
    }
    SIMDEX_RETURN_IF_ERROR(rep->Finish(o, state->memory_bytes, SpillDirectory(o.tmpdir)));
    out->reset(new SimHashDedupResult(std::move(rep), std::move(state)));
    return Status::OK();
  }
};

Status DeduplicateBySimHash(const DocumentFiles& files, const SimHashDedupOptions& options, BatchProgress* progress,
                            std::unique_ptr<SimHashDedupResult>* out) {
  return SimHashDedupRunner::Run(options, &files, {}, {}, nullptr, progress, out);
}

Status DeduplicateBySimHash(std::span<const std::string_view> texts, std::span<const double> scores,
                            const SimHashDedupOptions& options, BatchProgress* progress,
                            std::unique_ptr<SimHashDedupResult>* out) {
  return SimHashDedupRunner::Run(options, nullptr, texts, scores, nullptr, progress, out);
}

Status DeduplicateBySimHash(const FingerprintFiles& files, const SimHashDedupOptions& options,
                            BatchProgress* progress, std::unique_ptr<SimHashDedupResult>* out) {
  return SimHashDedupRunner::Run(options, nullptr, {}, {}, &files, progress, out);
}

SimHashDedupRecord SimHashDedupResult::Record(uint64_t o) const { return rep_->outcomes.Result(o); }
const SimHashDedupStats& SimHashDedupResult::stats() const { return state_->stats; }
std::shared_ptr<const IdfTable> SimHashDedupResult::learned_idf() const { return state_->learned_idf; }

Status SimHashDedupResult::ForEachPair(const std::function<Status(const SimHashDedupPair&)>& fn) {
  return rep_->ReadPairs([&fn](const pipeline::AcceptedPair& p) {
    SimHashDedupPair pair;
    pair.a = p.a;
    pair.b = p.b;
    pair.distance = p.distance;
    pair.similarity = p.similarity < 0 ? -1 : pipeline::AsPrinted(p.similarity);
    return fn(pair);
  });
}

}  // namespace simdex
