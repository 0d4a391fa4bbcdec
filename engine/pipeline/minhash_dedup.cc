// `simdex dedup --method minhash` (engine/pipeline/minhash_dedup.h).
#include "engine/pipeline/minhash_dedup.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>

#include "base/timing.h"
#include "engine/dedup/sparse_scores.h"
#include "engine/io/input_stream.h"
#include "engine/pipeline/kept_shingles.h"
#include "engine/util/spillable_array.h"
#include "simdex/confirm.h"
#include "simdex/dedup.h"
#include "simdex/document_reader.h"
#include "simdex/minhash_join.h"

namespace simdex::pipeline {
namespace {

std::string FormatNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

constexpr uint32_t kNoItem = std::numeric_limits<uint32_t>::max();

// Documents whose band keys are read at once when the join is fed.
constexpr size_t kKeyBatch = 4096;

// Every document's band keys, packed signature, digest and score, in input
// order; the keys and signatures within their shares of the memory bound.
struct Signed {
  size_t bands = 0, bytes = 0;
  std::unique_ptr<io::SpillableArray> keys;    // bands x 8 bytes per document
  std::unique_ptr<io::SpillableArray> packed;  // bytes per document
  std::vector<uint64_t> digests;               // of keys and signature; 0 for empty documents
  std::vector<uint8_t> has_shingles;
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
  auto held = [](const io::SpillableArray& a) { return std::max(size_t{64} << 10, 2 * a.size() * a.record_bytes()); };
  const size_t taken = held(*s.keys) + held(*s.packed);
  return args.memory_bytes / 2 > taken ? args.memory_bytes / 2 - taken : 0;
}

// The documents are signed with these options.
MinHashOptions SigningOptions(const MinHashDedupArgs& args) {
  MinHashOptions options;
  options.num_perm = args.num_perm;
  options.seed = args.seed;
  options.shingles.words = args.shingle_words;
  return options;
}

// keep_shingles: keep the documents' shingle hashes in out->shingles while
// they fit ShingleRoom.
Status ReadAndSign(const MinHashDedupArgs& args, LshBands bands, DocumentSource* inputs, int threads,
                   ScoreBy score_by, bool keep_shingles, BatchProgress* progress, DedupBatch* batch, Signed* out) {
  const MinHashOptions options = SigningOptions(args);
  std::unique_ptr<MinHasher> prototype;
  SIMDEX_RETURN_IF_ERROR(MinHasher::Create(options, &prototype));
  out->bands = static_cast<size_t>(bands.bands);
  out->bytes = PackedSignatureBytes(args.num_perm, args.signature_bits);
  out->keys = std::make_unique<io::SpillableArray>(out->bands * sizeof(uint64_t), args.memory_bytes / 4, args.tmpdir);
  out->packed = std::make_unique<io::SpillableArray>(out->bytes, args.memory_bytes / 4, args.tmpdir);
  if (keep_shingles) out->shingles = std::make_unique<KeptShingles>(options.shingles);
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
      dedup::AppendScore(&out->scores, out->has_shingles.size(), score);
      out->has_shingles.push_back(has);
      if (!has) batch->empty.emplace_back(batch->ids.size(), "no-text");
      batch->ids.Add(doc.id, doc.id_string);
      batch->places.Add(doc.line);
    }
    return Status::OK();
  };
  auto tick = [&] { progress->Update(batch->ids.size(), inputs->bytes_read()); };
  SIMDEX_RETURN_IF_ERROR(RunWorkerPipeline(threads, source, make_worker, sink, tick));
  SIMDEX_RETURN_IF_ERROR(*query_error);  // of the last batches
  batch->skipped = inputs->skipped();
  batch->places.SetInputs(inputs->input_names(), inputs->documents_per_input());
  batch->first_errors = inputs->first_errors();
  SIMDEX_RETURN_IF_ERROR(out->keys->Finish());
  return out->packed->Finish();
}

// The batch's distinct signatures (equal band keys and packed signature:
// a 64-bit digest of both), each an item of the join; members lists each
// item's documents, in input order, from member_start[item].
struct Items {
  std::vector<uint32_t> of_document;   // item per document, kNoItem for empty ones
  std::vector<uint32_t> member_start;  // items + 1 entries
  std::vector<uint32_t> members;
  uint32_t First(uint32_t item) const { return members[member_start[item]]; }
};

// Frees s->digests, which nothing reads afterwards.
void FindItems(Signed* s, Items* items) {
  const size_t n = s->has_shingles.size();
  std::vector<std::pair<uint64_t, uint32_t>> digests;
  digests.reserve(n - static_cast<size_t>(std::count(s->has_shingles.begin(), s->has_shingles.end(), 0)));
  for (size_t o = 0; o < n; ++o) {
    if (s->has_shingles[o]) digests.emplace_back(s->digests[o], static_cast<uint32_t>(o));
  }
  std::vector<uint64_t>().swap(s->digests);
  std::sort(digests.begin(), digests.end());
  // Items numbered by their first document, so that item order is input order.
  std::vector<std::pair<uint32_t, uint32_t>> firsts;  // (first document, start in digests)
  for (size_t i = 0; i < digests.size(); ++i) {
    if (i == 0 || digests[i].first != digests[i - 1].first) firsts.emplace_back(digests[i].second, i);
  }
  std::sort(firsts.begin(), firsts.end());
  items->of_document.assign(n, kNoItem);
  items->member_start.clear();
  items->members.clear();
  for (const auto& [first, start] : firsts) {
    items->member_start.push_back(static_cast<uint32_t>(items->members.size()));
    for (size_t i = start; i < digests.size() && digests[i].first == digests[start].first; ++i) {
      items->of_document[digests[i].second] = static_cast<uint32_t>(items->member_start.size() - 1);
      items->members.push_back(digests[i].second);
    }
  }
  items->member_start.push_back(static_cast<uint32_t>(items->members.size()));
}

// Visits the document pairs of identical signatures and of the kept item
// pairs, made as they are visited (a cluster of n documents has n^2 / 2 of
// them), in no particular order.
Status ForEachDocumentPair(const Items& items, const std::vector<std::pair<uint64_t, double>>& kept,
                           const PairVisitor& fn) {
  auto visit = [&fn](uint32_t a, uint32_t b, double estimate) {
    return fn({std::min(a, b), std::max(a, b), 0, -1, estimate});
  };
  const size_t m = items.member_start.size() - 1;
  for (size_t item = 0; item < m; ++item) {
    for (uint32_t x = items.member_start[item]; x < items.member_start[item + 1]; ++x) {
      for (uint32_t y = x + 1; y < items.member_start[item + 1]; ++y) {
        SIMDEX_RETURN_IF_ERROR(visit(items.members[x], items.members[y], 1.0));
      }
    }
  }
  for (const auto& [pair, estimate] : kept) {
    const uint32_t a = static_cast<uint32_t>(pair >> 32), b = static_cast<uint32_t>(pair);
    for (uint32_t x = items.member_start[a]; x < items.member_start[a + 1]; ++x) {
      for (uint32_t y = items.member_start[b]; y < items.member_start[b + 1]; ++y) {
        SIMDEX_RETURN_IF_ERROR(visit(items.members[x], items.members[y], estimate));
      }
    }
  }
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
  if (args.num_perm < 1 || args.num_perm > kMaxNumPerm) {
    return Status::InvalidArgument("num_perm " + std::to_string(args.num_perm) + " is not 1.." +
                                   std::to_string(kMaxNumPerm));
  }
  if (args.bands.bands < 0 || args.bands.rows < 0 || (args.bands.bands > 0) != (args.bands.rows > 0)) {
    return Status::InvalidArgument("bands and rows go together, both positive or both 0");
  }
  if (args.estimate_filter && !(args.estimate_threshold >= 0 && args.estimate_threshold <= 1)) {
    return Status::InvalidArgument("the estimate filter " + FormatNumber(args.estimate_threshold) + " is not in [0, 1]");
  }
  const LshBands bands = args.bands.bands > 0 ? args.bands : DefaultLshBands(args.threshold, args.num_perm);
  return CheckLshBands(bands, args.num_perm);
}

Status RunMinHashDedup(const MinHashDedupArgs& args, DocumentSource* documents, int threads, ScoreBy score_by,
                       const std::string& confirm, bool keep_pairs, BatchProgress* progress, DedupBatch* batch,
                       DedupOutcomes* outcomes, std::unique_ptr<SortedPairs>* pairs, MinHashDedupStats* stats) {
  SIMDEX_RETURN_IF_ERROR(CheckMinHashDedupArgs(args));
  const LshBands bands = args.bands.bands > 0 ? args.bands : DefaultLshBands(args.threshold, args.num_perm);
  stats->bands = bands;
  Signed s;
  const bool keep_shingles = UsesKeptShingles(confirm, SigningOptions(args).shingles);
  SIMDEX_RETURN_IF_ERROR(ReadAndSign(args, bands, documents, threads, score_by, keep_shingles, progress, batch, &s));
  const size_t n = s.has_shingles.size();
  stats->documents = n;
  stats->empty = static_cast<uint64_t>(std::count(s.has_shingles.begin(), s.has_shingles.end(), 0));

  // The join over distinct signatures, and the estimate filter.
  progress->Update("joining " + std::to_string(n) + " documents");
  auto start = base::Clock::now();
  Items items;
  FindItems(&s, &items);
  const size_t m = items.member_start.size() - 1;
  stats->distinct_signatures = m;
  // The join, fed the keys of each item's first document (items are
  // numbered in the order of their first documents).
  BandJoinOptions join_options;
  join_options.memory_bytes = args.memory_bytes / 2;
  join_options.tmpdir = args.tmpdir;
  join_options.threads = threads;
  std::unique_ptr<BandJoiner> join;
  SIMDEX_RETURN_IF_ERROR(BandJoiner::Create(bands.bands, join_options, &join));
  std::vector<uint64_t> keys(kKeyBatch * s.bands);
  for (size_t first = 0; first < n; first += kKeyBatch) {
    const size_t count = std::min(kKeyBatch, n - first);
    SIMDEX_RETURN_IF_ERROR(s.keys->Read(first, count, keys.data()));
    for (size_t k = 0; k < count; ++k) {
      const uint32_t item = items.of_document[first + k];
      if (item != kNoItem && items.First(item) == first + k) SIMDEX_RETURN_IF_ERROR(join->Add(&keys[k * s.bands]));
    }
  }
  stats->bytes_spilled += s.keys->bytes_spilled();
  s.keys.reset();
  SIMDEX_RETURN_IF_ERROR(join->Finish());
  stats->seconds_join = base::Seconds(start);
  start = base::Clock::now();
  // The estimate filter, on the pairs as they come: sorted by their first
  // item, whose signatures are then read in order.
  std::vector<std::pair<uint64_t, double>> kept;
  std::vector<uint64_t> joined(kKeyBatch);
  for (size_t got = 1; got > 0;) {
    SIMDEX_RETURN_IF_ERROR(join->Read(joined.data(), joined.size(), &got));
    for (size_t i = 0; i < got; ++i) {
      const uint64_t p = joined[i];
      const double estimate = EstimateJaccardPacked(s.Packed(items.First(static_cast<uint32_t>(p >> 32)), 0),
                                                    s.Packed(items.First(static_cast<uint32_t>(p)), 1), args.num_perm,
                                                    args.signature_bits);
      if (!args.estimate_filter || estimate >= args.estimate_threshold) kept.emplace_back(p, estimate);
    }
  }
  SIMDEX_RETURN_IF_ERROR(s.status);
  stats->candidates = join->stats().pairs;
  stats->bytes_spilled += join->stats().bytes_spilled;
  join.reset();
  stats->kept = kept.size();
  stats->seconds_filter = base::Seconds(start);

  // Pairs of documents, confirmed; clusters.
  auto members = [&items](uint64_t item) { return uint64_t{items.member_start[item + 1] - items.member_start[item]}; };
  for (size_t i = 0; i < m; ++i) stats->document_pairs += members(i) * (members(i) - 1) / 2;
  for (const auto& [pair, estimate] : kept) stats->document_pairs += members(pair >> 32) * members(pair & 0xffffffffu);
  PairClusters clusters(n, s.scores);
  pairs->reset();
  if (keep_pairs) *pairs = std::make_unique<SortedPairs>(args.memory_bytes / 2, args.tmpdir, threads);
  const PairSource candidates = [&](const PairVisitor& fn) { return ForEachDocumentPair(items, kept, fn); };
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
    for (size_t i = 0; i < m; ++i) {
      for (uint32_t x = items.member_start[i] + 1; x < items.member_start[i + 1]; ++x) {
        clusters.Add(items.members[x], items.First(static_cast<uint32_t>(i)));
      }
    }
    for (const auto& [pair, estimate] : kept) {
      clusters.Add(items.First(static_cast<uint32_t>(pair >> 32)), items.First(static_cast<uint32_t>(pair)));
    }
  }
  // The items and kept pairs are in the clusters now: their memory goes
  // before the clusters choose representatives and the outcomes are made.
  items = Items();
  std::vector<std::pair<uint64_t, double>>().swap(kept);
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
    const bool empty = !s.has_shingles[o];
    const uint64_t representative = empty ? o : clusters.Representative(o);
    compact.representative[o] = static_cast<uint32_t>(representative);
    compact.empty[o] = empty;
    outcomes->estimates[o] =
        empty ? 0.0f
              : static_cast<float>(representative == o ? 1.0
                                                       : EstimateJaccardPacked(s.Packed(o, 0), s.Packed(representative, 1),
                                                                               args.num_perm, args.signature_bits));
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
