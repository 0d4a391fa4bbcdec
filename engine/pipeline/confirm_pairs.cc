#include "engine/pipeline/confirm_pairs.h"

#include <algorithm>
#include <bit>

#include "base/timing.h"
#include "engine/confirm/shingle_set.h"
#include "engine/util/sparse_scores.h"
#include "engine/pipeline/shingle_store.h"
#include "simdex/document_reader.h"

namespace simdex::pipeline {

void SecondStageDocuments::Add(const FingerprintResult& r, std::string_view text, double score) {
  util::AppendScore(&scores, fingerprints.size(), score);
  fingerprints.push_back(r.empty() ? 0 : r.fingerprint);
  lengths.push_back(static_cast<uint32_t>(CodePointLength(text)));
}

PairSource PairsOf(const std::vector<AcceptedPair>& pairs) {
  return [&pairs](const PairVisitor& fn) {
    for (const AcceptedPair& p : pairs) SIMDEX_RETURN_IF_ERROR(fn(p));
    return Status::OK();
  };
}

namespace {

// Reads the documents of `source` again and adds the shingles of those
// marked in `named` (a bit per ordinal) to *store, in ordinal order: the
// reading on a thread of its own, the shingling on `threads` workers.
Status ShingleNamed(const DocumentSource& source, const std::vector<uint64_t>& named, const Confirmer& prototype,
                    int threads, ShingleStore* store) {
  std::unique_ptr<DocumentSource> again = source.Reopen();
  uint64_t ordinal = 0;
  const uint64_t end = named.size() * 64;
  auto is_named = [&named](uint64_t o) { return ((named[o / 64] >> (o % 64)) & 1) != 0; };
  // The named documents only, moved to the front of each batch.
  BatchSource fill = [&](DocumentBatch* batch, bool* eof) -> Status {
    DocumentBatch read;
    read.docs.swap(batch->docs);
    read.size = 0;
    batch->size = 0;
    bool done = false;
    while (batch->size == 0 && !done) {
      read.size = 0;
      SIMDEX_RETURN_IF_ERROR(again->Fill(&read, &done));
      for (size_t i = 0; i < read.size; ++i, ++ordinal) {
        if (ordinal < end && is_named(ordinal)) std::swap(read.docs[batch->size++], read.docs[i]);
      }
      done = done || ordinal >= end;
    }
    batch->docs.swap(read.docs);
    *eof = done;
    return Status::OK();
  };
  WorkerFactory make_worker = [&prototype]() -> WorkerWork {
    std::shared_ptr<Confirmer> confirmer = prototype.Clone();
    return [confirmer](DocumentBatch* b) {
      b->feature_hashes.resize(std::max(b->feature_hashes.size(), b->size));
      for (size_t i = 0; i < b->size; ++i) confirmer->Shingles(b->docs[i].text, &b->feature_hashes[i]);
    };
  };
  BatchSink sink = [store](const DocumentBatch& b) -> Status {
    for (size_t i = 0; i < b.size; ++i) SIMDEX_RETURN_IF_ERROR(store->Add(b.feature_hashes[i]));
    return Status::OK();
  };
  return RunWorkerPipeline(std::max(1, threads), fill, make_worker, sink, [] {});
}

}  // namespace

bool UsesKeptShingles(const std::string& spec, const ShingleOptions& shingles) {
  ConfirmOptions options;
  return !spec.empty() && ParseConfirmSpec(spec, &options).ok() && options.measure == ConfirmMeasure::kJaccard &&
         options.unit == ShingleUnit::kTruthShingles && SameShingles(confirm::TruthShingleOptions(options), shingles);
}

Status ConfirmPairs(const std::string& spec, const DocumentSource& source, size_t memory_bytes,
                    const std::string& tmpdir, int threads, const PairSource& candidates,
                    const PairVisitor& accept, ConfirmationStats* stats, const KeptShingles* kept) {
  if (spec.empty()) return candidates(accept);
  ConfirmOptions options;
  std::unique_ptr<Confirmer> confirmer;
  SIMDEX_RETURN_IF_ERROR(ParseConfirmSpec(spec, &options));
  SIMDEX_RETURN_IF_ERROR(Confirmer::Create(options, &confirmer));
  auto start = base::Clock::now();
  if (kept != nullptr && kept->kept() && UsesKeptShingles(spec, kept->options())) {
    stats->texts_read_again = 0;
    SIMDEX_RETURN_IF_ERROR(candidates([&](AcceptedPair p) {
      return confirm::JaccardReaches(kept->Get(p.a), kept->Get(p.b), options.threshold, &p.similarity) ? accept(p)
                                                                                                       : Status::OK();
    }));
    stats->seconds_confirm = base::Seconds(start);
    return Status::OK();
  }
  // The documents the pairs name, a bit each (a cluster of n documents
  // names n of them in n^2 / 2 pairs), and a count per 64 of those before:
  // a document's place among them is a popcount away.
  std::vector<uint64_t> named;
  SIMDEX_RETURN_IF_ERROR(candidates([&named](const AcceptedPair& p) {
    if (named.size() <= p.b / 64) named.resize(std::max<size_t>(p.b / 64 + 1, 2 * named.size()));
    named[p.a / 64] |= uint64_t{1} << (p.a % 64);
    named[p.b / 64] |= uint64_t{1} << (p.b % 64);
    return Status::OK();
  }));
  std::vector<uint32_t> before(named.size());
  std::vector<uint32_t> wanted;
  for (size_t w = 0; w < named.size(); ++w) {
    before[w] = static_cast<uint32_t>(wanted.size());
    for (uint64_t bits = named[w]; bits != 0; bits &= bits - 1) {
      wanted.push_back(static_cast<uint32_t>(w * 64 + static_cast<size_t>(std::countr_zero(bits))));
    }
  }
  stats->texts_read_again = wanted.size();
  if (wanted.empty()) return Status::OK();
  auto place_of = [&](uint32_t o) {
    return size_t{before[o / 64]} + static_cast<size_t>(std::popcount(named[o / 64] & ((uint64_t{1} << (o % 64)) - 1)));
  };
  // Jaccard: each text's shingles, made once on `threads` workers while
  // the texts are read again, and kept within the memory bound (spilled
  // past it); the edit distance needs the texts.
  const bool by_shingles = options.measure == ConfirmMeasure::kJaccard;
  ShingleStore shingles(memory_bytes, tmpdir);
  std::vector<std::string> texts(by_shingles ? 0 : wanted.size());
  if (by_shingles) {
    SIMDEX_RETURN_IF_ERROR(ShingleNamed(source, named, *confirmer, threads, &shingles));
    SIMDEX_RETURN_IF_ERROR(shingles.Finish());
  } else {
    SIMDEX_RETURN_IF_ERROR(source.ReadAgain(wanted, [&](size_t i, const Document& doc) { texts[i] = doc.text; }));
  }
  stats->seconds_texts = base::Seconds(start);
  start = base::Clock::now();
  SIMDEX_RETURN_IF_ERROR(candidates([&](AcceptedPair p) {
    const size_t a = place_of(p.a), b = place_of(p.b);
    if (by_shingles) {
      std::span<const uint64_t> x, y;
      SIMDEX_RETURN_IF_ERROR(shingles.Get(a, 0, &x));
      SIMDEX_RETURN_IF_ERROR(shingles.Get(b, 1, &y));
      if (!confirm::JaccardReaches(x, y, options.threshold, &p.similarity)) return Status::OK();
    } else if (confirmer->Confirms(texts[a], texts[b])) {  // stops early on most rejected pairs
      p.similarity = confirmer->Similarity(texts[a], texts[b]);
    } else {
      return Status::OK();
    }
    return p.similarity >= options.threshold ? accept(p) : Status::OK();
  }));
  stats->seconds_confirm = base::Seconds(start);
  stats->bytes_spilled = shingles.bytes_spilled();
  return Status::OK();
}

Status RunSecondStage(const SecondStageArgs& args, const DocumentSource& source, int k,
                      const SecondStageDocuments& documents, Deduplicator* dedup, DedupOutcomes* outcomes,
                      std::vector<AcceptedPair>* accepted, ConfirmationStats* stats) {
  const int k_short = args.k_short < 0 ? k : args.k_short;
  auto is_short = [&](uint64_t o) { return documents.lengths[o] < args.short_length; };
  // 1. The candidates within their pair's k.
  std::vector<AcceptedPair> candidates;
  SIMDEX_RETURN_IF_ERROR(dedup->ForEachPair([&](uint64_t a, uint64_t b, int distance) {
    ++stats->candidates;
    if (distance <= (is_short(a) || is_short(b) ? k_short : k)) {
      candidates.push_back({static_cast<uint32_t>(a), static_cast<uint32_t>(b), distance});
    }
    return Status::OK();
  }));
  stats->in_range = candidates.size();
  // 2. Their confirmation, from the texts read again.
  accepted->clear();
  SIMDEX_RETURN_IF_ERROR(ConfirmPairs(args.confirm, source, args.memory_bytes, args.tmpdir, args.threads,
                                      PairsOf(candidates),
                                      [accepted](const AcceptedPair& p) {
    accepted->push_back(p);
    return Status::OK();
  }, stats));
  stats->confirmed = accepted->size();
  // 3. Clusters of the accepted pairs, representatives as Deduplicator
  // picks them (largest score, then first).
  const uint64_t n = dedup->size();
  PairClusters clusters(n, documents.scores);
  for (const AcceptedPair& p : *accepted) clusters.Add(p.a, p.b);
  clusters.Finish();
  outcomes->replaced.assign(n, DedupResult());
  for (uint64_t o = 0; o < n; ++o) {
    const DedupResult first = dedup->Result(o);
    DedupResult& r = outcomes->replaced[o];
    r.empty = first.empty;
    r.representative = clusters.Representative(o);
    r.distance = first.empty ? 0 : HammingDistance(documents.fingerprints[o], documents.fingerprints[r.representative]);
    if (first.against_index >= 0 && first.against_distance <= k) {
      r.against_index = first.against_index;
      r.against_id = first.against_id;
      r.against_distance = first.against_distance;
    }
    r.duplicate = r.representative != o || r.against_index >= 0;
  }
  return Status::OK();
}

}  // namespace simdex::pipeline
