// Deduplicator (include/simdex/dedup.h). Finish() runs, in order:
//   1. distinct: the external sorter orders (fingerprint, ordinal); one pass
//      over it gives the sorted distinct fingerprints, how many documents
//      share each, and each document's distinct number;
//   2. against: each index's nearest entry per distinct fingerprint;
//   3. the self-join (self_join.h): pairs of distinct fingerprints within k
//      go into a union-find over the distinct fingerprints (and, with
//      keep_pairs, into a spilled sorter);
//   4. clusters: each set's representative (largest score, then smallest
//      ordinal), each document's distance to it and its duplicate flag;
//   5. with keep_pairs, the document pairs: exact duplicates among the
//      documents of one fingerprint, and every document of a near pair's
//      fingerprints, sorted by (a, b).
// Memory: the per-document arrays are counted against memory_bytes and the
// sorts get what is left. Also SpillDirectory (include/simdex/batch.h): the
// batch jobs' temporary directory is the Deduplicator's default.
#include <algorithm>
#include <cstdlib>
#include <span>

#include "base/timing.h"
#include "engine/simhash/dedup/against.h"
#include "engine/simhash/dedup/clusters.h"
#include "engine/simhash/dedup/external_parts.h"
#include "engine/simhash/dedup/self_join.h"
#include "engine/util/sparse_scores.h"
#include "engine/util/external_sorter.h"
#include "engine/util/large_memory.h"
#include "engine/util/union_find.h"
#include "simdex/batch.h"
#include "simdex/dedup.h"

namespace simdex {

using util::ExternalSorter;
using util::FingerprintIdPair;

namespace {

constexpr uint32_t kNone = simhash::kNoFingerprint;
static_assert(kMaxBatchDocuments == uint64_t{kNone} - 1, "document numbers are below kNone");
constexpr uint8_t kEmptyDistance = 0xff;
constexpr size_t kPendingRecords = 4096;

// A pair record for the sorters: (a << 32 | b, distance), ordered by a, b.
FingerprintIdPair PairRecord(uint32_t a, uint32_t b, uint32_t distance) {
  return {uint64_t{a} << 32 | b, distance};
}

}  // namespace

std::string SpillDirectory(const std::string& tmpdir) {
  if (!tmpdir.empty()) return tmpdir;
  const char* env = std::getenv("TMPDIR");
  return env != nullptr && *env != '\0' ? env : "/tmp";
}

const char* AgainstStrategyName(AgainstStrategy strategy) {
  switch (strategy) {
    case AgainstStrategy::kProbe: return "probe";
    case AgainstStrategy::kMergeJoin: return "merge-join";
    case AgainstStrategy::kAuto: break;
  }
  return "auto";
}

struct Deduplicator::Rep {
  DedupOptions options;
  int k = 0;
  int against_k = 0;  // the largest distance of an index match
  Status status;
  bool adding = true;
  bool finished = false;
  bool pairs_read = false;
  DedupStats stats;
  std::vector<const IndexReader*> indexes;  // null: matches found elsewhere
  std::vector<std::vector<NearestEntry>> external_matches;  // for the null indexes, in order
  std::vector<NearPair> external_pairs;

  // While adding.
  uint64_t documents = 0;
  std::unique_ptr<ExternalSorter<FingerprintIdPair>> by_fingerprint;  // (fingerprint, ordinal)
  std::vector<FingerprintIdPair> pending;  // records not yet handed to by_fingerprint
  std::vector<double> scores;  // by ordinal, once any score is not 0

  // Finish(): the distinct fingerprints.
  util::LargeVector<uint64_t> distinct;
  util::LargeVector<uint32_t> multiplicity;     // documents per distinct fingerprint
  util::LargeVector<uint32_t> first_document;   // smallest ordinal per distinct fingerprint
  util::LargeArray<uint32_t> of_document;  // distinct number per ordinal, kNone when empty
  std::vector<std::vector<simhash::AgainstHit>> hits;  // per index, sorted by distinct
  std::unique_ptr<ExternalSorter<FingerprintIdPair>> near_pairs;  // distinct pairs (keep_pairs)

  // Results.
  util::LargeArray<uint32_t> representative;  // by ordinal
  util::LargeArray<uint8_t> distance;         // by ordinal; kEmptyDistance when empty
  struct Against {
    uint32_t ordinal;
    uint32_t index;
    uint32_t distance;
    uint64_t id;
  };
  std::vector<Against> against;  // sorted by ordinal
  std::unique_ptr<ExternalSorter<FingerprintIdPair>> pairs;  // document pairs (keep_pairs)

  // Bytes held by the per-document arrays, counted against the budget.
  size_t FixedBytes() const {
    return distinct.capacity() * 8 + multiplicity.capacity() * 4 + first_document.capacity() * 4 + scores.capacity() * 8 +
           (of_document ? documents * 4 : 0) + (representative ? documents * 5 : 0);
  }
  // What a sort may use besides `also` more bytes of arrays.
  size_t SortBudget(size_t also) const {
    const size_t used = FixedBytes() + also;
    const size_t left = options.memory_bytes > used ? options.memory_bytes - used : 0;
    return std::max(left, util::kExternalSortMinMemoryBytes);
  }
  // A sorter of `bytes` (at least the sorter's minimum).
  std::unique_ptr<ExternalSorter<FingerprintIdPair>> Sorter(size_t bytes) const {
    return std::make_unique<ExternalSorter<FingerprintIdPair>>(util::ExternalSortOptions{
        .memory_bytes = std::max(bytes, util::kExternalSortMinMemoryBytes), .tmpdir = options.tmpdir,
        .threads = options.threads});
  }
  void CountSpills(const util::ExternalSortStats& s) {
    stats.spilled_runs += s.runs_spilled;
    stats.spilled_bytes += s.bytes_spilled;
  }
};

Deduplicator::Deduplicator(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Deduplicator::~Deduplicator() = default;

Status DedupOptions::Validate() const {
  if (against_k < -1 || against_k > 64) {
    return Status::InvalidArgument("against_k " + std::to_string(against_k) + " is not in -1..64");
  }
  const int k_used = k < 0 ? scheme.k() : k;
  if (k_used > scheme.k()) {
    return Status::InvalidArgument("k " + std::to_string(k_used) + " is larger than scheme " + scheme.Name() +
                                   " supports (" + std::to_string(scheme.k()) + ")");
  }
  if (threads < 1) return Status::InvalidArgument("threads must be at least 1");
  if (max_documents > kMaxBatchDocuments) {
    return Status::InvalidArgument("max_documents " + std::to_string(max_documents) + " is above " +
                                   std::to_string(kMaxBatchDocuments));
  }
  if (memory_bytes < util::kExternalSortMinMemoryBytes) {
    return Status::InvalidArgument("memory bound " + std::to_string(memory_bytes) + " is below the minimum of 64 KiB");
  }
  return Status::OK();
}

Status Deduplicator::Create(const DedupOptions& options, std::unique_ptr<Deduplicator>* out) {
  SIMDEX_RETURN_IF_ERROR(options.Validate());
  auto rep = std::make_unique<Rep>();
  rep->options = options;
  rep->k = options.k < 0 ? options.scheme.k() : options.k;
  rep->against_k = options.against_k < 0 ? rep->k : options.against_k;
  rep->options.tmpdir = SpillDirectory(rep->options.tmpdir);
  // The sorter of (fingerprint, ordinal) gets half: the distinct
  // fingerprints and the documents' numbers are made while it is read.
  rep->by_fingerprint = rep->Sorter(options.memory_bytes / 2);
  SIMDEX_RETURN_IF_ERROR(rep->by_fingerprint->status());
  out->reset(new Deduplicator(std::move(rep)));
  return Status::OK();
}

Status CheckBatchRoom(uint64_t documents, uint64_t adding, uint64_t max) {
  if (adding <= max && documents <= max - adding) return Status::OK();
  return Status::InvalidArgument("a batch holds at most " + std::to_string(max) + " documents");
}

Status Deduplicator::Add(uint64_t fingerprint, double score) {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  if (!r.adding) return r.status = Status::InvalidArgument("Add() after Finish()");
  if (Status room = CheckBatchRoom(r.documents, 1, r.options.max_documents); !room.ok()) return r.status = room;
  util::AppendScore(&r.scores, r.documents, score);
  r.pending.push_back({fingerprint, r.documents});
  ++r.documents;
  if (r.pending.size() == kPendingRecords) {
    r.status = r.by_fingerprint->Add(r.pending.data(), r.pending.size());
    r.pending.clear();
  }
  return r.status;
}

Status Deduplicator::AddEmpty() {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  if (!r.adding) return r.status = Status::InvalidArgument("AddEmpty() after Finish()");
  if (Status room = CheckBatchRoom(r.documents, 1, r.options.max_documents); !room.ok()) return r.status = room;
  if (!r.scores.empty()) r.scores.push_back(0);
  ++r.documents;
  ++r.stats.empty;
  return Status::OK();
}

Status Deduplicator::AddIndex(const IndexReader* index) {
  Rep& r = *rep_;
  if (!r.adding) return Status::InvalidArgument("AddIndex() after Finish()");
  if (r.against_k > index->scheme().k()) {
    return Status::InvalidArgument("k " + std::to_string(r.against_k) + " is larger than the index's scheme " +
                                   index->scheme().Name() + " supports (" + std::to_string(index->scheme().k()) + ")");
  }
  r.indexes.push_back(index);
  return Status::OK();
}

Status Deduplicator::AddNearPairs(std::span<const NearPair> pairs) {
  Rep& r = *rep_;
  if (!r.adding) return Status::InvalidArgument("AddNearPairs() after Finish()");
  if (!r.options.external_pairs) return Status::InvalidArgument("AddNearPairs() needs options.external_pairs");
  r.external_pairs.insert(r.external_pairs.end(), pairs.begin(), pairs.end());
  return Status::OK();
}

Status Deduplicator::AddIndexMatches(std::span<const NearestEntry> matches) {
  Rep& r = *rep_;
  if (!r.adding) return Status::InvalidArgument("AddIndexMatches() after Finish()");
  r.indexes.push_back(nullptr);
  r.external_matches.emplace_back(matches.begin(), matches.end());
  return Status::OK();
}

uint64_t Deduplicator::size() const { return rep_->documents; }
const DedupStats& Deduplicator::stats() const { return rep_->stats; }

Status Deduplicator::Finish() {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  if (!r.adding) return r.status = Status::InvalidArgument("Finish() called twice");
  r.adding = false;
  r.status = FinishImpl();
  r.by_fingerprint.reset();
  r.near_pairs.reset();
  r.distinct = util::LargeVector<uint64_t>();
  r.multiplicity = util::LargeVector<uint32_t>();
  r.first_document = util::LargeVector<uint32_t>();
  r.of_document.reset();
  r.hits.clear();
  r.scores = std::vector<double>();
  r.finished = r.status.ok();
  return r.status;
}

namespace {

// Step 1: the distinct fingerprints, their multiplicities and the
// documents' distinct numbers, from the (fingerprint, ordinal) sorter.
Status ReadDistinct(ExternalSorter<FingerprintIdPair>* sorter, uint64_t documents, util::LargeVector<uint64_t>* distinct,
                    util::LargeVector<uint32_t>* multiplicity, util::LargeVector<uint32_t>* first_document,
                    uint32_t* of_document) {
  std::fill(of_document, of_document + documents, kNone);
  // At most one distinct fingerprint per document: reserving that much
  // (address space; pages are touched as they fill) saves the copies of
  // growing vectors, which dominated this step on distinct batches.
  distinct->reserve(documents);
  multiplicity->reserve(documents);
  first_document->reserve(documents);
  SIMDEX_RETURN_IF_ERROR(sorter->Finish());
  std::vector<FingerprintIdPair> batch(size_t{1} << 12);
  for (size_t got = 0;;) {
    SIMDEX_RETURN_IF_ERROR(sorter->Read(batch.data(), batch.size(), &got));
    if (got == 0) return Status::OK();
    // The documents' numbers are written in fingerprint order, at random
    // places: start each store's cache miss well before it.
    constexpr size_t kAhead = 16;
    for (size_t i = 0; i < std::min(got, kAhead); ++i) __builtin_prefetch(&of_document[batch[i].id], 1);
    for (size_t i = 0; i < got; ++i) {
      if (i + kAhead < got) __builtin_prefetch(&of_document[batch[i + kAhead].id], 1);
      if (distinct->empty() || distinct->back() != batch[i].fingerprint) {
        distinct->push_back(batch[i].fingerprint);
        multiplicity->push_back(0);
        first_document->push_back(static_cast<uint32_t>(batch[i].id));  // ordinals ascend within a run
      }
      ++multiplicity->back();
      of_document[batch[i].id] = static_cast<uint32_t>(distinct->size() - 1);
    }
  }
}

}  // namespace

Status Deduplicator::FinishImpl() {
  Rep& r = *rep_;
  DedupStats& st = r.stats;
  st.documents = r.documents;
  auto start = base::Clock::now();

  // 1. Distinct fingerprints.
  SIMDEX_RETURN_IF_ERROR(r.by_fingerprint->Add(r.pending.data(), r.pending.size()));
  r.pending = std::vector<FingerprintIdPair>();
  r.of_document = util::MakeLargeArray<uint32_t>(std::max<uint64_t>(1, r.documents));
  if (r.of_document == nullptr) {
    return Status::IOError("cannot allocate " + std::to_string(r.documents * 4) + " bytes for the documents' fingerprints");
  }
  SIMDEX_RETURN_IF_ERROR(ReadDistinct(r.by_fingerprint.get(), r.documents, &r.distinct, &r.multiplicity,
                                      &r.first_document, r.of_document.get()));
  r.CountSpills(r.by_fingerprint->stats());
  r.by_fingerprint.reset();
  r.distinct.shrink_to_fit();
  r.multiplicity.shrink_to_fit();
  r.first_document.shrink_to_fit();
  st.distinct_fingerprints = r.distinct.size();
  st.seconds_distinct = base::Seconds(start);

  // 2. Against each index.
  start = base::Clock::now();
  simhash::KeyGroupOptions sort{.memory_bytes = r.SortBudget(0), .tmpdir = r.options.tmpdir, .threads = r.options.threads};
  size_t external = 0;
  for (const IndexReader* index : r.indexes) {
    if (index == nullptr) {
      r.hits.emplace_back();
      SIMDEX_RETURN_IF_ERROR(simhash::ToAgainstHits(r.distinct, r.external_matches[external++], r.against_k,
                                                     &r.hits.back()));
      continue;
    }
    AgainstStrategy strategy = r.options.against_strategy;
    if (strategy == AgainstStrategy::kAuto) strategy = simhash::ChooseStrategy(r.distinct.size(), *index, r.against_k);
    // One name per index, in the order they were added: "probe, merge-join".
    st.against_strategy += (st.against_strategy.empty() ? "" : ", ") + std::string(AgainstStrategyName(strategy));
    r.hits.emplace_back();
    if (strategy == AgainstStrategy::kProbe) {
      SIMDEX_RETURN_IF_ERROR(simhash::ProbeIndex(r.distinct, *index, r.against_k, r.options.threads, &r.hits.back()));
    } else {
      simhash::AgainstStats against;
      SIMDEX_RETURN_IF_ERROR(simhash::MergeJoinIndex(r.distinct, *index, r.against_k, sort, &r.hits.back(), &against));
      st.against_blocks_decoded += against.blocks_decoded;
      st.spilled_runs += against.sort.spilled_runs;
      st.spilled_bytes += against.sort.spilled_bytes;
    }
  }
  st.seconds_against = base::Seconds(start);

  // 3. The self-join, into a union-find over the distinct fingerprints.
  start = base::Clock::now();
  const uint32_t nd = static_cast<uint32_t>(r.distinct.size());
  util::UnionFind<uint32_t> sets(nd);
  // The join's sort gets what the union-find leaves; with keep_pairs, a
  // quarter of that goes to the sorter of the pairs found.
  const size_t join_budget = r.SortBudget(size_t{nd} * 4);
  if (r.options.keep_pairs) r.near_pairs = r.Sorter(join_budget / 4);
  simhash::SelfJoinOptions join;
  join.scheme = r.options.scheme;
  join.k = r.k;
  join.sort = sort;
  join.sort.memory_bytes =
      r.options.keep_pairs ? std::max(join_budget / 4 * 3, util::kExternalSortMinMemoryBytes) : join_budget;
  join.force_plain_groups = r.options.force_plain_groups;
  simhash::SelfJoinStats join_stats;
  Status sink_status;
  const simhash::PairSink sink = [&](std::span<const simhash::DistinctPair> pairs) {
    for (const simhash::DistinctPair& p : pairs) {
      sets.Union(p.a, p.b);
      st.pairs += uint64_t{r.multiplicity[p.a]} * r.multiplicity[p.b];
      if (r.near_pairs && sink_status.ok()) {
        const FingerprintIdPair record = PairRecord(p.a, p.b, p.distance);
        sink_status = r.near_pairs->Add(&record, 1);
      }
    }
  };
  if (r.options.external_pairs) {
    std::vector<simhash::DistinctPair> pairs;
    SIMDEX_RETURN_IF_ERROR(simhash::ToDistinctPairs(r.distinct, r.external_pairs, r.k, &pairs));
    r.external_pairs = std::vector<NearPair>();
    sink(pairs);
    join_stats.pairs = pairs.size();
  } else {
    SIMDEX_RETURN_IF_ERROR(simhash::SelfJoin(r.distinct, join, sink, &join_stats));
  }
  SIMDEX_RETURN_IF_ERROR(sink_status);
  st.distinct_pairs = join_stats.pairs;
  st.comparisons = join_stats.groups.comparisons;
  st.spilled_runs += join_stats.sort.spilled_runs;
  st.spilled_bytes += join_stats.sort.spilled_bytes;
  for (uint32_t m : r.multiplicity) st.pairs += uint64_t{m} * (m - 1) / 2;
  st.seconds_self_join = base::Seconds(start);

  // 4. Clusters: representatives (largest score, then smallest ordinal)
  // and sizes by root, then each document's result.
  start = base::Clock::now();
  r.representative = util::MakeLargeArray<uint32_t>(std::max<uint64_t>(1, r.documents));
  r.distance = util::MakeLargeArray<uint8_t>(std::max<uint64_t>(1, r.documents));
  if (r.representative == nullptr || r.distance == nullptr) {
    return Status::IOError("cannot allocate " + std::to_string(r.documents * 5) + " bytes for the documents' results");
  }
  const std::span<const uint32_t> of_document(r.of_document.get(), r.documents);
  const simhash::ClusterCounts counts = simhash::AssignRepresentatives(
      {r.distinct, r.multiplicity, r.first_document, of_document, r.scores}, &sets, r.representative.get(),
      r.distance.get());
  st.clusters = counts.clusters;
  st.clustered_documents = counts.clustered_documents;
  for (uint64_t o = 0; o < r.documents; ++o) {
    const uint32_t d = r.of_document[o];
    if (d == kNone) {
      r.representative[o] = static_cast<uint32_t>(o);
      r.distance[o] = kEmptyDistance;
      continue;
    }
    bool duplicate = r.representative[o] != o;
    // The nearest entry over all indexes: smallest distance, then first
    // index (hits of one index are sorted by distinct number).
    Rep::Against a{static_cast<uint32_t>(o), kNone, 0, 0};
    for (size_t i = 0; i < r.hits.size(); ++i) {
      const std::vector<simhash::AgainstHit>& h = r.hits[i];
      const auto it = std::lower_bound(h.begin(), h.end(), d,
                                       [](const simhash::AgainstHit& x, uint32_t v) { return x.distinct < v; });
      if (it == h.end() || it->distinct != d) continue;
      if (a.index == kNone || it->distance < a.distance) {
        a = {static_cast<uint32_t>(o), static_cast<uint32_t>(i), it->distance, it->id};
      }
    }
    if (a.index != kNone) {
      r.against.push_back(a);
      ++st.against_matches;
      duplicate = true;
    }
    st.duplicates += duplicate;
  }

  // 5. Document pairs.
  if (r.options.keep_pairs) {
    SIMDEX_RETURN_IF_ERROR(r.near_pairs->Finish());
    // The documents of each distinct fingerprint, by ordinal. When every
    // fingerprint has one document, that is its first_document, and the
    // lists (12 bytes and two passes per document) are not made.
    const bool all_distinct = nd == r.documents - st.empty;
    std::vector<uint32_t> first, documents_of;
    if (!all_distinct) {
      first.assign(nd + 1, 0);
      documents_of.resize(r.documents - st.empty);
      for (uint32_t d = 0; d < nd; ++d) first[d + 1] = first[d] + r.multiplicity[d];
      std::vector<uint32_t> next(first.begin(), first.end() - 1);
      for (uint64_t o = 0; o < r.documents; ++o) {
        if (r.of_document[o] != kNone) documents_of[next[r.of_document[o]]++] = static_cast<uint32_t>(o);
      }
    }
    const auto documents_of_fingerprint = [&](uint32_t d) {
      return all_distinct ? std::span<const uint32_t>(&r.first_document[d], 1)
                          : std::span<const uint32_t>(documents_of.data() + first[d], r.multiplicity[d]);
    };
    r.pairs = r.Sorter(r.SortBudget(first.capacity() * 4 + documents_of.capacity() * 4) / 2);
    std::vector<FingerprintIdPair> buf;
    auto flush = [&]() -> Status {
      Status s = r.pairs->Add(buf.data(), buf.size());
      buf.clear();
      return s;
    };
    for (uint32_t d = 0; d < nd && !all_distinct; ++d) {
      const std::span<const uint32_t> docs = documents_of_fingerprint(d);
      for (size_t i = 0; i < docs.size(); ++i) {
        for (size_t j = i + 1; j < docs.size(); ++j) buf.push_back(PairRecord(docs[i], docs[j], 0));
        if (buf.size() >= 4096) SIMDEX_RETURN_IF_ERROR(flush());
      }
    }
    std::vector<FingerprintIdPair> near(size_t{1} << 12);
    for (size_t got = 0;;) {
      SIMDEX_RETURN_IF_ERROR(r.near_pairs->Read(near.data(), near.size(), &got));
      if (got == 0) break;
      for (size_t n = 0; n < got; ++n) {
        const uint32_t x = static_cast<uint32_t>(near[n].fingerprint >> 32);
        const uint32_t y = static_cast<uint32_t>(near[n].fingerprint);
        for (const uint32_t a : documents_of_fingerprint(x)) {
          for (const uint32_t b : documents_of_fingerprint(y)) {
            buf.push_back(PairRecord(std::min(a, b), std::max(a, b), static_cast<uint32_t>(near[n].id)));
          }
          if (buf.size() >= 4096) SIMDEX_RETURN_IF_ERROR(flush());
        }
      }
    }
    SIMDEX_RETURN_IF_ERROR(flush());
    r.CountSpills(r.near_pairs->stats());
    r.near_pairs.reset();
    SIMDEX_RETURN_IF_ERROR(r.pairs->Finish());
  }
  st.seconds_clusters = base::Seconds(start);
  return Status::OK();
}

DedupResult Deduplicator::Result(uint64_t ordinal) const {
  const Rep& r = *rep_;
  DedupResult result;
  if (r.distance[ordinal] == kEmptyDistance) {
    result.empty = true;
    result.representative = ordinal;
    return result;
  }
  result.representative = r.representative[ordinal];
  result.distance = r.distance[ordinal];
  result.duplicate = result.representative != ordinal;
  const auto it = std::lower_bound(r.against.begin(), r.against.end(), ordinal,
                                   [](const Rep::Against& a, uint64_t o) { return a.ordinal < o; });
  if (it != r.against.end() && it->ordinal == ordinal) {
    result.duplicate = true;
    result.against_index = static_cast<int>(it->index);
    result.against_id = it->id;
    result.against_distance = static_cast<int>(it->distance);
  }
  return result;
}

Status Deduplicator::ForEachPair(const std::function<Status(uint64_t a, uint64_t b, int distance)>& fn) {
  Rep& r = *rep_;
  if (!r.finished || !r.pairs) return Status::InvalidArgument("ForEachPair() needs a finished run with keep_pairs");
  if (r.pairs_read) return Status::InvalidArgument("ForEachPair() called twice");
  r.pairs_read = true;
  std::vector<FingerprintIdPair> batch(size_t{1} << 12);
  for (size_t got = 0;;) {
    SIMDEX_RETURN_IF_ERROR(r.pairs->Read(batch.data(), batch.size(), &got));
    if (got == 0) break;
    for (size_t i = 0; i < got; ++i) {
      SIMDEX_RETURN_IF_ERROR(fn(batch[i].fingerprint >> 32, batch[i].fingerprint & 0xffffffff,
                                static_cast<int>(batch[i].id)));
    }
  }
  r.CountSpills(r.pairs->stats());
  r.pairs.reset();
  return Status::OK();
}

}  // namespace simdex
