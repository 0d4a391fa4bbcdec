// De-duplicating a batch of documents by their SimHash fingerprints.
//
// Deduplicator finds every pair of the batch's documents whose fingerprints
// are within Hamming distance k (inclusive), groups the documents into
// clusters (the connected components of those pairs), picks one
// representative per cluster, and optionally checks every document against
// stored indexes. docs/dedup.md describes the algorithm and the command
// built on it (`simdex dedup`).
//
//   Add() each document's fingerprint in input order (AddEmpty() for one
//   without a fingerprint): the i-th call gives the document ordinal i.
//   AddIndex() the indexes to check against (optional).
//   Finish() does the work; then read Result(i), ForEachPair() and stats().
//
// The self-join. Exact duplicates are found by sorting (fingerprint,
// ordinal); the distinct fingerprints are then sorted by the key of each
// table the scheme needs for k, and the fingerprints that share a key are
// compared, each pair reported by one table only. Memory stays within
// DedupOptions::memory_bytes: sorts that do not fit spill sorted runs to
// tmpdir. Near-duplication is not transitive: a cluster may hold documents
// further apart than k; each document's distance to its representative is
// reported.
//
// Against indexes. A document is also a duplicate when an index holds an
// entry within k of it; its nearest such entry (smallest distance, then
// first index, then smallest id) is reported. Two strategies give the same
// answers: probing the index with each distinct fingerprint (small
// batches), or a merge join that streams the index's sorted tables against
// the batch's, decoding only the blocks whose keys the batch holds (large
// batches). kAuto picks one from the sizes.
//
// Thread safety: a Deduplicator is used by one thread (it runs its own
// worker threads inside Finish()).
#ifndef SIMDEX_DEDUP_H_
#define SIMDEX_DEDUP_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "simdex/index.h"
#include "simdex/scheme.h"
#include "simdex/status.h"

namespace simdex {

enum class AgainstStrategy {
  kAuto,       // the merge join when the batch is large against the index, else probes
  kProbe,      // IndexReader::Search for each distinct fingerprint of the batch
  kMergeJoin,  // stream the index's tables against the batch's sorted tables
};
// "auto", "probe", "merge-join".
const char* AgainstStrategyName(AgainstStrategy strategy);

// Two distinct fingerprints of a batch within distance k, a < b.
struct NearPair {
  uint64_t a;
  uint64_t b;
  int distance;
  friend bool operator==(const NearPair&, const NearPair&) = default;
};

// The nearest entry within k of an index for one batch fingerprint.
struct NearestEntry {
  uint64_t fingerprint;  // the batch's
  uint64_t id;           // the entry's (IndexReader's number)
  int distance;
  friend bool operator==(const NearestEntry&, const NearestEntry&) = default;
};

// The most documents a batch holds: documents are numbered in 32 bits,
// one value kept for "none" (Deduplicator, and the MinHash-LSH batch of
// `simdex dedup --method minhash`).
inline constexpr uint64_t kMaxBatchDocuments = (uint64_t{1} << 32) - 2;

// OK while a batch that holds `documents` may take `adding` more (at most
// `max` in all), else InvalidArgument "a batch holds at most <max>
// documents".
Status CheckBatchRoom(uint64_t documents, uint64_t adding, uint64_t max = kMaxBatchDocuments);

// SimHash's length, in code points, under which a document is short (its
// pairs have their own k, k_short), written here once for
// SimHashDedupOptions, ServiceOptions and the front ends. The default
// distance and tables are Scheme::Default()'s (t10, k 3).
inline constexpr uint32_t kDefaultShortLength = 140;

struct DedupOptions {
  // The permuted tables of the self-join. k may be anything up to the
  // scheme's k; the tables Scheme::TablesForDistance(k) names are used.
  Scheme scheme = Scheme::Default();
  // The largest distance (inclusive) that makes two documents
  // near-duplicates; -1: the scheme's k. REQUIRES: -1 <= k <= scheme.k().
  int k = -1;
  // The largest distance (inclusive) of a match in an index (AddIndex,
  // AddIndexMatches); -1: k. A caller that confirms the batch's pairs by
  // their texts searches them at a larger k than the index matches, which
  // it cannot confirm. REQUIRES: -1 <= against_k <= 64.
  int against_k = -1;
  // A bound on the de-duplicator's memory: its per-document arrays (about
  // 16 bytes per document, 8 more with scores) plus the sort buffers it
  // gives what is left (at least 64 KiB). Sorts that do not fit spill.
  size_t memory_bytes = size_t{1} << 30;
  // Directory for spilled runs; "" means $TMPDIR, else /tmp.
  std::string tmpdir;
  // Threads for sorting, joining and probing.
  int threads = 1;
  // Keep every pair for ForEachPair() (sorted and spilled as needed).
  bool keep_pairs = false;
  AgainstStrategy against_strategy = AgainstStrategy::kAuto;
  // Compare every key group pair by pair, never splitting large groups
  // (the results are the same; tests run both paths).
  bool force_plain_groups = false;
  // The pairs of distinct fingerprints come from AddNearPairs() instead of
  // the self-join: they were found elsewhere, by JoinTable()
  // (simdex/dedup_parts.h) over every table and key range, on the workers
  // of a cluster (docs/distributed.md).
  bool external_pairs = false;
  // The most documents Add() and AddEmpty() take (at most, and by default,
  // kMaxBatchDocuments; tests lower it).
  uint64_t max_documents = kMaxBatchDocuments;

  // InvalidArgument naming the first field out of range: k above the
  // scheme's, against_k outside -1..64, threads below 1, max_documents
  // above kMaxBatchDocuments, memory_bytes below 64 KiB. Create() checks
  // it.
  Status Validate() const;
};

struct DedupStats {
  uint64_t documents = 0;
  uint64_t empty = 0;                  // documents without a fingerprint
  uint64_t distinct_fingerprints = 0;
  uint64_t pairs = 0;                  // document pairs within k, exact duplicates included
  uint64_t distinct_pairs = 0;         // pairs of distinct fingerprints within k
  uint64_t clusters = 0;               // clusters of two or more documents
  uint64_t clustered_documents = 0;    // documents in those clusters
  uint64_t duplicates = 0;             // documents Result() marks duplicate
  uint64_t against_matches = 0;        // documents with an index entry within k
  std::string against_strategy;        // the strategy used per index ("probe, merge-join"), "" without indexes
  uint64_t comparisons = 0;            // fingerprint pairs the self-join compared
  uint64_t spilled_runs = 0;           // sorted runs written to tmpdir
  uint64_t spilled_bytes = 0;
  uint64_t against_blocks_decoded = 0; // merge join: index blocks decoded
  double seconds_distinct = 0;         // sorting (fingerprint, ordinal)
  double seconds_self_join = 0;
  double seconds_against = 0;
  double seconds_clusters = 0;         // union-find, representatives, pairs
};

// One document's outcome.
struct DedupResult {
  bool empty = false;          // no fingerprint: never clustered, never a duplicate
  uint64_t representative = 0; // ordinal of its cluster's representative (itself when alone)
  int distance = 0;            // Hamming distance to the representative
  // True when the document is not its cluster's representative, or when an
  // index holds an entry within k of it.
  bool duplicate = false;
  // The nearest index entry within the index k (DedupOptions::against_k),
  // when against_index >= 0: the index's
  // number (in AddIndex order), the entry's id (IndexReader's number) and
  // the distance.
  int against_index = -1;
  uint64_t against_id = 0;
  int against_distance = 0;
};

class Deduplicator {
 public:
  // Validates the options (k within the scheme's, threads >= 1, the memory
  // bound at least 64 KiB, an existing tmpdir).
  static Status Create(const DedupOptions& options, std::unique_ptr<Deduplicator>* out);
  ~Deduplicator();

  // Adds the next document's fingerprint. `score` chooses representatives:
  // a cluster's representative is its document with the largest score, the
  // first added among equals (all scores 0: the first seen). A batch holds
  // at most options.max_documents. REQUIRES: Finish() not called.
  Status Add(uint64_t fingerprint, double score = 0);
  // Adds a document without a fingerprint (no text, no features): it is in
  // no cluster and no pair. REQUIRES: Finish() not called.
  Status AddEmpty();
  // Checks the batch against `index` too. The index k (options.against_k,
  // else k) must not exceed the index's scheme's k (InvalidArgument
  // otherwise). The index must stay open until
  // Finish() returns. REQUIRES: Finish() not called.
  Status AddIndex(const IndexReader* index);

  // The pieces computed elsewhere (docs/distributed.md); the results are
  // those the self-join and AddIndex() would give for the same inputs.
  //
  // With options.external_pairs: every pair of the batch's distinct
  // fingerprints within k, each exactly once (in any order, over any
  // number of calls). A fingerprint the batch does not hold, a == b, or a
  // wrong distance makes Finish() return InvalidArgument.
  Status AddNearPairs(std::span<const NearPair> pairs);
  // One more index, searched elsewhere (it takes the next AddIndex
  // number): the nearest entry of each batch fingerprint that has one
  // within k, at most one per fingerprint (NearestInIndexTable() results
  // reduced by ReduceNearest()). Anything else is InvalidArgument in
  // Finish(). The span is copied.
  Status AddIndexMatches(std::span<const NearestEntry> matches);

  // Finds the pairs, the clusters, the representatives and the index
  // matches. Returns the first error (spill I/O, a damaged index block).
  Status Finish();

  // Documents added so far.
  uint64_t size() const;
  // REQUIRES: Finish() returned OK; ordinal < size().
  DedupResult Result(uint64_t ordinal) const;
  // Calls fn(a, b, distance) for every pair of documents within k, a < b
  // (ordinals), ordered by a, then b; stops at and returns fn's first
  // error. REQUIRES: Finish() returned OK with options.keep_pairs; at most
  // one call (the pairs are streamed from their sorted spill).
  Status ForEachPair(const std::function<Status(uint64_t a, uint64_t b, int distance)>& fn);

  const DedupStats& stats() const;

 private:
  struct Rep;
  explicit Deduplicator(std::unique_ptr<Rep> rep);
  Status FinishImpl();
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex

#endif  // SIMDEX_DEDUP_H_
