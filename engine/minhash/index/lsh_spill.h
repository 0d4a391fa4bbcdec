// The documents of a MinHash-LSH index being written when they do not fit
// the memory budget (LshBuildOptions::memory_bytes): kept in scratch files
// and sorted externally, the file written with the bytes the in-memory
// path (engine/minhash/index/lsh_documents.h) writes for the same documents.
//
// Add() appends each document's fixed-size record (banded flag, band keys,
// b-bit signature; 8 + 8 x bands + the signature rounded up to 8 bytes) to
// a scratch file, sequentially, and its (id number, record position) to an
// external sort. Write() then
//   1. (string ids) re-sorts the pairs by the ids' final numbers (ranks);
//   2. reads the pairs in (id, position) order: ordinal o goes to the next
//      document, each run of equal ids (rare) ordered by DocumentLess from
//      its records; the ids go packed to a scratch file in ordinal order,
//      and (position, ordinal) to a second external sort;
//   3. reads that sort, in position order, with one sequential pass over the
//      records: band j's values (kept key | ordinal) go to band j's external
//      sort, each signature with its ordinal to the bucket file of its
//      ordinal range;
//   4. places the buckets' signatures one bucket at a time into a scratch
//      file in ordinal order;
//   5. writes each band table from its sorted values (a mapped scratch
//      file), then the signatures, ids, id map and metadata
//      (engine/minhash/index/lsh_file.h).
//
// Memory: the buffers of the sorts, buckets and writers stay within the
// budget given to Create (each stage's share is in lsh_spill.cc); the page
// cache of the mapped scratch files is the kernel's and does not count; the
// id map of string ids (index::IdMapBuilder) has its own quarter of the
// LshDocuments' budget and spills sorted runs past it. Maps read once front
// to back (the records, the signatures) are released from the process as
// they are read; a band
// table's sorted values (8 bytes per banded document) stay mapped while it
// is encoded, as in the SimHash builder. A run of equal ids holds 8 bytes
// per document and may take an eighth of the budget (else InvalidArgument).
//
// Scratch files ("simdex-*-XXXXXX" in tmpdir) are removed as soon as they
// are used, and by the destructor after an error. Not thread-safe.
#ifndef SIMDEX_ENGINE_MINHASH_INDEX_LSH_SPILL_H_
#define SIMDEX_ENGINE_MINHASH_INDEX_LSH_SPILL_H_

#include <cstdint>
#include <memory>
#include <string>

#include "engine/index/id_map_builder.h"
#include "simdex/lsh_index.h"

namespace simdex::minhash {

// The smallest budget the spilling path works in: an external sort's
// minimum for each band's share.
size_t MinSpillMemoryBytes(int bands);

// Scratch traffic, for the builder's and merger's stats.
struct SpillStats {
  uint64_t runs = 0;   // sorted runs the external sorts spilled
  uint64_t bytes = 0;  // bytes written to scratch files of every kind
};

class SpilledDocuments {
 public:
  // REQUIRES: options checked (bands resolved); memory_bytes >=
  // MinSpillMemoryBytes(bands). IOError when tmpdir is not a writable
  // directory (its scratch file cannot be made).
  static Status Create(const LshBuildOptions& options, size_t memory_bytes, const std::string& tmpdir,
                       std::unique_ptr<SpilledDocuments>* out);
  ~SpilledDocuments();

  uint64_t size() const { return documents_; }
  uint64_t banded() const { return banded_; }
  const SpillStats& stats() const { return stats_; }

  // A document: its id number (the id, or its provisional string number),
  // band keys (bands values), b-bit signature and whether it is banded.
  Status Add(uint64_t id, const uint64_t* keys, const uint8_t* packed, bool banded);

  // The numeric ids so far become the provisional numbers of their decimal
  // strings in `map`.
  Status SwitchToStringIds(index::IdMapBuilder* map);

  // Writes the file at path (a temporary name, renamed when complete) as
  // LshDocuments::Write does. `map`: the string ids (nullptr for numeric
  // ids); it is finished here.
  Status Write(const std::string& path, int min_ordinal_bits, index::IdMapBuilder* map, uint64_t* file_bytes);

 private:
  struct Rep;
  explicit SpilledDocuments(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
  uint64_t documents_ = 0;
  uint64_t banded_ = 0;
  SpillStats stats_;
};

}  // namespace simdex::minhash

#endif  // SIMDEX_ENGINE_MINHASH_INDEX_LSH_SPILL_H_
