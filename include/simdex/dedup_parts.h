// The pieces of a de-duplication that can run apart, on the workers of a
// cluster, and be put back together into exactly the results one
// Deduplicator gives (the MapReduce plan of docs/distributed.md; the Python
// package simdex.dask drives them on Dask).
//
//   1. Shuffle: each batch fingerprint goes, for every table t of
//      scheme.TablesForDistance(k), to the key range of t that holds
//      TableKey(scheme, t, fingerprint).
//   2. Self-join: JoinTable(t, the fingerprints of one key range of t)
//      gives the pairs that table t owns there. The union over the tables
//      and their ranges is every pair of distinct fingerprints within k,
//      each exactly once.
//   3. Against an index (the inverted direction): NearestInIndexTable(t,
//      the batch fingerprints of one key range of t) for each table t, then
//      ReduceNearest() over all the results gives each batch fingerprint's
//      nearest entry within k (smallest distance, then smallest id).
//   4. Deduplicator with DedupOptions::external_pairs: AddNearPairs() and
//      AddIndexMatches() take the results of 2 and 3 in place of its own
//      self-join and probes.
//
// Thread safety: the functions keep no state; `index` may be shared.
#ifndef SIMDEX_DEDUP_PARTS_H_
#define SIMDEX_DEDUP_PARTS_H_

#include <cstdint>
#include <span>
#include <vector>

#include "simdex/dedup.h"
#include "simdex/index.h"
#include "simdex/scheme.h"
#include "simdex/status.h"

namespace simdex {

// Table t's key of `fingerprint`: the leading scheme.table(t).key_bits()
// bits of the permuted value, right aligned. REQUIRES: 0 <= t <
// scheme.num_tables().
uint64_t TableKey(const Scheme& scheme, int table, uint64_t fingerprint);

// The range, of `ranges` even ranges of table t's keys, that holds the
// fingerprint's key: floor(TableKey * ranges / 2^key_bits). REQUIRES: 1 <=
// ranges <= 2^16.
int KeyRange(const Scheme& scheme, int table, uint64_t fingerprint, int ranges);

// The shuffle's map side, in two passes over the fingerprints so that the
// caller owns the output (the Python binding writes into numpy arrays).
// Bucket (r, i) holds the fingerprints whose key in tables[i] falls in key
// range r, in input order, repeats kept (JoinTables removes them), except
// those whose entry of `empty` is non-zero (documents without a
// fingerprint; `empty` may be left empty, or holds one entry per
// fingerprint).
//
// CountKeyRanges sets *counts to ranges * tables.size() entries:
// (*counts)[r * tables.size() + i] is the size of bucket (r, i).
// SplitByKeyRanges then writes range r's buckets one after another, bucket
// (r, 0) first, into out[r], which must hold the sum of range r's counts
// (those CountKeyRanges gave for the same arguments). Both return
// InvalidArgument for a table outside the scheme, ranges outside 1..2^16,
// `empty` of another length, or counts and out of other sizes.
Status CountKeyRanges(const Scheme& scheme, std::span<const int> tables, int ranges,
                      std::span<const uint64_t> fingerprints, std::span<const uint8_t> empty,
                      std::vector<uint64_t>* counts);
Status SplitByKeyRanges(const Scheme& scheme, std::span<const int> tables, int ranges,
                        std::span<const uint64_t> fingerprints, std::span<const uint8_t> empty,
                        std::span<const uint64_t> counts, std::span<uint64_t* const> out);

// Every pair of distinct fingerprints among `fingerprints` (any order;
// repeats are joined once) within k that table `table` owns: the pair
// agrees on its key and on the key of no table before it in
// scheme.TablesForDistance(k). Appended to *out in no particular order.
// InvalidArgument when k is out of 0..scheme.k() or the table is not one of
// TablesForDistance(k). Runs on up to `threads` threads.
Status JoinTable(const Scheme& scheme, int k, int table, std::span<const uint64_t> fingerprints, int threads,
                 std::vector<NearPair>* out);

// The fingerprints of one key range of one table, for JoinTables(): any
// order, repeats allowed, in any number of pieces (e.g. the buckets the
// partitions' splits sent to one reducer, used where they are).
struct TableFingerprints {
  int table;
  std::vector<std::span<const uint64_t>> pieces;
};

// JoinTable() for each part in turn, appending to *out: one call for many
// tables (a reducer that holds one key range of every table), reusing its
// sort buffers from one part to the next. Each part costs one sort of its
// fingerprints by the table's key; its repeats are dropped within the key
// groups. InvalidArgument (before any work) as JoinTable, or when a part
// holds more than 2^32 - 1 fingerprints.
Status JoinTables(const Scheme& scheme, int k, std::span<const TableFingerprints> parts, int threads,
                  std::vector<NearPair>* out);

// For each distinct fingerprint of `fingerprints` (any order), the nearest
// entry within k of `index` among the entries that agree with it on the key
// of table `table` (smallest distance, then smallest id), by the merge join:
// the table is read forward, decoding only the blocks that hold the batch's
// keys. Appended to *out ordered by fingerprint. InvalidArgument when k is
// above the index's scheme's or the table is not one of its
// TablesForDistance(k); a damaged block is Corruption.
Status NearestInIndexTable(std::span<const uint64_t> fingerprints, const IndexReader& index, int k, int table,
                           int threads, std::vector<NearestEntry>* out);
// The same for fingerprints in pieces (a key range's buckets, as for
// JoinTables).
Status NearestInIndexTable(std::span<const std::span<const uint64_t>> pieces, const IndexReader& index, int k,
                           int table, int threads, std::vector<NearestEntry>* out);

// Keeps, for each fingerprint, the entry with the smallest distance, then
// the smallest id; the result is ordered by fingerprint.
void ReduceNearest(std::vector<NearestEntry>* entries);

}  // namespace simdex

#endif  // SIMDEX_DEDUP_PARTS_H_
