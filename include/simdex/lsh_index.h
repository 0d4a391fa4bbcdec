// MinHash-LSH indexes: band tables of MinHash signatures in the compressed,
// memory-mapped file format of SimHash indexes (docs/format.md,
// "MinHash-LSH indexes"; docs/minhash.md, "Indexes").
//
// An index holds documents: an id and a MinHash signature each
// (include/simdex/minhash.h). Band j of every document's signature is a
// value in band table j; a query's candidates are the documents that share
// the key of at least one band with it, and each candidate's stored b-bit
// signature estimates its Jaccard similarity without the text. Start here:
//
//   LshBuildOptions options;                  // 128 values, 0.8, 16 x 8 bands
//   std::unique_ptr<LshIndexBuilder> builder;
//   SIMDEX_RETURN_IF_ERROR(LshIndexBuilder::Create("docs.sdx", options, &builder));
//   for (...) SIMDEX_RETURN_IF_ERROR(builder->Add(id, signature));   // num_perm values
//   SIMDEX_RETURN_IF_ERROR(builder->Finish());
//
//   std::unique_ptr<LshIndexReader> index;
//   SIMDEX_RETURN_IF_ERROR(LshIndexReader::Open("docs.sdx", ReaderOptions(), &index));
//   std::vector<LshMatch> found;
//   SIMDEX_RETURN_IF_ERROR(index->Query(signature, LshQueryOptions(), &found));
//
// The file depends only on the documents added (ids and signatures), never
// on the order they came in. A SimHash index given to LshIndexReader (or an
// LSH index to IndexReader) is refused with InvalidArgument naming both
// kinds.
//
// Thread safety: a reader is immutable after Open() and its queries may run
// concurrently; a builder is not thread-safe.
#ifndef SIMDEX_LSH_INDEX_H_
#define SIMDEX_LSH_INDEX_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simdex/index.h"
#include "simdex/merge.h"
#include "simdex/minhash.h"
#include "simdex/status.h"

namespace simdex {

// The sketch size of LshBuildOptions::sketch_k's default, chosen on
// strict precision and recall against a stored index (docs/minhash.md,
// "Against a stored index").
inline constexpr int kDefaultSketchK = 256;

struct LshBuildOptions {
  // How signatures are made: recorded in the file, so that a query signs
  // its texts the same way (LshIndexReader::minhash_options()).
  MinHashOptions minhash;
  // The Jaccard similarity the bands are chosen for (0 < threshold < 1),
  // and the default of the query's estimate filter.
  double threshold = kDefaultMinHashThreshold;
  // Bands and rows; {0, 0}: DefaultLshBands(threshold, num_perm).
  LshBands bands;
  // Bits kept of each signature value for the estimate (1, 2, 4, 8, 16 or
  // 32): num_perm * bits / 8 bytes per document (64 at the defaults).
  int signature_bits = kDefaultSignatureBits;
  // As BuildOptions'. The codec's default is ef: band keys are uniform,
  // and ef finds a key's place in a block without decoding the values
  // before it (at 10^6 documents: p50 9.3 us a query against 24 us with
  // card, for 1.051x against 1.039x the key bits; docs/minhash.md).
  uint32_t block_size = 4096;
  std::string codec = "ef";
  int restarts = 6;
  // Values in each document's bottom-k sketch (MakeBottomKSketch), stored
  // in the file's sketch section when documents are added with their
  // shingles (Add(id, signature, shingles)), so that a query with its text
  // decides on the sketch estimate of J rather than the signature's
  // (LshQueryOptions; docs/minhash.md, "Against a stored index"). 0: no
  // sketches. A document with at most k distinct shingle hashes is stored
  // whole; about 3 bytes a hash (k = 256: + 770 bytes per document, median
  // of the corpora).
  int sketch_k = kDefaultSketchK;
  // Ids are strings (Add(string_view, ...)); a numeric build switches to
  // strings at the first string id, its numbers becoming decimal strings.
  bool string_ids = false;
  // Upper bound, in bytes, on the builder's own buffers (as BuildOptions').
  // The documents stay in memory while they take at most half of it
  // (about 430 bytes each at the defaults, counting the arrays' growth);
  // past that they go to scratch files in tmpdir and are sorted externally
  // (engine/minhash/index/lsh_spill.h), giving the same file byte for byte. The page
  // cache of the mapped scratch files is the kernel's and does not count.
  // String ids are held in memory within a quarter of the budget (about 64
  // bytes plus their length each), past it spilled to sorted runs, as in
  // IndexBuilder. At least 128 KiB per
  // band (2 MiB at 16 bands): InvalidArgument below.
  size_t memory_bytes = size_t{1} << 30;
  // Directory for scratch files; "" = the output's directory. Scratch
  // traffic is about 4 times the file's size (610-630 bytes a document at
  // the defaults, measured at 3 x 10^6 and 10^8), every file removed as
  // soon as it is used.
  std::string tmpdir;
};

struct LshBuildStats {
  uint64_t documents = 0;
  uint64_t banded = 0;  // documents whose signature is not empty
  uint64_t file_bytes = 0;
  uint64_t spilled_runs = 0;   // sorted runs the external sorts wrote (0: in memory)
  uint64_t spilled_bytes = 0;  // bytes written to scratch files (0: in memory)
  uint64_t id_map_runs = 0;    // string ids: sorted runs of ids written to tmpdir (0: in memory)
  int sketch_k = 0;            // the file's sketches (0: none: sketch_k = 0, no documents, or added without shingles)
};

class LshIndexBuilder {
 public:
  // InvalidArgument for options out of range (naming the option); IOError
  // when the scratch directory is not a directory. The output is written
  // under a temporary name and renamed by Finish().
  static Status Create(const std::string& path, const LshBuildOptions& options,
                       std::unique_ptr<LshIndexBuilder>* out);
  ~LshIndexBuilder();

  // Adds a document: its id and its signature of options().minhash.num_perm
  // values (MinHasher::Sign). An empty signature (a text without shingles)
  // is kept with its id but is in no band table: it matches nothing.
  Status Add(uint64_t id, const uint32_t* signature);
  Status Add(std::string_view id, const uint32_t* signature);
  // As Add(id, signature), with the text's shingle set (MinHasher::Sign's
  // `shingles`), from which the document's bottom-k sketch is made when
  // options().sketch_k > 0. The first document added decides: the file has
  // a sketch section when it came with its shingles (and sketch_k > 0; a
  // file of no documents has none);
  // then every document must, and when it came without, none may
  // (InvalidArgument naming the document: a section needs every
  // document's sketch).
  Status Add(uint64_t id, const uint32_t* signature, std::span<const uint64_t> shingles);
  Status Add(std::string_view id, const uint32_t* signature, std::span<const uint64_t> shingles);
  // Adds a document by what the file keeps of it: the band keys
  // (BandKeys(signature, options().bands, keys)) and the b-bit signature
  // (PackSignature with options().signature_bits) of a signature that is
  // not empty. The file is the one Add(id, signature) makes; for callers
  // that hold those rather than the num_perm values (the docId service's
  // delta keeps 8 bytes a band and the b-bit signature per document).
  Status AddBanded(uint64_t id, const uint64_t* band_keys, const uint8_t* packed_signature);

  // Writes the file and renames it into place.
  Status Finish();
  // Gives up: nothing appears under the output name.
  void Abandon();

  // The options with the bands resolved.
  const LshBuildOptions& options() const;
  const LshBuildStats& stats() const;

 private:
  struct Rep;
  explicit LshIndexBuilder(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// A document found by a query. For an index of string ids, id is the
// string's number (LshIndexReader::IdString).
struct LshMatch {
  uint64_t id = 0;
  // The estimate of J: from the bottom-k sketches where they decide
  // (LshQueryOptions), else the b-bit one (EstimateJaccardPacked).
  double estimate = 0;
  // With LshQueryOptions::thresholds: the highest of them the match passes;
  // else 0.
  double threshold = 0;
  friend bool operator==(const LshMatch&, const LshMatch&) = default;
};

// What a query keeps of its candidates (the documents sharing a band key
// with it). The texts are not in the file; a candidate is decided on one
// of two estimates of J:
//  - the sketch estimate (EstimateJaccardSketches of the query's bottom-k
//    sketch and the candidate's stored one) when the query comes with its
//    shingles (QueryTexts, Query(signature, shingles)), the index has a
//    sketch section and `approximate` is false. A candidate passes a
//    threshold T when its sketch estimate is at least T (exact J when both
//    documents are stored whole).
//  - else the b-bit signature estimate, with one rule for a threshold T: a
//    candidate passes T when its estimate is at least
//    DefaultEstimateFilter(T, num_perm), two standard errors below T (0.729
//    for 0.8 at 128 values), as the index's own threshold filters by
//    default.
struct LshQueryOptions {
  // Without thresholds: candidates whose signature estimate is below this
  // are dropped; negative: the filter of the index's threshold; 0 keeps
  // every candidate.
  double min_estimate = -1;
  // Without thresholds, where sketches decide: candidates whose sketch
  // estimate is below this are dropped; negative: min_estimate when that is
  // given (>= 0), else the index's threshold itself.
  double min_sketch_estimate = -1;
  // Decide on the signature estimate even where sketches could.
  bool approximate = false;
  // Thresholds chosen at query time, in any order, each at least the
  // index's (LshIndexReader::threshold(): its bands were chosen for it and
  // miss more of the pairs below it). A candidate is kept when it passes
  // the lowest, and LshMatch::threshold names the highest it passes.
  // Empty: min_estimate decides.
  std::vector<double> thresholds;
  // 0: every match kept, in id order. K > 0: the K kept matches with the
  // highest estimates, highest first, equal estimates in id order.
  uint64_t top_k = 0;

  // InvalidArgument naming the option: min_estimate or min_sketch_estimate
  // above 1 (or NaN), a threshold outside (0, 1], or either of them >= 0
  // with thresholds (two filters for one query). The index's threshold is checked by
  // LshIndexReader::ValidateQuery.
  Status Validate() const;
};

// Results of a batch query in the offset-array form of SearchResults: lims
// has n + 1 entries, and the matches of query i are matches[lims[i],
// lims[i+1]), in id order.
struct LshQueryResults {
  std::vector<size_t> lims;
  std::vector<LshMatch> matches;
};

struct LshQueryStats {
  uint64_t queries = 0;
  uint64_t tables_probed = 0;
  uint64_t blocks_decoded = 0;
  uint64_t candidates = 0;  // distinct documents sharing a band key
  uint64_t sketched = 0;    // candidates decided on their sketches
  uint64_t matches = 0;
  void Add(const LshQueryStats& other);
};

struct LshIndexInfo {
  uint64_t documents = 0;
  uint64_t banded = 0;
  int num_perm = 0;
  uint64_t seed = 0;
  int bands = 0;
  int rows = 0;
  int signature_bits = 0;
  double threshold = 0;
  int ordinal_bits = 0;  // the low bits of a band table value
  uint32_t block_size = 0;
  int restarts = 0;
  struct Table {
    uint64_t blocks = 0;
    uint64_t bytes = 0;  // blocks and head index
    uint64_t payload_bits = 0;
    std::string codec;
  };
  std::vector<Table> tables;
  uint64_t signature_bytes = 0;
  int sketch_k = 0;           // 0: no sketch section (a file of version 5)
  uint64_t sketch_bytes = 0;  // the sketch section
  uint64_t id_bytes = 0;
  int id_width = 0;
  bool string_ids = false;
  uint64_t id_map_strings = 0;
  uint64_t id_map_bytes = 0;
  uint32_t format_version = 0;
  std::string profile;
  uint64_t total_bytes = 0;
  // The information in one band table per banded document: its key bits,
  // 64 - ordinal_bits (the ordinals only name documents).
  double band_key_bound_bits = 0;
};

class LshIndexReader final : public IndexFile {
 public:
  // Maps and checks the file as IndexReader::Open does (header, footer,
  // metadata, section placement; head indexes and the id map per
  // options). InvalidArgument for a SimHash index.
  static Status Open(const std::string& path, const ReaderOptions& options, std::unique_ptr<LshIndexReader>* out);
  static Status Open(std::unique_ptr<RandomAccessFile> file, const ReaderOptions& options,
                     std::unique_ptr<LshIndexReader>* out);
  ~LshIndexReader() override;

  uint64_t documents() const;
  // How the documents' signatures were made: sign query texts with these.
  const MinHashOptions& minhash_options() const;
  LshBands bands() const;
  int signature_bits() const;
  double threshold() const;
  // The signature profile (MinHashProfile of minhash_options()).
  const std::string& profile() const override;
  LshIndexInfo Info() const;

  bool has_string_ids() const override;
  // REQUIRES: has_string_ids(); number < IdStringCount().
  std::string_view IdString(uint64_t number) const override;
  // The strings in the id map (0 for numeric ids).
  uint64_t IdStringCount() const override;
  // The number of a string id (an LshMatch id): InvalidArgument for an
  // index of numeric ids, NotFound when no document has it.
  Status FindIdString(std::string_view id, uint64_t* number) const override;

  // options.Validate(), and InvalidArgument naming both when a threshold
  // is below the index's threshold().
  Status ValidateQuery(const LshQueryOptions& options) const;

  // The documents that share a band key with `signature` (num_perm values)
  // and that the options keep (LshQueryOptions): in id order, or with
  // top_k the K highest estimates (an empty signature finds nothing).
  // ValidateQuery's errors; Corruption naming the file, table and block
  // for damage it reaches.
  Status Query(const uint32_t* signature, const LshQueryOptions& options, std::vector<LshMatch>* out,
               LshQueryStats* stats = nullptr) const;
  // As Query(signature, ...), with the query text's shingle set
  // (MinHasher::Sign's `shingles`): where the index stores sketches (and
  // not options.approximate) the candidates are decided on the sketch
  // estimate (LshQueryOptions). Corruption naming the document for a
  // damaged sketch.
  Status Query(const uint32_t* signature, std::span<const uint64_t> shingles, const LshQueryOptions& options,
               std::vector<LshMatch>* out, LshQueryStats* stats = nullptr) const;
  // The bottom-k size of the stored sketches; 0 when the file has none.
  int sketch_k() const;

  // The batch forms, on up to `threads` threads (the results do not depend
  // on their number): the queries are signatures laid one after another,
  // num_perm values each (InvalidArgument unless signatures.size() is a
  // multiple of num_perm), or texts, each signed as the index's documents
  // were (a MinHasher of minhash_options(): a text without shingles finds
  // nothing). Query i's answer is Query()'s for its signature. On error the
  // first failing query's, in query order ("x.sdx: query 7: ..."), and *out
  // is unspecified.
  Status Query(std::span<const uint32_t> signatures, const LshQueryOptions& options, LshQueryResults* out,
               int threads = 1, LshQueryStats* stats = nullptr) const;
  Status QueryTexts(std::span<const std::string_view> texts, const LshQueryOptions& options, LshQueryResults* out,
                    int threads = 1, LshQueryStats* stats = nullptr) const;

  // Checks every rule of docs/format.md for this kind, reading the whole
  // file.
  Status Verify() const override;

  // As IndexReader::Preload: every page read in, and with lock mlock()ed.
  Status Preload(bool lock, PreloadResult* result) const override;

  // IndexFile: kMinHashLsh; documents(); "<documents> documents, <bands>
  // band tables"; `simdex inspect`'s JSON of Info(); other bands or
  // another threshold is another layout.
  IndexKind kind() const override;
  uint64_t records() const override { return documents(); }
  std::string VerifySummary() const override;
  std::string InspectJson() const override;
  Status CheckSameLayout(const IndexFile& serving) const override;
  void Accept(IndexFileVisitor* visitor) const override { visitor->Visit(*this); }

  // The opened file's state (engine/minhash/index/lsh_rep.h); opaque to users.
  struct Rep;

 private:
  friend class LshIndexMerger;
  explicit LshIndexReader(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// A signature's best match in several indexes, as `simdex dedup --method
// minhash --against` (and simdex.dask) chooses it: the highest estimate;
// among equal ones the first index given, then the first in id order.
// best->index is -1 when no index has a match. found: scratch, reused
// across calls.
struct LshBestMatch {
  int index = -1;  // in the order given
  uint64_t id = 0;
  double estimate = 0;
};
Status QueryBestMatch(const std::vector<const LshIndexReader*>& indexes, const uint32_t* signature,
                      const LshQueryOptions& options, std::vector<LshMatch>* found, LshBestMatch* best);
// The same with the query's shingles: each index decides as
// Query(signature, shingles, ...) does.
Status QueryBestMatch(const std::vector<const LshIndexReader*>& indexes, const uint32_t* signature,
                      std::span<const uint64_t> shingles, const LshQueryOptions& options,
                      std::vector<LshMatch>* found, LshBestMatch* best);

// The filter of `simdex merge --only-new` for a MinHash-LSH index, as
// --only-new is for SimHash (the batch records that are not near-duplicates
// of the old index's entries or of earlier batch records): a batch document
// is new unless
//   - the old index has a match for it at its threshold (Query with the
//     default LshQueryOptions: a document sharing a kept band key whose
//     b-bit estimate passes DefaultEstimateFilter(threshold(), num_perm)),
//   - or an earlier document given to Check (new or not) shares one of its
//     band keys (all 64 bits) and its b-bit estimate with it passes the
//     same filter.
// An empty signature (a text without shingles) matches nothing and is new.
// Where the old index stores sketches (sketch_k() > 0) and a document comes
// with its shingles, both decisions are made on the bottom-k sketch
// estimate instead, as a query with the document's shingles decides
// (LshQueryOptions): the old index's match passes its threshold by its
// sketch estimate, and an earlier document given with its shingles passes
// when EstimateJaccardSketches of the two sketches (of the old index's k)
// is at least threshold(); against an earlier document given without them,
// the b-bit rule above decides.
// Check the documents in batch order and add the new ones to the merger.
// Each document checked is held in memory (8 bytes a band and the b-bit
// signature, about 200 bytes at the defaults, plus 4 bytes a sketch value:
// up to 1 KiB more at k = 256) apart from the merge's memory budget.
//
// Thread safety: not safe for concurrent use.
class LshNewDocumentFilter {
 public:
  // `old` must stay open while the filter is used.
  explicit LshNewDocumentFilter(const LshIndexReader* old);
  ~LshNewDocumentFilter();

  // Sets *is_new for the document with this signature (num_perm values of
  // old->minhash_options()) and remembers it. Errors: the old index's
  // Query errors (Corruption naming the file).
  Status Check(const uint32_t* signature, bool* is_new);
  // The same for a document with its shingles (MinHasher::Sign's
  // `shingles`), decided on the sketches where the old index stores them.
  // Empty shingles: Check(signature, is_new) (a signature read from a file
  // comes without them).
  Status Check(const uint32_t* signature, std::span<const uint64_t> shingles, bool* is_new);
  // The documents Check found not new.
  uint64_t left_out() const;

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

// Growing an LSH index: LshIndexMerger writes a new file holding an old
// index's documents, plus a batch of new ones (signed with the old index's
// minhash_options()), minus the documents of deleted ids. The result is
// the file an LshIndexBuilder with the old index's options (its codec when
// all its tables share one, else "auto") writes for the same documents,
// byte for byte, with one exception: the band values keep at least the old
// index's ordinal bits, so a file that deletions shrink below half its
// size keeps wider ordinals than a fresh build would (it is as sound; only
// its bytes differ). The old index's band keys are read from its tables
// (their kept bits are all a fresh build keeps), its signatures and ids
// from their sections. String ids work as in LshIndexBuilder.
//
// Like the builder, it works within a memory budget (LshMergeOptions; each
// band table of the old index is read once, its keys sorted by document
// within half the budget, spilling past it) and writes to a temporary name; after an error or
// Abandon() nothing appears under the output name, and no scratch file is
// left. `path` may be the old index's own file (replaced by a rename; the
// old mapping stays valid).
struct LshMergeOptions {
  // As LshBuildOptions' (half for the documents, half for sorting the old
  // index's band keys by document): at least 256 KiB per band.
  size_t memory_bytes = size_t{1} << 30;
  // Directory for scratch files; "" = the output's directory.
  std::string tmpdir;
  // Batch ids an old index (or one given to AddIndex) holds already, as
  // MergeOptions::existing_ids: kRefuse and kReplace keep the batch's ids
  // (8 bytes each, or the strings) apart from memory_bytes.
  ExistingIds existing_ids = ExistingIds::kKeep;
};

struct LshMergeStats {
  uint64_t old_documents = 0;
  uint64_t added = 0;
  uint64_t deleted = 0;        // old documents (and those of AddIndex) removed
  uint64_t ids_not_found = 0;  // ids given to Delete() that no old document has
  uint64_t replaced = 0;       // old documents removed because the batch gives their id (kReplace)
  uint64_t documents = 0;      // in the new index
  uint64_t file_bytes = 0;
  uint64_t spilled_runs = 0;   // as LshBuildStats', and the sorts of the old tables' keys
  uint64_t spilled_bytes = 0;
  uint64_t blocks_read = 0;    // band-table blocks decoded reading the indexes merged (each once)
};

class LshIndexMerger {
 public:
  // `old` must stay open until Finish() returns. InvalidArgument for a
  // budget below the minimum; IOError when the scratch directory is not a
  // directory.
  static Status Create(const LshIndexReader* old, const std::string& path, const LshMergeOptions& options,
                       std::unique_ptr<LshIndexMerger>* out);
  // With the default LshMergeOptions.
  static Status Create(const LshIndexReader* old, const std::string& path, std::unique_ptr<LshIndexMerger>* out);
  ~LshIndexMerger();

  // Adds a batch document (num_perm values of old->minhash_options()). An
  // old index that stores sketches (sketch_k() > 0) needs each batch
  // document's shingles, for its sketch (of the old index's k): a document
  // added without is InvalidArgument; the shingles given to an index
  // without sketches are not used.
  Status Add(uint64_t id, const uint32_t* signature);
  Status Add(std::string_view id, const uint32_t* signature);
  Status Add(uint64_t id, const uint32_t* signature, std::span<const uint64_t> shingles);
  Status Add(std::string_view id, const uint32_t* signature, std::span<const uint64_t> shingles);
  // Removes every OLD document whose id is `id` (batch documents stay). In
  // an old index of string ids a number means its decimal string; in one
  // of numeric ids a string id that is not a decimal number matches none.
  Status Delete(uint64_t id);
  Status Delete(std::string_view id);
  // Removes every OLD document (and AddIndex()'s) whose id lies in [first,
  // last], as IndexMerger::DeleteRange: 16 bytes a range, where Delete()
  // holds each id; InvalidArgument when first > last or the old index has
  // string ids. Ids of a range that no document has are not counted in
  // ids_not_found.
  Status DeleteRange(uint64_t first, uint64_t last);
  // Adds every document of another index, as it holds them (as the old
  // index's are read), minus the ids given to Delete(). `other` must have
  // the old index's minhash options, bands, signature bits and sketch k
  // (or, as it, no sketches) (InvalidArgument naming what differs) and ids
  // of the same kind, and
  // stay open until Finish() returns. The band values keep at least the
  // ordinal bits of every index read, so that the keys they cut stay whole.
  Status AddIndex(const LshIndexReader* other);

  Status Finish();
  void Abandon();
  const LshMergeStats& stats() const;

 private:
  struct Rep;
  explicit LshIndexMerger(std::unique_ptr<Rep> rep);
  Status AddSketched(uint64_t id, const uint32_t* signature, const BottomKSketch* sketch);
  std::unique_ptr<Rep> rep_;
};

}  // namespace simdex

#endif  // SIMDEX_LSH_INDEX_H_
