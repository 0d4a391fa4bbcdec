// The documents of a MinHash-LSH index being written, held in memory: each
// an id, its band keys, its b-bit signature and whether it is banded (its
// signature is not empty). LshIndexBuilder adds documents from their
// signatures; LshIndexMerger adds an old index's documents as the file
// holds them (keys cut to the bits it keeps) and a batch's from their
// signatures. Write() orders them by (id, b-bit signature, kept keys) and
// writes the file (docs/format.md, "MinHash-LSH indexes"), so that the file
// depends only on the documents.
//
// Memory: 8 bytes of id, 8 per band and the b-bit signature per document
// (200 bytes at the defaults), plus 16 per document while writing.
#ifndef SIMDEX_ENGINE_LSH_LSH_DOCUMENTS_H_
#define SIMDEX_ENGINE_LSH_LSH_DOCUMENTS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/index/id_map_builder.h"
#include "simdex/lsh_index.h"

namespace simdex::lsh {

class LshDocuments {
 public:
  // REQUIRES: options checked (bands resolved).
  explicit LshDocuments(const LshBuildOptions& options);

  const LshBuildOptions& options() const { return options_; }
  size_t signature_bytes() const { return signature_bytes_; }
  uint64_t size() const { return ids_.size(); }
  uint64_t banded() const { return banded_count_; }
  bool string_ids() const { return options_.string_ids; }

  // The number an id is kept as: itself, or (string ids) its provisional
  // string number, a number becoming its decimal string.
  uint64_t IdNumber(uint64_t id);
  uint64_t IdNumber(std::string_view id);
  // From numbers to strings: every id so far becomes its decimal string.
  void SwitchToStringIds();

  // A document from its signature (num_perm values). `id` from IdNumber.
  void Add(uint64_t id, const uint32_t* signature);
  // A document as an index holds it: band keys (their kept high bits),
  // b-bit signature, banded or not.
  void AddStored(uint64_t id, const uint64_t* keys, const uint8_t* packed, bool banded);

  // Writes the file at path (a temporary name, renamed when complete).
  // Band values keep the document ordinal in the low max(bits of N - 1,
  // min_ordinal_bits) bits. *file_bytes = the file's size.
  Status Write(const std::string& path, int min_ordinal_bits, uint64_t* file_bytes);

 private:
  // Puts the documents in place: position o takes document order[o].
  void ApplyOrder(const std::vector<uint64_t>& order);

  LshBuildOptions options_;
  size_t signature_bytes_ = 0;
  std::vector<uint64_t> ids_;   // numbers, or provisional string numbers
  std::vector<uint64_t> keys_;  // bands per document
  std::string signatures_;      // signature_bytes_ per document
  std::vector<uint8_t> banded_;
  uint64_t banded_count_ = 0;
  index::IdMapBuilder id_map_;
};

}  // namespace simdex::lsh

#endif  // SIMDEX_ENGINE_LSH_LSH_DOCUMENTS_H_
