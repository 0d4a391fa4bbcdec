// ShingleStore: the shingle hashes of the documents a confirmation reads
// (Confirmer::Shingles, sorted distinct), kept within a memory bound: in
// memory while they fit, in a scratch file past it (read back by pread,
// not through a map, so that what is resident stays bounded). Each
// document's hashes are found by its place in the store: documents are
// added in ordinal order, once each.
//
// Not thread-safe. Errors: the first is kept; later calls return it.
#ifndef SIMDEX_ENGINE_PIPELINE_SHINGLE_STORE_H_
#define SIMDEX_ENGINE_PIPELINE_SHINGLE_STORE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/util/spillable_array.h"
#include "simdex/status.h"

namespace simdex::pipeline {

class ShingleStore {
 public:
  // memory_bytes bounds the hashes held in memory (8 bytes each) and the
  // offsets (8 bytes a document), half each; tmpdir: where they spill.
  ShingleStore(size_t memory_bytes, const std::string& tmpdir);

  // Adds the next document's hashes. REQUIRES: Finish() not called.
  Status Add(std::span<const uint64_t> hashes);
  // Ends the adding. REQUIRES: called once, before Get().
  Status Finish();

  // The hashes of the document added place-th (from 0), valid until the
  // next Get() with the same slot (0 or 1: a pair reads one into each).
  // A slot asked again for the place it holds is not read again.
  Status Get(uint64_t place, int slot, std::span<const uint64_t>* out);

  // Bytes written to the scratch file.
  uint64_t bytes_spilled() const { return hashes_.bytes_spilled() + offsets_.bytes_spilled(); }

 private:
  util::SpillableArray hashes_;   // every document's hashes, one after another
  util::SpillableArray offsets_;  // the first hash of each document, and one past the last
  uint64_t total_ = 0;  // hashes added
  std::vector<uint64_t> buffers_[2];
  uint64_t holds_[2] = {UINT64_MAX, UINT64_MAX};
};

}  // namespace simdex::pipeline

#endif  // SIMDEX_ENGINE_PIPELINE_SHINGLE_STORE_H_
