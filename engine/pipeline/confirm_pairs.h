// The second stage of `simdex dedup` (docs/quality.md): candidate pairs
// from the self-join at a larger k for short documents (--k-short), each
// confirmed by an exact similarity of the two texts (--confirm) before it
// counts; clusters and representatives are then made from the confirmed
// pairs only.
#ifndef SIMDEX_ENGINE_PIPELINE_CONFIRM_PAIRS_H_
#define SIMDEX_ENGINE_PIPELINE_CONFIRM_PAIRS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/batch.h"
#include "simdex/confirm.h"
#include "simdex/dedup.h"
#include "simdex/fingerprint.h"
#include "simdex/status.h"
#include "engine/pipeline/document_source.h"
#include "engine/pipeline/kept_shingles.h"

namespace simdex::pipeline {

struct SecondStageArgs {
  std::string confirm;        // a ParseConfirmSpec spec; empty: no confirmation
  int k_short = -1;           // k for pairs with a short document; -1: the same k
  uint32_t short_length = kDefaultShortLength;  // code points below which a document is short
  size_t memory_bytes = size_t{1} << 30;  // the shingle hashes' bound (ConfirmPairs)
  std::string tmpdir = "/tmp";
  int threads = 1;  // that shingle the texts read again
  bool active() const { return !confirm.empty() || k_short >= 0; }
};

// Each document's fingerprint and length, kept while the batch is read.
struct SecondStageDocuments {
  std::vector<uint64_t> fingerprints;  // 0 for empty documents
  std::vector<uint32_t> lengths;       // code points
  std::vector<double> scores;          // --keep's scores; empty while all are 0
  void Add(const FingerprintResult& r, std::string_view text, double score);
};

// The outcomes of `--method minhash`, 5 bytes per document where a
// DedupResult takes 48: each document's representative (itself when alone
// or empty; documents are numbered in 32 bits), whether it is empty, and
// (only with --against) its match in an index: (index, id), index -1 for
// none.
struct CompactOutcomes {
  std::vector<uint32_t> representative;
  std::vector<uint8_t> empty;
  std::vector<std::pair<int32_t, uint64_t>> against;
  DedupResult Result(uint64_t o) const {
    DedupResult r;
    r.empty = empty[o] != 0;
    r.representative = representative[o];
    r.duplicate = r.representative != o;
    if (!against.empty() && against[o].first >= 0) {
      r.duplicate = true;
      r.against_index = against[o].first;
      r.against_id = against[o].second;
    }
    return r;
  }
};

// Per document outcomes: the de-duplicator's, those the second stage made
// (then replaced holds one per document), or MinHash-LSH's (compact).
struct DedupOutcomes {
  // Results come from replaced when it is not empty, else from dedup, else
  // from compact.
  const Deduplicator* dedup = nullptr;
  std::vector<DedupResult> replaced;
  CompactOutcomes compact;
  // --method minhash: each document's estimated J with its representative,
  // written instead of the distance; empty otherwise.
  std::vector<float> estimates;
  // --method minhash --against: each document's estimate with the index
  // document of its result's against_id (when against_index >= 0),
  // written instead of the against distance; empty otherwise.
  std::vector<float> against_estimates;
  uint64_t size() const {
    return dedup != nullptr ? dedup->size() : replaced.empty() ? compact.representative.size() : replaced.size();
  }
  DedupResult Result(uint64_t o) const {
    return !replaced.empty() ? replaced[o] : dedup != nullptr ? dedup->Result(o) : compact.Result(o);
  }
};

struct AcceptedPair {
  uint32_t a, b;  // ordinals, a < b
  int distance;
  double similarity = -1;  // the confirmer's, in [0, 1]; -1 without --confirm
  double estimate = -1;    // MinHash's estimate of J (--method minhash; then distance is unused); -1: none
};

// A set of pairs, given one at a time: a PairSource calls its visitor with
// each pair and stops at the first error the visitor returns.
using PairVisitor = std::function<Status(const AcceptedPair&)>;
using PairSource = std::function<Status(const PairVisitor&)>;

// The pairs of a vector, in its order.
PairSource PairsOf(const std::vector<AcceptedPair>& pairs);

// Confirms the candidates (spec: a ParseConfirmSpec spec; empty accepts
// them all) from their texts, read again: `accept` is called with those
// whose similarity reaches the spec's threshold, in the candidates' order,
// with their similarity. The candidates are visited twice (the documents
// they name, then the pairs) and never held: a source may make them as it
// goes. A Jaccard confirmer shingles each text once (only the shingle
// hashes are kept), then each pair costs one merge of two sorted lists.
// Where `kept` holds every document's shingle hashes (kept()) and the
// spec's are the same shingles (UsesKeptShingles), the texts are not read
// again and the candidates are visited once; the pairs accepted are the
// same. stats->texts_read_again counts the documents read again.
// REQUIRES: the inputs can be read again; both visits give the same pairs.
Status ConfirmPairs(const std::string& spec, const DocumentSource& documents, size_t memory_bytes,
                    const std::string& tmpdir, int threads, const PairSource& candidates,
                    const PairVisitor& accept, ConfirmationStats* stats, const KeptShingles* kept = nullptr);

// Whether a confirmation by `spec` compares the shingle sets of `shingles`
// (a jaccard-shingles spec of the same n and word definition), so that
// hashes kept from the signing can stand in for the texts.
bool UsesKeptShingles(const std::string& spec, const ShingleOptions& shingles);

// Runs the second stage after dedup->Finish() (which kept its pairs):
// REQUIRES: the inputs can be read again (no standard input); documents
// holds every document added. Confirms by ConfirmPairs. Fills
// outcomes->replaced and *accepted (by a, then b). Index matches count only within k (stored texts are not at hand
// to confirm them).
Status RunSecondStage(const SecondStageArgs& args, const DocumentSource& source, int k,
                      const SecondStageDocuments& documents, Deduplicator* dedup, DedupOutcomes* outcomes,
                      std::vector<AcceptedPair>* accepted, ConfirmationStats* stats);

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_CONFIRM_PAIRS_H_
