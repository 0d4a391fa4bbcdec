// The documents of a MinHash-LSH index being written: each an id, its band
// keys, its b-bit signature (with its sketch slot when the file has a
// sketch section: lsh_file.h, DocumentBytes) and whether it is banded (its
// signature is not empty). LshIndexBuilder adds documents from their signatures;
// LshIndexMerger adds an old index's documents as the file holds them (keys
// cut to the bits it keeps) and a batch's from their signatures. Write()
// orders them by (id, b-bit signature, kept keys) and writes the file
// (docs/format.md, "MinHash-LSH indexes"), so that the file depends only on
// the documents.
//
// Memory: within a budget. The documents are held in memory (8 bytes of
// id, 8 per band, the b-bit signature, the sketch slot (4 + 4 k bytes)
// and a flag: 201 bytes at the defaults without sketches, 1,229 with, up
// to twice that as the arrays grow, plus 32 per document while
// writing) while that takes at most half the budget; past it they move to
// scratch files and Write() sorts them externally (engine/minhash/index/lsh_spill.h),
// giving the same bytes. The id map of string ids is held in memory apart
// (index::IdMapBuilder).
#ifndef SIMDEX_ENGINE_MINHASH_INDEX_LSH_DOCUMENTS_H_
#define SIMDEX_ENGINE_MINHASH_INDEX_LSH_DOCUMENTS_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/index/id_map_builder.h"
#include "engine/minhash/index/lsh_spill.h"
#include "simdex/lsh_index.h"

namespace simdex::minhash {

class LshDocuments {
 public:
  // REQUIRES: options checked (bands resolved); memory_bytes >=
  // MinSpillMemoryBytes(bands); tmpdir: where scratch files go.
  LshDocuments(const LshBuildOptions& options, size_t memory_bytes, std::string tmpdir);

  uint64_t size() const { return spilled_ ? spilled_->size() : ids_.size(); }
  uint64_t banded() const { return spilled_ ? spilled_->banded() : banded_count_; }
  bool string_ids() const { return options_.string_ids; }
  // Zero while the documents are in memory.
  SpillStats spill_stats() const { return spilled_ ? spilled_->stats() : SpillStats(); }
  // Sorted runs the string ids were spilled as (a quarter of the budget
  // holds them in memory).
  uint64_t id_map_runs() const { return id_map_.stats().runs_spilled; }

  // The number an id is kept as: itself, or (string ids) its provisional
  // string number, a number becoming its decimal string.
  uint64_t IdNumber(uint64_t id);
  Status IdNumber(std::string_view id, uint64_t* number);
  // From numbers to strings: every id so far becomes its decimal string.
  Status SwitchToStringIds();

  // The sketch of a document's shingles when the options keep sketches
  // (sketch_k > 0), else nullptr; valid until the next call.
  const BottomKSketch* SketchOf(std::span<const uint64_t> shingles);
  // A document from its signature (num_perm values) and, with sketches,
  // its text's bottom-k sketch (else nullptr). `id` from IdNumber. The
  // first document decides whether the file has sketches (options'
  // sketch_k > 0 and a sketch given); InvalidArgument for a later document
  // that does not follow it.
  Status Add(uint64_t id, const uint32_t* signature, const BottomKSketch* sketch);
  // A document as an index holds it: band keys (their kept high bits), its
  // document bytes (b-bit signature and, with sketches, the sketch slot:
  // DocumentBytes), banded or not. REQUIRES: HasSketches() decided (the
  // merger decides it with DecideSketches before adding).
  Status AddStored(uint64_t id, const uint64_t* keys, const uint8_t* document, bool banded);
  // Fixes whether the documents carry sketches (the first Add does it);
  // InvalidArgument when documents were added the other way.
  Status DecideSketches(bool with_sketches);
  // The sketches' k (0: none); valid once decided.
  int sketch_k() const { return options_.sketch_k; }

  // Writes the file at path (a temporary name, renamed when complete); with
  // no document added, without sketches.
  // Band values keep the document ordinal in the low max(bits of N - 1,
  // min_ordinal_bits) bits. *file_bytes = the file's size.
  Status Write(const std::string& path, int min_ordinal_bits, uint64_t* file_bytes);

 private:
  // Puts the documents in place: position o takes document order[o].
  void ApplyOrder(const std::vector<uint64_t>& order);
  // Moves the documents to scratch files.
  Status Spill();
  // signature_bytes_ and max_in_memory_ from options_ (its sketch_k).
  void SetDocumentBytes();
  Status WriteInMemory(const std::string& path, int min_ordinal_bits, uint64_t* file_bytes);

  LshBuildOptions options_;
  size_t memory_bytes_ = 0;
  std::string tmpdir_;
  uint64_t max_in_memory_ = 0;  // documents held before they move to scratch files
  std::unique_ptr<SpilledDocuments> spilled_;
  std::vector<uint64_t> add_keys_;  // a document's keys and bytes in Add()
  std::vector<uint8_t> add_signature_;
  BottomKSketch sketch_;            // SketchOf()'s
  size_t signature_bytes_ = 0;  // DocumentBytes: the signature and the sketch slot
  bool decided_ = false;        // whether documents carry sketches
  int requested_sketch_k_ = 0;  // the options' sketch_k before the first document
  std::vector<uint64_t> ids_;   // numbers, or provisional string numbers
  std::vector<uint64_t> keys_;  // bands per document
  std::string signatures_;      // signature_bytes_ per document
  std::vector<uint8_t> banded_;
  uint64_t banded_count_ = 0;
  index::IdMapBuilder id_map_;
};

}  // namespace simdex::minhash

#endif  // SIMDEX_ENGINE_MINHASH_INDEX_LSH_DOCUMENTS_H_
