// `simdex dedup --method minhash` (engine/pipeline/minhash_dedup.h).
#include "engine/pipeline/minhash_dedup.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>

#include "base/timing.h"
#include "engine/util/sparse_scores.h"
#include "engine/pipeline/kept_shingles.h"
#include "engine/pipeline/minhash_assembly.h"
#include "engine/util/spillable_array.h"
#include "simdex/confirm.h"
#include "simdex/dedup.h"
#include "simdex/document_reader.h"
#include "simdex/minhash_dedup_parts.h"
#include "simdex/minhash_join.h"

namespace simdex::pipeline {
namespace {

std::string FormatNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// Documents whose band keys are read at once when the join is fed.
constexpr size_t kKeyBatch = 4096;

// Every document's band keys, packed signature, digest and score, in input
// order; the keys and signatures within their shares of the memory bound.
struct Signed {
  size_t bands = 0, bytes = 0;
  std::unique_ptr<util::SpillableArray> keys;    // bands x 8 bytes per document
  std::unique_ptr<util::SpillableArray> packed;  // bytes per document
  std::vector<uint64_t> digests;               // of keys and signature; 0 for empty documents
  std::vector<uint8_t> empty;                  // no shingles
  std::vector<LshBestMatch> index_matches;  // empty without --against
  std::vector<double> scores;  // empty while all are 0
  // Every document's shingle hashes for the exact check, while they fit
  // (ShingleRoom); null when the check cannot use them.
  std::unique_ptr<KeptShingles> shingles;
  Status status;               // the first error of Packed()
  // Document o's packed signature, read into buffer `slot` (0 or 1: a pair
  // reads one into each) when the signatures spilled, valid until the next
  // read into that slot; a signature of zeros after an error, which
  // `status` keeps. Spilled signatures are read by pread, not through a map
  // of their file: a map's faults may each map a whole large folio of the
  // page cache (Linux 6.x), which costs more than the read and counts in
  // the resident set. A slot asked for the document it holds is not read
  // again (the estimate filter's pairs come sorted by their first document).
  const uint8_t* Packed(size_t o, int slot) {
    if (!packed->spilled()) return packed->data() + o * bytes;
    std::vector<uint8_t>& buffer = buffers[slot];
    if (holds[slot] == o) return buffer.data();
    buffer.resize(bytes);
    if (status.ok()) status = packed->Read(o, 1, buffer.data());
    if (!status.ok()) std::fill(buffer.begin(), buffer.end(), 0);
    holds[slot] = status.ok() ? o : SIZE_MAX;
    return buffer.data();
  }
  std::vector<uint8_t> buffers[2];
  size_t holds[2] = {SIZE_MAX, SIZE_MAX};  // the document each buffer holds
};

// The room the documents' shingle hashes may take while the keys and the
// b-bit signatures are made: half the bound, less what those two hold (each
// counted at twice its records, at least the 64 KiB its buffer starts with:
// the most a buffer that doubles holds), so that with the join's half
// (after the signing) or the pairs' (after the join) everything stays
// within the bound. None once either spilled.
size_t ShingleRoom(const MinHashDedupArgs& args, const Signed& s) {
  if (s.keys->spilled() || s.packed->spilled()) return 0;
  auto held = [](const util::SpillableArray& a) { return std::max(size_t{64} << 10, 2 * a.size() * a.record_bytes()); };
  const size_t taken = held(*s.keys) + held(*s.packed);
  return args.memory_bytes / 2 > taken ? args.memory_bytes / 2 - taken : 0;
}

// keep_shingles: keep the documents' shingle hashes in out->shingles while
// they fit ShingleRoom.
Status ReadAndSign(const MinHashDedupArgs& args, LshBands bands, DocumentSource* inputs, int threads,
                   KeepRule score_by, bool keep_shingles, BatchProgress* progress, DedupBatch* batch, Signed* out) {
  std::unique_ptr<MinHasher> prototype;
  SIMDEX_RETURN_IF_ERROR(MinHasher::Create(args.signing, &prototype));
  out->bands = static_cast<size_t>(bands.bands);
  out->bytes = PackedSignatureBytes(args.signing.num_perm, args.signature_bits);
  out->keys = std::make_unique<util::SpillableArray>(out->bands * sizeof(uint64_t), args.memory_bytes / 4, args.tmpdir);
  out->packed = std::make_unique<util::SpillableArray>(out->bytes, args.memory_bytes / 4, args.tmpdir);
  if (keep_shingles) out->shingles = std::make_unique<KeptShingles>(args.signing.shingles);
  const size_t nb = out->bands, sb = out->bytes;
  const int bits = args.signature_bits;
  LshQueryOptions query;
  query.min_estimate = args.against_min_estimate >= 0 ? args.against_min_estimate
                       : args.estimate_filter     ? args.estimate_threshold
                                                  : 0;
  query.min_sketch_estimate = args.against_min_sketch_estimate;
  query.approximate = args.against_approximate;
  const std::vector<const LshIndexReader*>& against = args.against;
  // A worker's first query error; the sink returns it.
  auto query_error = std::make_shared<Status>();
  auto error_mutex = std::make_shared<std::mutex>();
  const WorkerFactory make_worker = [&]() -> WorkerWork {
    std::shared_ptr<MinHasher> hasher = prototype->Clone();
    return [hasher, bands, nb, sb, bits, query, &against, query_error, error_mutex](DocumentBatch* b) {
      std::vector<uint32_t> sig(static_cast<size_t>(hasher->num_perm()));
      std::vector<LshMatch> found;
      b->band_keys.resize(b->size * nb);
      b->packed_signatures.resize(b->size * sb);
      b->has_shingles.resize(b->size);
      b->feature_hashes.resize(std::max(b->feature_hashes.size(), b->size));
      b->index_matches.assign(against.empty() ? 0 : b->size, LshBestMatch());
      for (size_t i = 0; i < b->size; ++i) {
        const std::vector<uint64_t>& shingles = b->feature_hashes[i];  // kept by the sink for the exact check
        b->has_shingles[i] = hasher->Sign(b->docs[i].text, sig.data(), &b->feature_hashes[i]) != ShingleKind::kNone;
        BandKeys(sig.data(), bands, b->band_keys.data() + i * nb);
        PackSignature(sig.data(), hasher->num_perm(), bits, b->packed_signatures.data() + i * sb);
        if (against.empty() || !b->has_shingles[i]) continue;
        Status s = QueryBestMatch(against, sig.data(), shingles, query, &found, &b->index_matches[i]);
        if (!s.ok()) {
          std::lock_guard<std::mutex> lock(*error_mutex);
          if (query_error->ok()) *query_error = s;
        }
      }
    };
  };
  auto source = [inputs](DocumentBatch* b, bool* eof) { return inputs->Fill(b, eof); };
  auto sink = [&](const DocumentBatch& b) -> Status {
    {
      std::lock_guard<std::mutex> lock(*error_mutex);
      SIMDEX_RETURN_IF_ERROR(*query_error);
    }
    SIMDEX_RETURN_IF_ERROR(CheckBatchRoom(batch->ids.size(), b.size));  // documents are numbered in 32 bits
    if (!against.empty()) out->index_matches.insert(out->index_matches.end(), b.index_matches.begin(), b.index_matches.begin() + b.size);
    SIMDEX_RETURN_IF_ERROR(out->keys->Append(b.band_keys.data(), b.size));
    SIMDEX_RETURN_IF_ERROR(out->packed->Append(b.packed_signatures.data(), b.size));
    if (out->shingles != nullptr) {
      const size_t room = ShingleRoom(args, *out);
      for (size_t i = 0; i < b.size && out->shingles->kept(); ++i) out->shingles->Add(b.feature_hashes[i], room);
    }
    for (size_t i = 0; i < b.size; ++i) {
      const Document& doc = b.docs[i];
      const bool has = b.has_shingles[i] != 0;
      out->digests.push_back(has ? SignatureDigest(&b.band_keys[i * nb], nb, &b.packed_signatures[i * sb], sb) : 0);
      const double score = has ? KeepScore(score_by, doc) : 0;
      util::AppendScore(&out->scores, out->empty.size(), score);
      out->empty.push_back(!has);
      batch->Add(doc.id, doc.id_string, doc.line, !has, "no-text");
    }
    return Status::OK();
  };
  auto tick = [&] { progress->Update(batch->ids.size(), inputs->bytes_read()); };
  SIMDEX_RETURN_IF_ERROR(RunWorkerPipeline(threads, source, make_worker, sink, tick));
  SIMDEX_RETURN_IF_ERROR(*query_error);  // of the last batches
  batch->SetInputs(*inputs);
  SIMDEX_RETURN_IF_ERROR(out->keys->Finish());
  return out->packed->Finish();
}

// The documents that follow an earlier one of the same signature (equal
// band keys and packed signature: a 64-bit digest of both), as the parts
// find them (one partition, one range). Frees s->digests, which nothing
// reads afterwards.
Status FindFollowers(Signed* s, Followers* out) {
  std::vector<DigestPiece> pieces;
  SIMDEX_RETURN_IF_ERROR(SplitDigests(0, s->digests, s->empty, 1, &pieces));
  std::vector<uint64_t>().swap(s->digests);
  std::vector<Followers> followers;
  const DigestPieceView piece{pieces[0].digests, pieces[0].keys};
  SIMDEX_RETURN_IF_ERROR(::simdex::FindFollowers({&piece, 1}, 1, &followers));
  *out = std::move(followers[0]);
  return Status::OK();
}

}  // namespace

Status CheckMinHashDedupArgs(const MinHashDedupArgs& args) {
  if (!(args.threshold > 0 && args.threshold <= 1)) {
    return Status::InvalidArgument("threshold " + FormatNumber(args.threshold) + " is not in (0, 1]");
  }
  if (!ValidSignatureBits(args.signature_bits)) {
    return Status::InvalidArgument("signature_bits " + std::to_string(args.signature_bits) +
                                   " is not 1, 2, 4, 8, 16 or 32");
  }
  if (args.memory_bytes < kMinHashMinMemoryBytes) {
    return Status::InvalidArgument("memory_bytes " + std::to_string(args.memory_bytes) + " is below the minimum of " +
                                   std::to_string(kMinHashMinMemoryBytes));
  }
  if (args.signing.num_perm < 1 || args.signing.num_perm > kMaxNumPerm) {
    return Status::InvalidArgument("num_perm " + std::to_string(args.signing.num_perm) + " is not 1.." +
                                   std::to_string(kMaxNumPerm));
  }
  if (args.bands.bands < 0 || args.bands.rows < 0 || (args.bands.bands > 0) != (args.bands.rows > 0)) {
    return Status::InvalidArgument("bands and rows go together, both positive or both 0");
  }
  if (args.estimate_filter && !(args.estimate_threshold >= 0 && args.estimate_threshold <= 1)) {
    return Status::InvalidArgument("the estimate filter " + FormatNumber(args.estimate_threshold) + " is not in [0, 1]");
  }
  const LshBands bands =
      args.bands.bands > 0 ? args.bands : DefaultLshBands(args.threshold, args.signing.num_perm);
  return CheckLshBands(bands, args.signing.num_perm);
}

Status RunMinHashDedup(const MinHashDedupArgs& args, DocumentSource* documents, int threads, KeepRule score_by,
                       const std::string& confirm, bool keep_pairs, BatchProgress* progress, DedupBatch* batch,
                       DedupOutcomes* outcomes, std::unique_ptr<SortedPairs>* pairs, MinHashDedupStats* stats) {
  SIMDEX_RETURN_IF_ERROR(CheckMinHashDedupArgs(args));
  const LshBands bands =
      args.bands.bands > 0 ? args.bands : DefaultLshBands(args.threshold, args.signing.num_perm);
  stats->bands = bands;
  Signed s;
  const bool keep_shingles = UsesKeptShingles(confirm, args.signing.shingles);
  SIMDEX_RETURN_IF_ERROR(ReadAndSign(args, bands, documents, threads, score_by, keep_shingles, progress, batch, &s));
  const size_t n = s.empty.size();

  // The join over distinct signatures, and the estimate filter.
  progress->Update("joining " + std::to_string(n) + " documents");
  auto start = base::Clock::now();
  Followers followers;
  SIMDEX_RETURN_IF_ERROR(FindFollowers(&s, &followers));
  // The join, fed the keys of each item (a document with shingles that
  // follows no earlier copy); items are numbered in document order.
  BandJoinOptions join_options;
  join_options.memory_bytes = args.memory_bytes / 2;
  join_options.tmpdir = args.tmpdir;
  join_options.threads = threads;
  std::unique_ptr<BandJoiner> join;
  SIMDEX_RETURN_IF_ERROR(BandJoiner::Create(bands.bands, join_options, &join));
  std::vector<uint32_t> firsts;  // each item's document
  std::vector<uint64_t> keys(kKeyBatch * s.bands);
  for (size_t first = 0, f = 0; first < n; first += kKeyBatch) {
    const size_t count = std::min(kKeyBatch, n - first);
    SIMDEX_RETURN_IF_ERROR(s.keys->Read(first, count, keys.data()));
    for (size_t k = 0; k < count; ++k) {
      const uint32_t o = static_cast<uint32_t>(first + k);
      if (f < followers.positions.size() && followers.positions[f] == o) {
        ++f;
      } else if (!s.empty[o]) {
        firsts.push_back(o);
        SIMDEX_RETURN_IF_ERROR(join->Add(&keys[k * s.bands]));
      }
    }
  }
  stats->bytes_spilled += s.keys->bytes_spilled();
  s.keys.reset();
  SIMDEX_RETURN_IF_ERROR(join->Finish());
  stats->seconds_join = base::Seconds(start);
  start = base::Clock::now();
  // The estimate filter, on the pairs as they come: sorted by their first
  // item, whose signatures are then read in order. Kept as ordinals.
  EstimatedPairs kept;
  std::vector<uint64_t> joined(kKeyBatch);
  for (size_t got = 1; got > 0;) {
    SIMDEX_RETURN_IF_ERROR(join->Read(joined.data(), joined.size(), &got));
    for (size_t i = 0; i < got; ++i) {
      const uint32_t a = firsts[joined[i] >> 32], b = firsts[joined[i] & 0xffffffffu];
      const double estimate =
          EstimateJaccardPacked(s.Packed(a, 0), s.Packed(b, 1), args.signing.num_perm, args.signature_bits);
      if (args.estimate_filter && estimate < args.estimate_threshold) continue;
      kept.a.push_back(a);
      kept.b.push_back(b);
      kept.estimates.push_back(estimate);
    }
  }
  SIMDEX_RETURN_IF_ERROR(s.status);
  stats->candidates = join->stats().pairs;
  stats->bytes_spilled += join->stats().bytes_spilled;
  join.reset();
  std::vector<uint32_t>().swap(firsts);
  stats->seconds_filter = base::Seconds(start);

  // The items as the parts' assembly makes them (one partition, whose keys
  // are ordinals), with the summary's counts.
  MinHashItems items;
  {
    const uint64_t sizes[] = {n};
    const FollowersView f{0, followers.positions, followers.firsts};
    const EstimatedPairsView k{kept.a, kept.b, kept.estimates};
    SIMDEX_RETURN_IF_ERROR(AssembleItems(sizes, s.empty, {&f, 1}, {&k, 1}, &items));
    followers = Followers();
    kept = EstimatedPairs();
  }
  stats->documents = items.stats.documents;
  stats->empty = items.stats.empty;
  stats->distinct_signatures = items.stats.distinct_signatures;
  stats->kept = items.stats.kept;
  stats->document_pairs = items.stats.document_pairs;

  // Pairs of documents, confirmed; clusters.
  PairClusters clusters(n, s.scores);
  pairs->reset();
  if (keep_pairs) *pairs = std::make_unique<SortedPairs>(args.memory_bytes / 2, args.tmpdir, threads);
  const PairSource candidates = [&items](const PairVisitor& fn) {
    return ForEachDocumentPair(items.View(), [&fn](uint64_t a, uint64_t b, double estimate) {
      return fn({static_cast<uint32_t>(a), static_cast<uint32_t>(b), 0, -1, estimate});
    });
  };
  if (!confirm.empty()) {
    progress->Update("confirming pairs");
    stats->confirm.candidates = stats->confirm.in_range = stats->document_pairs;
    // The keys' quarter of the memory bound is free by now (the pairs have
    // the join's half, the b-bit signatures keep theirs); the shingles kept
    // from the signing, if they fit, make it unneeded.
    SIMDEX_RETURN_IF_ERROR(ConfirmPairs(confirm, *documents, args.memory_bytes / 4, args.tmpdir, threads, candidates,
                                        [&](const AcceptedPair& p) {
      ++stats->confirm.confirmed;
      clusters.Add(p.a, p.b);
      return keep_pairs ? (*pairs)->Add(p) : Status::OK();
    }, &stats->confirm, s.shingles.get()));
    s.shingles.reset();
    stats->bytes_spilled += stats->confirm.bytes_spilled;
  } else {
    if (keep_pairs) SIMDEX_RETURN_IF_ERROR(candidates([&](const AcceptedPair& p) { return (*pairs)->Add(p); }));
    AddItemPairs(items.View(), &clusters);
  }
  // The items are in the clusters now: their memory goes before the
  // clusters choose representatives and the outcomes are made.
  items = MinHashItems();
  clusters.Finish();
  stats->clusters = clusters.clusters();
  stats->clustered_documents = clusters.clustered_documents();
  outcomes->dedup = nullptr;
  outcomes->replaced.clear();
  CompactOutcomes& compact = outcomes->compact;
  compact.representative.resize(n);
  compact.empty.resize(n);
  compact.against.clear();
  outcomes->estimates.assign(n, 0);
  for (size_t o = 0; o < n; ++o) {
    const bool empty = s.empty[o] != 0;
    const uint64_t representative = empty ? o : clusters.Representative(o);
    compact.representative[o] = static_cast<uint32_t>(representative);
    compact.empty[o] = empty;
    outcomes->estimates[o] = static_cast<float>(
        empty                 ? 0.0
        : representative == o ? 1.0
                              : EstimateJaccardPacked(s.Packed(o, 0), s.Packed(representative, 1),
                                                      args.signing.num_perm, args.signature_bits));
    if (!s.index_matches.empty() && s.index_matches[o].index >= 0) {
      const LshBestMatch& match = s.index_matches[o];
      if (outcomes->against_estimates.empty()) outcomes->against_estimates.assign(n, 0);
      if (compact.against.empty()) compact.against.assign(n, {-1, 0});
      compact.against[o] = {match.index, match.id};
      outcomes->against_estimates[o] = static_cast<float>(match.estimate);
      ++stats->against_duplicates;
    }
    stats->duplicates += compact.Result(o).duplicate;
  }
  stats->bytes_spilled += s.packed->bytes_spilled();
  return s.status;
}

}  // namespace simdex::pipeline
