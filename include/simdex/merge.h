// Growing an index: IndexMerger writes a new index file holding an existing
// index's entries, plus a batch of new ones, minus the entries of deleted
// ids, without sorting the existing index's tables again: each of its
// tables is read in order (it is sorted already) and merged with the
// batch's sorted table.
//
// The result is the file a fresh IndexBuilder run over the same entries
// with the old index's scheme, block size and restart points would write,
// byte for byte, with the old index's codec when all its tables share one
// and it has entries (else codec "auto", the default) (docs/dedup.md,
// "Growing an index"). Like the builder, the merger writes to a temporary
// name and renames only a complete file; after an error or Abandon()
// nothing appears under the output name.
//
//   IndexMerger::Create(old, "new.sdx", options, &merger);
//   merger->Add(ids, fingerprints);   // the batch, in any order
//   merger->Delete(42);               // entries of the old index with id 42
//   merger->Finish();
//
// String ids (URLs, article ids) work as in IndexBuilder: an old index of
// string ids keeps them, numeric ids added to it are kept as their decimal
// strings, and the first string id added to an old index of numeric ids
// turns the result into an index of string ids, the old ids becoming their
// decimal strings. Either way the id map is the sorted set of the ids that
// remain.
//
// Thread safety: one thread uses a merger; `old` may serve searches on other
// threads meanwhile.
#ifndef SIMDEX_MERGE_H_
#define SIMDEX_MERGE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "simdex/index.h"
#include "simdex/index_file.h"
#include "simdex/status.h"

namespace simdex {

// What a merge does with a batch id that the old index already holds (the
// same batch merged twice, or a document sent again). Used by MergeOptions
// and LshMergeOptions.
enum class ExistingIds {
  // The batch's entries are stored beside the old ones: the index then holds
  // the id twice, and a query answers it twice.
  kKeep,
  // Finish() fails with InvalidArgument naming the first such id (in the
  // old index's order) and counting the others: "id '42' is in the old
  // index already (and 3 more ids of the batch are)". `simdex dedup`
  // refuses ids given twice in a batch alike.
  kRefuse,
  // The old entries of each such id are removed, as Delete(id) would remove
  // them (counted in stats().replaced), and the batch's take their place.
  kReplace,
};

struct MergeOptions {
  // Bound on the merger's own buffers: the batch's sorts, the merged tables
  // and the deleted entries' fingerprints (in memory when 8 bytes per entry
  // fit, else in scratch files). The ids given to Delete() are held apart
  // (DeleteRange: 16 bytes a range).
  size_t memory_bytes = size_t{1} << 30;
  // Directory for scratch files; "" means the directory of the output file.
  std::string tmpdir;
  // Threads for sorting the batch.
  int threads = 1;
  // The fingerprint profile of the entries added (include/simdex/profile.h;
  // "" = unrecorded). Create refuses one that differs from the old index's
  // (CheckSameProfile); the merged index records the old index's profile,
  // or this one when the old records none.
  std::string profile;
  // Batch ids the old index holds already. kRefuse and kReplace keep the
  // batch's numeric ids (8 bytes each; string ids are in the id map anyway)
  // apart from memory_bytes, as Delete()'s ids are. The library's default
  // keeps both, as it always did; `simdex merge` refuses (--replace
  // replaces), and so does Python's simdex.merge.
  ExistingIds existing_ids = ExistingIds::kKeep;
};

struct MergeStats {
  uint64_t old_entries = 0;
  uint64_t added = 0;          // batch entries
  uint64_t deleted = 0;        // entries of the old index removed
  uint64_t ids_not_found = 0;  // ids given to Delete() that no entry has
  uint64_t replaced = 0;       // old entries removed because the batch gives their id (kReplace)
  uint64_t entries = 0;        // in the new index
  uint64_t file_bytes = 0;
  uint64_t blocks_decoded = 0; // of the old index
  uint64_t id_map_runs = 0;    // string ids: sorted runs of ids written to tmpdir (0: in memory)
  double seconds = 0;          // Finish()
};

class IndexMerger {
 public:
  // Prepares to write `path` from `old` (which must stay open until Finish()
  // returns). `path` may be old's own file: the new file replaces it by a
  // rename, and old's mapping stays valid.
  static Status Create(const IndexReader* old, const std::string& path, const MergeOptions& options,
                       std::unique_ptr<IndexMerger>* out);
  ~IndexMerger();

  // Adds batch entries; the same (id, fingerprint) twice in a batch is
  // stored twice. An id the old index holds: MergeOptions::existing_ids.
  Status Add(uint64_t id, uint64_t fingerprint);
  Status Add(std::span<const uint64_t> ids, std::span<const uint64_t> fingerprints);
  // Adds a batch entry with a string id: 1 to 4096 bytes of UTF-8 without
  // control characters (as IndexBuilder; InvalidArgument otherwise).
  Status Add(std::string_view id, uint64_t fingerprint);
  // Removes every entry of the OLD index whose id is `id` (batch entries are
  // kept: delete-then-add replaces a document). An id no entry has is
  // counted in stats().ids_not_found. In an old index of string ids a
  // number means its decimal string, and a string id that is a decimal
  // number means that number in an old index of numeric ids.
  Status Delete(uint64_t id);
  Status Delete(std::string_view id);
  // Removes every entry of the OLD index whose id lies in [first, last]
  // (InvalidArgument when first > last, or when the old index has string
  // ids). A range is held in 16 bytes however many ids it spans, where
  // Delete() holds each id (8 bytes, or its string): the docId service
  // expires a prefix of its seqs with it. Ids of a range that no entry has
  // are not counted in ids_not_found.
  Status DeleteRange(uint64_t first, uint64_t last);

  // Merges, writes, fsyncs and renames. The first error is returned and
  // nothing is left under the output name.
  Status Finish();
  // Gives up: removes temporary files.
  void Abandon();

  const MergeStats& stats() const;

 private:
  struct Rep;
  explicit IndexMerger(std::unique_ptr<Rep> rep);
  Status FinishImpl();
  std::unique_ptr<Rep> rep_;
};

// Growing an index of either kind (include/simdex/index_file.h): the
// merger of the kind the old file records, made by the registry, so that a
// front end merges without asking the kind. Each kind takes its own
// records: a SimHash index fingerprints (IndexMerger), a MinHash-LSH index
// signatures of its minhash_options(), with each document's shingles when
// it keeps sketches (LshIndexMerger); a record of another kind is
// InvalidArgument naming both ("a minhash-lsh index merges signatures, not
// fingerprints"). Every call does what the kind's own merger's does, and
// the file is that merger's, byte for byte.
//
//   std::unique_ptr<IndexFile> old;
//   OpenIndexFile("corpus.sdx", ReaderOptions(), &old);
//   std::unique_ptr<IndexFileMerger> merger;
//   IndexFileMerger::Create(*old, "new.sdx", options, &merger);
//   merger->Add(42, fingerprint);  // or merger->Add("doc-7", signature)
//   merger->Delete(17);
//   merger->Finish();
//
// Thread safety: as the kinds' mergers.
class IndexFileMerger {
 public:
  // The merger of old's kind (IndexFileKind::NewMerger). `old` must stay
  // open until Finish() returns. options: memory_bytes, tmpdir and
  // existing_ids for every kind; threads and profile are SimHash's (a
  // MinHash-LSH merger does not read them).
  static Status Create(const IndexFile& old, const std::string& path, const MergeOptions& options,
                       std::unique_ptr<IndexFileMerger>* out);
  virtual ~IndexFileMerger() = default;

  // SimHash records: IndexMerger::Add.
  virtual Status Add(uint64_t id, uint64_t fingerprint);
  virtual Status Add(std::span<const uint64_t> ids, std::span<const uint64_t> fingerprints);
  virtual Status Add(std::string_view id, uint64_t fingerprint);
  // MinHash-LSH records: LshIndexMerger::Add.
  virtual Status Add(uint64_t id, const uint32_t* signature);
  virtual Status Add(std::string_view id, const uint32_t* signature);
  virtual Status Add(uint64_t id, const uint32_t* signature, std::span<const uint64_t> shingles);
  virtual Status Add(std::string_view id, const uint32_t* signature, std::span<const uint64_t> shingles);

  // Removes every OLD record whose id is `id`, as the kind's Delete.
  virtual Status Delete(uint64_t id) = 0;
  virtual Status Delete(std::string_view id) = 0;
  // Merges, writes, fsyncs and renames; the first error is returned and
  // nothing is left under the output name.
  virtual Status Finish() = 0;
  virtual void Abandon() = 0;

  // The kind's figures as MergeStats: a MinHash-LSH index's documents are
  // its entries (old_entries, entries), its band-table blocks read
  // blocks_decoded; seconds is Finish()'s.
  virtual MergeStats stats() const = 0;

 protected:
  // InvalidArgument: "a <kind> index merges <its records>, not <records>".
  virtual Status NotMine(std::string_view records) const = 0;
};

}  // namespace simdex

#endif  // SIMDEX_MERGE_H_
