// The pieces of `simdex dedup --method minhash` (DeduplicateByMinHash,
// include/simdex/batch.h) that run apart, on the workers of a cluster, and
// are put back together into exactly its results (docs/distributed.md,
// "MinHash-LSH"; the Python package simdex.dask drives them on Dask, as it
// drives SimHash's include/simdex/dedup_parts.h).
//
// The batch is cut into partitions (a file each), each signed where it is:
// per document its band keys (BandKeys), packed b-bit signature
// (PackSignature), digest (SignatureDigest, include/simdex/minhash_join.h;
// any value for empty documents) and whether it is empty (no shingles). A
// document is named by its key, PartKey(partition, position), which orders
// documents as their input ordinals do; keys in the shuffles, ordinals
// (input order over all partitions) in the assembly.
//
//   1. Identical signatures: SplitDigests() at each partition, one piece
//      per digest range; FindFollowers() at each range's reducer names, per
//      partition, the documents that follow an earlier one of the same
//      signature, and that first document (its item).
//   2. Band self-join: SplitBandKeys() at each partition sends, band by
//      band, the keys of its items (non-empty documents that follow no
//      earlier copy) to the reducer of the key's range; JoinBandRange()
//      there gives every pair of items that share a key in that range,
//      each once, cut by the partition of its first item.
//   3. Estimate filter: AttachFirstSignatures() at the partition of each
//      pair's first item drops the pairs several ranges found and attaches
//      that item's signature; EstimateSecond() at the partition of the
//      second estimates J and keeps the pairs at or above the filter.
//   4. Assembly, on one process: AssembleItems() (each document's item, the
//      kept pairs by ordinal, the summary's counts), DocumentPairs() (the
//      pairs of --pairs), ClusterItems() or ClusterDocuments() (clusters of
//      the items' pairs, or of confirmed document pairs), whose estimate
//      requests go through step 3 again without a filter, and
//      FinishEstimates() (each document's estimate with its
//      representative).
//
//   5. With --confirm, before the clusters: CutConfirmCandidates() cuts the
//      document pairs by the partition of their second document and names
//      the documents each partition reads again for each piece;
//      PickConfirmRows() there gives each piece its documents' shingle
//      hashes (or texts), ConfirmPieces() at the partition of the pairs'
//      second documents confirms each pair by the command's rule, and
//      ClusterConfirmed() makes the clusters of the accepted pairs alone.
//
// The union of the pieces equals the one-machine run for every partitioning
// and every number of ranges: the records, the document pairs with their
// estimates, and the counts of MinHashDedupStats.
//
// Errors: InvalidArgument naming the argument (a key of another partition,
// a position past a partition's end, lengths that disagree). Thread safety:
// the functions keep no state.
#ifndef SIMDEX_MINHASH_DEDUP_PARTS_H_
#define SIMDEX_MINHASH_DEDUP_PARTS_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "simdex/batch.h"
#include "simdex/confirm.h"
#include "simdex/minhash_join.h"
#include "simdex/status.h"

namespace simdex {

// A document's key: (partition << 32) | position.
inline constexpr uint64_t PartKey(uint32_t partition, uint32_t position) {
  return (uint64_t{partition} << 32) | position;
}
inline constexpr uint32_t PartitionOfKey(uint64_t key) { return static_cast<uint32_t>(key >> 32); }
inline constexpr uint32_t PositionOfKey(uint64_t key) { return static_cast<uint32_t>(key); }

// The range of a uniform 64-bit hash (a band key or a digest) among
// `ranges` even ranges: floor(value * ranges / 2^64). REQUIRES: 1 <= ranges
// <= 2^16.
int HashRange(uint64_t value, int ranges);

// ---- 1. Identical signatures.

// One digest range's share of a partition: the digests of its non-empty
// documents in that range with their keys, in position order.
struct DigestPiece {
  std::vector<uint64_t> digests, keys;
};
struct DigestPieceView { std::span<const uint64_t> digests, keys; };

// *out = `ranges` pieces of partition `partition`'s documents (digests[i]
// and empty[i] for position i; empty may be left empty for none).
// InvalidArgument for ranges outside 1..2^16 or lengths that disagree.
Status SplitDigests(uint32_t partition, std::span<const uint64_t> digests, std::span<const uint8_t> empty,
                    int ranges, std::vector<DigestPiece>* out);

// The documents of one partition that follow an earlier document of the
// same signature: positions (increasing) and the key of the first document
// of that signature (of this or an earlier partition).
struct Followers {
  std::vector<uint32_t> positions;
  std::vector<uint64_t> firsts;
};
struct FollowersView { uint32_t partition = 0; std::span<const uint32_t> positions; std::span<const uint64_t> firsts; };

// Joins one digest range's pieces (any order; every partition's piece of
// the range): *out = `partitions` Followers, (*out)[p] those of partition
// p. A document follows the smallest key of its digest. InvalidArgument for
// a key of partition >= partitions.
Status FindFollowers(std::span<const DigestPieceView> pieces, uint32_t partitions, std::vector<Followers>* out);

// ---- 2. The band self-join.

// One key range's share of a partition: for each band j, the keys in that
// range of the partition's items and the items' document keys,
// keys[lims[j], lims[j + 1]) and items[...], in position order.
struct BandPiece {
  std::vector<uint64_t> keys, items, lims;  // lims: bands + 1 entries from 0
};
struct BandPieceView { std::span<const uint64_t> keys, items, lims; };

// *out = `ranges` pieces of partition `partition`'s items: the documents
// neither empty nor among `followers` (the positions FindFollowers gave
// this partition, from every digest range). keys: n x bands band keys,
// document after document. InvalidArgument for bands < 1, ranges outside
// 1..2^16, lengths that disagree or a follower past the end.
Status SplitBandKeys(uint32_t partition, std::span<const uint64_t> keys, int bands, std::span<const uint8_t> empty,
                     std::span<const std::span<const uint32_t>> followers, int ranges, std::vector<BandPiece>* out);

// Pairs of document keys a < b.
struct KeyPairs {
  std::vector<uint64_t> a, b;
};
struct KeyPairsView { std::span<const uint64_t> a, b; };

// Joins one key range's pieces (one per partition, any order, all with the
// same number of bands): every pair (a, b), a < b, of items that share the
// key of some band there (FindBandPairs, band by band), each once, ordered
// by (a, b); *out = `partitions` KeyPairs, (*out)[p] the pairs whose a is
// of partition p. Memory: the pieces, one band's keys and items again (16
// bytes each), FindBandPairs' and 16 bytes per pair. InvalidArgument for
// pieces of different bands, a band holding 2^32 items or more, or an item
// of partition >= partitions.
Status JoinBandRange(std::span<const BandPieceView> pieces, uint32_t partitions, int threads,
                     std::vector<KeyPairs>* out);

// ---- 3. The estimate filter, the candidates' signatures only.

// Pairs of document keys with the b-bit signature of each pair's a
// (signature_bytes each, pair after pair).
struct SignedPairs {
  std::vector<uint64_t> a, b;
  std::vector<uint8_t> signatures;
};
struct SignedPairsView { std::span<const uint64_t> a, b; std::span<const uint8_t> signatures; };

// At the partition of the pairs' a (`partition`, whose packed signatures
// are packed[position * signature_bytes, ...)): the distinct pairs of the
// pieces, ordered by (a, b), with a's signature; *out = `partitions`
// SignedPairs, (*out)[q] those whose b is of partition q. InvalidArgument
// for an a of another partition or past the end, a b of partition >=
// partitions.
Status AttachFirstSignatures(uint32_t partition, std::span<const KeyPairsView> pieces,
                             std::span<const uint8_t> packed, size_t signature_bytes, uint32_t partitions,
                             std::vector<SignedPairs>* out);

// Pairs of document keys (or ordinals) with an estimate each.
struct EstimatedPairs {
  std::vector<uint64_t> a, b;
  std::vector<double> estimates;
};
struct EstimatedPairsView { std::span<const uint64_t> a, b; std::span<const double> estimates; };

// At the partition of the pairs' b: EstimateJaccardPacked of a's attached
// signature and b's (packed as for AttachFirstSignatures, of num_perm
// values of `bits` bits); *out = the pairs whose estimate is at least
// min_estimate (negative: all), in the order of the pieces, and
// *candidates the number of pairs given. InvalidArgument for a b of
// another partition or past the end, or signatures of another size.
Status EstimateSecond(uint32_t partition, std::span<const SignedPairsView> pieces, std::span<const uint8_t> packed,
                      int num_perm, int bits, double min_estimate, EstimatedPairs* out, uint64_t* candidates);

// ---- 4. The assembly.

// The batch as the assembly sees it, by ordinal (partition after
// partition, by position).
struct MinHashItemsView {
  std::span<const uint64_t> offsets;   // partitions + 1: each partition's first ordinal, then n
  std::span<const uint8_t> empty;      // n: no shingles
  std::span<const uint64_t> first_of;  // n: the first document of each's signature (itself when none)
  std::span<const uint64_t> kept_a, kept_b;  // the kept pairs of items (first documents), a < b
  std::span<const double> kept_estimates;
};
struct MinHashItems {
  std::vector<uint64_t> offsets;
  std::vector<uint8_t> empty;
  std::vector<uint64_t> first_of;
  std::vector<uint64_t> kept_a, kept_b;
  std::vector<double> kept_estimates;
  // documents, empty, distinct_signatures, kept and document_pairs.
  MinHashDedupStats stats;

  MinHashItemsView View() const {
    return {offsets, empty, first_of, kept_a, kept_b, kept_estimates};
  }
};

// *out from the partitions' sizes and empty flags (concatenated in
// partition order), the followers of every digest range and the kept
// pairs of every EstimateSecond (as keys). InvalidArgument for a key
// outside the partitions, flags of another length, or a follower's first
// document that comes after it.
Status AssembleItems(std::span<const uint64_t> sizes, std::span<const uint8_t> empty,
                     std::span<const FollowersView> followers, std::span<const EstimatedPairsView> kept,
                     MinHashItems* out);

// The document pairs of `simdex dedup --method minhash --pairs` before any
// confirmation, ordered by (a, b): every two non-empty documents of one
// signature (estimate 1), and every member of one item of a kept pair with
// every member of the other (the pair's estimate). Ordinals.
void DocumentPairs(const MinHashItemsView& items, EstimatedPairs* out);

// The clusters with one representative each (PairClusters, include/simdex/
// confirm.h: the largest score, then the smallest ordinal), and what the
// estimates still need.
struct MinHashClusters {
  std::vector<uint64_t> representative;  // n
  uint64_t clusters = 0, clustered_documents = 0;
  // The documents that have a representative of another signature
  // (increasing), and for each the index of its request: requests, cut by
  // the partition of a, concatenated in partition order, hold (a, b) = (the
  // keys of the first documents of the document's and its representative's
  // signatures), distinct, ordered by (a, b). Each request goes through
  // AttachFirstSignatures and EstimateSecond (no filter).
  std::vector<uint64_t> other, slot;
  std::vector<KeyPairs> requests;
};

// Clusters of the items' own pairs: each document with its first, and the
// kept pairs. scores: one per document, or empty for all 0.
Status ClusterItems(const MinHashItemsView& items, std::span<const double> scores, MinHashClusters* out);
// Clusters of the document pairs (a[i], b[i]) alone (the confirmed ones).
// InvalidArgument for an ordinal out of range or lengths that disagree.
Status ClusterDocuments(const MinHashItemsView& items, std::span<const double> scores, std::span<const uint64_t> a,
                        std::span<const uint64_t> b, MinHashClusters* out);

// Each document's estimate with its representative, as the one-machine run
// records it: 0 when empty, 1 when it has its representative's signature,
// else its request's estimate from `estimated` (the requests' pieces after
// EstimateSecond, any order). InvalidArgument when a request is missing.
Status FinishEstimates(const MinHashItemsView& items, std::span<const uint64_t> other,
                       std::span<const uint64_t> slot, std::span<const EstimatedPairsView> estimated,
                       std::vector<float>* estimates);

// ---- 5. The confirmation (--confirm), where the texts are.

// The document pairs (DocumentPairs) as keys, cut by the partition of b:
// pieces[q] the pairs whose b is of partition q, by (a, b); wanted[p][q]
// the positions (increasing, distinct) of partition p's documents that
// pieces[q] names, which partition p reads again for it.
struct ConfirmCandidates {
  std::vector<EstimatedPairs> pieces;
  std::vector<std::vector<std::vector<uint32_t>>> wanted;
  uint64_t pairs = 0;  // in all pieces
};
void CutConfirmCandidates(const MinHashItemsView& items, ConfirmCandidates* out);

// Documents as the confirmation reads them: document i (key keys[i]) is
// values [lims[i], lims[i + 1]) of `hashes` (a Jaccard spec: its sorted
// distinct shingle hashes, Confirmer::Shingles) or of `bytes` (edit: its
// UTF-8 text); lims has one entry more than keys, from 0.
struct ConfirmRowsView {
  std::span<const uint64_t> keys, lims, hashes;
  std::span<const uint8_t> bytes;
};
struct ConfirmRows {
  std::vector<uint64_t> keys, lims, hashes;
  std::vector<uint8_t> bytes;
  ConfirmRowsView View() const { return {keys, lims, hashes, bytes}; }
};

// At partition `partition`, whose documents at `positions` (increasing)
// were read into `read` (its keys unused): *out = one ConfirmRows per entry
// of `wanted` (positions, increasing, each among `positions`), with their
// keys. InvalidArgument for a wanted position not read, or rows that
// disagree with positions.
Status PickConfirmRows(uint32_t partition, std::span<const uint32_t> positions, const ConfirmRowsView& read,
                       std::span<const std::span<const uint32_t>> wanted, std::vector<ConfirmRows>* out);

// Pairs with their estimates and the confirmer's similarities.
struct ConfirmedPairs {
  EstimatedPairs pairs;
  std::vector<double> similarities;
};
struct ConfirmedPairsView {
  EstimatedPairsView pairs;
  std::span<const double> similarities;
};

// The rows (rows_a[i], rows_b[i]) of `rows` confirmed as `simdex dedup
// --confirm` confirms a pair: the Jaccard of their shingle hashes, or for
// edit the similarity of their texts where Confirms() holds (NaN where it
// ruled the pair out early); accepted[i] = similarity >= the threshold.
// InvalidArgument for a row out of range or lims that do not run from 0 to
// the values, never decreasing.
Status ConfirmRowPairs(Confirmer* confirmer, const ConfirmRowsView& rows, std::span<const uint64_t> rows_a,
                       std::span<const uint64_t> rows_b, std::vector<uint8_t>* accepted,
                       std::vector<double>* similarities);

// At the partition of the pairs' b: each pair (keys) confirmed by
// ConfirmRowPairs from its documents' rows, found by key among `rows` (the
// pieces PickConfirmRows sent, any order); *out = the accepted pairs, in
// the order of `pairs`. InvalidArgument for a document without rows.
Status ConfirmPieces(Confirmer* confirmer, const EstimatedPairsView& pairs, std::span<const ConfirmRowsView> rows,
                     ConfirmedPairs* out);

// The clusters of the accepted pairs (keys, every ConfirmPieces' result)
// alone (ClusterDocuments), and with keep_pairs *pairs = the accepted
// pairs as ordinals, by (a, b).
Status ClusterConfirmed(const MinHashItemsView& items, std::span<const double> scores,
                        std::span<const ConfirmedPairsView> confirmed, bool keep_pairs, MinHashClusters* clusters,
                        ConfirmedPairs* pairs);

}  // namespace simdex

#endif  // SIMDEX_MINHASH_DEDUP_PARTS_H_
