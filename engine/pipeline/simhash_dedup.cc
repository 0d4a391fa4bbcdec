// `simdex dedup --method simhash` (engine/pipeline/simhash_dedup.h).
#include "engine/pipeline/simhash_dedup.h"

#include <utility>

#include "base/timing.h"
#include "engine/io/input_stream.h"
#include "engine/pipeline/batch_pipeline.h"
#include "engine/pipeline/idf_pass.h"
#include "simdex/fingerprint_file.h"
#include "simdex/profile.h"

namespace simdex::pipeline {
namespace {

// Fingerprint-file entries read between progress reports.
constexpr uint64_t kFingerprintsPerTick = uint64_t{1} << 14;

// The de-duplicator within memory_bytes, with the indexes to check against
// (each index's profile recorded in *profiles first).
Status CreateDeduplicator(const SimHashDedupArgs& args, size_t memory_bytes, ProfileCheck* profiles,
                          std::unique_ptr<Deduplicator>* out) {
  DedupOptions options = args.dedup;
  options.memory_bytes = memory_bytes;
  SIMDEX_RETURN_IF_ERROR(Deduplicator::Create(options, out));
  for (size_t i = 0; i < args.against.size(); ++i) {
    SIMDEX_RETURN_IF_ERROR(profiles->Add(AgainstName(i), args.against[i]->profile()));
    SIMDEX_RETURN_IF_ERROR((*out)->AddIndex(args.against[i]));
  }
  return Status::OK();
}

// After the reading: the self-join, the second stage, the figures.
// documents: null for fingerprint files.
Status Finish(const SimHashDedupArgs& args, const DocumentSource* documents, const SecondStageDocuments& texts,
              BatchProgress* progress, DedupOutcomes* outcomes, SimHashDedupState* state) {
  Deduplicator& dedup = *state->dedup;
  const uint64_t n = dedup.size();
  progress->Update("joining " + std::to_string(n) + (n == 1 ? " document" : " documents"));
  SIMDEX_RETURN_IF_ERROR(dedup.Finish());
  outcomes->dedup = &dedup;
  SimHashDedupStats& stats = state->stats;
  if (args.second.active()) {
    progress->Update("confirming pairs");
    SecondStageArgs stage = args.second;  // the shingles within the bound, free after the join
    stage.memory_bytes = state->memory_bytes;
    stage.tmpdir = SpillDirectory(args.dedup.tmpdir);
    stage.threads = args.dedup.threads;
    SIMDEX_RETURN_IF_ERROR(
        RunSecondStage(stage, *documents, args.k, texts, &dedup, outcomes, &state->accepted, &stats.confirm));
  }
  stats.join = dedup.stats();
  if (outcomes->replaced.empty()) {
    stats.duplicates = stats.join.duplicates;  // the de-duplicator's results, counted as it made them
  } else {
    for (uint64_t o = 0; o < outcomes->size(); ++o) stats.duplicates += outcomes->Result(o).duplicate;
  }
  stats.k = args.k;
  stats.k_short = args.second.k_short < 0 ? args.k : args.second.k_short;
  stats.join_k = args.dedup.k < 0 ? args.dedup.scheme.k() : args.dedup.k;
  stats.against_k = args.dedup.against_k < 0 ? stats.join_k : args.dedup.against_k;
  stats.scheme = args.dedup.scheme.Name();
  return Status::OK();
}

}  // namespace

std::string AgainstName(size_t i) { return "index " + std::to_string(i + 1) + " to check against"; }

Status RunSimHashDedup(const SimHashDedupArgs& args, DocumentSource* documents, BatchProgress* progress,
                       DedupBatch* batch, DedupOutcomes* outcomes, SimHashDedupState* state) {
  FingerprintOptions features = args.features;
  state->memory_bytes = args.dedup.memory_bytes;
  if (args.learn_idf) {
    const base::Clock::time_point start = base::Clock::now();
    std::unique_ptr<DocumentSource> first_pass = documents->Reopen();
    SIMDEX_RETURN_IF_ERROR(
        LearnIdf(first_pass.get(), features, args.learn, progress, &state->learned_idf, &state->stats.idf));
    state->stats.seconds_idf = base::Seconds(start);
    state->stats.idf_table_bytes = IdfTableBytes(*state->learned_idf);
    state->memory_bytes -= state->stats.idf_table_bytes;  // at most half of it (IdfLearner)
    features.idf = state->learned_idf;
  }
  // The indexes' fingerprints and the batch's must be of one profile.
  ProfileCheck profiles;
  SIMDEX_RETURN_IF_ERROR(CreateDeduplicator(args, state->memory_bytes, &profiles, &state->dedup));
  std::unique_ptr<Fingerprinter> prototype;
  SIMDEX_RETURN_IF_ERROR(Fingerprinter::Create(features, &prototype));
  SIMDEX_RETURN_IF_ERROR(profiles.Add("the batch's text options", prototype->profile()));

  Deduplicator& dedup = *state->dedup;
  const bool second = args.second.active();
  SecondStageDocuments texts;  // with the second stage
  const BatchSource source = [documents](DocumentBatch* b, bool* eof) { return documents->Fill(b, eof); };
  const BatchSink sink = [&](const DocumentBatch& b) -> Status {
    for (size_t i = 0; i < b.size; ++i) {
      const Document& doc = b.docs[i];
      const FingerprintResult& r = b.results[i];
      const double score = r.empty() ? 0 : KeepScore(args.keep, doc);
      SIMDEX_RETURN_IF_ERROR(r.empty() ? dedup.AddEmpty() : dedup.Add(r.fingerprint, score));
      if (second) texts.Add(r, doc.text, score);
      batch->Add(doc.id, doc.id_string, doc.line, r.empty(), EmptyReasonName(r.reason));
    }
    return Status::OK();
  };
  const Tick tick = [&] { progress->Update(batch->ids.size(), documents->bytes_read()); };
  const base::Clock::time_point start = base::Clock::now();
  SIMDEX_RETURN_IF_ERROR(RunWorkerPipeline(args.dedup.threads, source, FingerprintWorkers(*prototype), sink, tick));
  state->stats.seconds_read = base::Seconds(start);
  batch->SetInputs(*documents);
  return Finish(args, documents, texts, progress, outcomes, state);
}

Status RunSimHashDedupOfFingerprints(const SimHashDedupArgs& args, const std::vector<std::string>& paths,
                                     bool skip_bad, BatchProgress* progress, DedupBatch* batch,
                                     DedupOutcomes* outcomes, SimHashDedupState* state) {
  state->memory_bytes = args.dedup.memory_bytes;
  ProfileCheck profiles;
  SIMDEX_RETURN_IF_ERROR(CreateDeduplicator(args, state->memory_bytes, &profiles, &state->dedup));
  Deduplicator& dedup = *state->dedup;
  std::vector<std::string> names;
  std::vector<uint64_t> documents;  // per file
  const base::Clock::time_point start = base::Clock::now();
  for (const std::string& path : paths) {
    names.push_back(io::DisplayName(path));
    documents.push_back(0);
    FingerprintFileReaderOptions options;
    options.skip_bad = skip_bad;
    std::unique_ptr<FingerprintFileReader> reader;
    SIMDEX_RETURN_IF_ERROR(FingerprintFileReader::Open(path, options, &reader));
    SIMDEX_RETURN_IF_ERROR(profiles.Add(reader->name(), reader->profile()));
    FingerprintEntry entry;
    for (bool eof = false;;) {
      SIMDEX_RETURN_IF_ERROR(reader->Next(&entry, &eof));
      if (eof) break;
      SIMDEX_RETURN_IF_ERROR(entry.empty ? dedup.AddEmpty() : dedup.Add(entry.fingerprint));
      batch->Add(entry.id, entry.id_string, entry.line, entry.empty, entry.empty_reason);
      ++documents.back();
      if (batch->ids.size() % kFingerprintsPerTick == 0) progress->Update(batch->ids.size(), reader->stats().bytes);
    }
    batch->skipped += reader->stats().skipped;
  }
  state->stats.seconds_read = base::Seconds(start);
  batch->places.SetInputs(std::move(names), std::move(documents));
  return Finish(args, nullptr, SecondStageDocuments(), progress, outcomes, state);
}

}  // namespace simdex::pipeline
